// The page side of the browser benchmark (bench/browser.mjs drives it): loads the
// library from /dist/, onnxruntime-web from /ort/ and tfjs from /tfjs-*/ (all served
// locally), then runs one case per call from the driver: the columns of cases.mjs,
// checked bit for bit, timed in interleaved rounds (rounds.mjs).

import { createOps } from '/dist/esm/index.js';
import { workloads } from '/bench/check.mjs';
import { prepareCase } from '/bench/cases.mjs';
import { createOrtPeer, createTfjsPeer, createJsPeer, createCopyLimit } from '/bench/peers.mjs';
import { timeRounds, timerStep } from '/bench/rounds.mjs';
import { runFresh } from '/bench/fresh.mjs';
import { measurePageCost } from '/bench/page-cost.mjs';

let ctx;

async function init({ ortUrl, ortDir, tfjsWasmDir, peers: wanted }) {
  const ops = await createOps();
  const peers = {};
  const peerErrors = {};
  const versions = {};
  const load = async (id, make) => {
    if (!wanted.includes(id)) { peerErrors[id] = 'not selected'; return; }
    try { peers[id] = await make(); } catch (e) { peerErrors[id] = `unavailable: ${String(e?.message ?? e).split('\n')[0]}`; }
  };
  await load('ort-web', async () => {
    const m = await import(ortUrl);
    const p = await createOrtPeer({ ort: m.default?.InferenceSession ? m.default : m, wasmPaths: ortDir });
    versions['ort-web'] = `onnxruntime-web ${p.version} (wasm EP, numThreads=1, proxy off)`;
    return p;
  });
  await load('tfjs-wasm', async () => {
    const p = await createTfjsPeer({ tf: globalThis.tf, wasm: globalThis.tf.wasm, wasmPaths: tfjsWasmDir });
    versions['tfjs-wasm'] = `tfjs-core ${p.version}, backend '${p.backend}' (simd=${p.simd}, threads=${p.threads})`;
    return p;
  });
  await load('js', createJsPeer);
  ctx = { ops, peers, peerErrors, copy: await createCopyLimit() };
  return {
    userAgent: navigator.userAgent, crossOriginIsolated: globalThis.crossOriginIsolated ?? false,
    timerStepMs: timerStep(), simd: ops.simd, peers: versions, peerErrors,
  };
}

/** One case: { workload, dtype, n, rounds, batchMs, floorBlocks, copyPlacements } -> run.mjs's case record. */
async function runCase({ workload, dtype, n, rounds, batchMs, floorBlocks, copyPlacements }) {
  const wl = workloads().find((w) => w.id === workload);
  const shapes = wl.shapes(n);
  const warnings = [];
  // the library makes zero-filled results outside Node
  const prepared = await prepareCase({ ...ctx, freshBytes: (b) => new Uint8Array(b), floorBlocks, copyPlacements },
    wl, dtype, n, shapes, { log: (m) => warnings.push(m.trim()) });
  const { cols, bytes } = prepared;
  try {
    const timed = [];
    for (const [id, c] of Object.entries(cols)) {
      if (c.na || c.error) continue;
      (c.placements ?? [c.fn]).forEach((fn, k) => timed.push({ id: `${id}#${k}`, col: id, fn, isAsync: c.isAsync }));
    }
    const t = await timeRounds(timed, { rounds, batchMs });
    const results = {};
    for (const [id, c] of Object.entries(cols)) {
      if (c.na || c.error) { results[id] = { status: c.na ? 'n/a' : 'error', reason: c.na ?? c.error }; continue; }
      // the copy limit and the floors: the best placement or block
      const best = timed.filter((x) => x.col === id).map((x) => t[x.id]).sort((a, b) => a.median_us - b.median_us)[0];
      results[id] = {
        status: 'ok', ...best, gbps: bytes / (best.median_us * 1e3),
        ...(c.mismatch ? { mismatch: c.mismatch } : {}), ...(c.warn ? { warning: c.warn } : {}),
      };
    }
    return { ...prepared.record(results), warnings };
  } finally {
    for (const f of prepared.cleanups) f();
    await ctx.peers['ort-web']?.clear?.();
  }
}

window.benchPage = {
  init,
  runCase,
  runFresh: (opts) => runFresh(ctx.ops, opts),
  pageCost: () => measurePageCost(),
  memory: () => ctx.ops.memoryStats(),
};
document.getElementById('log').textContent = 'ready';
