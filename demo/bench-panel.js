// The benchmark panel: the library's call forms beside the bench's plain JS
// loop and, when the page has it, onnxruntime-web, with the bench's own modules
// (bench/: data, peers and their ONNX models, the interleaved timing loop), every
// result checked bit for bit against the oracle (bench/oracle.mjs) first.

import { createOps, OnnxOpsError, DTYPE_INFO } from '/dist/esm/index.js';
import { compareOutputs, randomData } from '/bench/common.mjs';
import { createJsPeer, createOrtPeer } from '/bench/peers.mjs';
import { calibrate, timeRounds } from '/bench/rounds.mjs';
import { expected as oracle } from '/bench/oracle.mjs';
import { $ } from './dom.js';
import { drawChart, drawTable, showFreshNote, showGapNote } from './bench-view.js';
import { longestFrameGap } from './frames.js';

let ops = null;

/** Where demo/serve.mjs serves onnxruntime-web's dist/ when it is installed. */
const ORT_SERVED = '/ort/ort.wasm.min.mjs';
const ortPromises = new Map();
/**
 * onnxruntime-web, when the page has it: a global `ort`, `?ort=<module url>`, or, with
 * "compare with onnxruntime-web" ticked, the copy served at /ort/. Never fetched otherwise.
 * Resolves to { ort, peer, source } (peer: the bench's ort-web peer) or { ort: null, reason }.
 */
function getOrt() {
  const url = new URLSearchParams(location.search).get('ort') ?? ($('#bench-ort-include').checked ? ORT_SERVED : null);
  const key = globalThis.ort?.InferenceSession ? 'global' : url && new URL(url, location.href).href;
  if (!key) return Promise.resolve({ ort: null, reason: 'not included' });
  if (!ortPromises.has(key)) {
    const loaded = key === 'global' ? Promise.resolve({ ort: globalThis.ort, source: 'a global ort' })
      : import(key).then((m) => ({ ort: m.default?.InferenceSession ? m.default : m, wasmPaths: new URL('./', key).href, source: url }));
    ortPromises.set(key, loaded.then(async ({ ort, wasmPaths, source }) => ({ ort, source, peer: await createOrtPeer({ probe: false, ort, wasmPaths }) }), (e) => ({
      ort: null,
      reason: url === ORT_SERVED
        ? 'not served at /ort/: install it (npm --prefix bench ci) and restart demo/serve.mjs'
        : `failed to load from ${url}: ${e?.message ?? e}`,
    })));
  }
  return ortPromises.get(key);
}

const nextFrame = () => new Promise((r) => setTimeout(r, 0));

/** The worker form, started when the benchmark first asks for it. */
let workerOpsPromise = null;
function workerOps() {
  workerOpsPromise ??= createOps({ worker: true }).catch((e) => {
    workerOpsPromise = null;
    throw e;
  });
  return workerOpsPromise;
}

/**
 * Median and best ms per call of each column, in interleaved rounds (bench/rounds.mjs).
 * Each column is calibrated once untimed first: a batch sized while the JIT was cold
 * reads 0 ms on a coarse clock (WebKit's) once the code is fast.
 */
async function timeColumns(cols, n) {
  const rounds = n >= 1e6 ? 7 : 15;
  const batchMs = 10;
  for (const c of cols) await calibrate(c, batchMs);
  const t = await timeRounds(cols, { rounds, batchMs });
  return Object.fromEntries(cols.map((c) => [c.id, { median: t[c.id].median_us / 1000, min: t[c.id].min_us / 1000, runs: t[c.id].batch * rounds }]));
}

/** One call of `op` on `o` (either form): Max takes every input, Relu the first. */
const callOp = (o, op, ins, options) => (op === 'Max' ? o.max(ins, options) : o.relu(ins[0], options));

/** The forms the panel times: { name, detail, fn, isAsync, setup, teardown }. */
function contestants({ op, dtype, n, inputs, opset, useWorker, ort }) {
  const call = (o, ins, options) => callOp(o, op, ins, options);
  const list = [
    { name: 'onnx-ops-wasm', detail: 'plain arrays (copies in and out)', fn: () => call(ops, inputs, { opset }).data },
    {
      name: 'onnx-ops-wasm zero-copy',
      detail: 'ops.tensor() inputs, out tensor',
      setup() {
        this.ts = inputs.map((t) => ops.tensor(dtype, [n], t.data));
        this.out = ops.tensor(dtype, [n]);
      },
      fn() { return call(ops, this.ts, { opset, out: this.out }).data; },
      teardown() { for (const t of this.ts ?? []) t.dispose(); this.out?.dispose(); },
    },
  ];
  if (useWorker) {
    list.push({
      name: 'onnx-ops-wasm worker',
      detail: 'createOps({ worker: true }): await ops.max(), inputs copied',
      isAsync: true,
      async setup() { this.ops = await workerOps(); },
      async fn() { return (await call(this.ops, inputs, { opset })).data; },
    });
  }
  list.push({ name: 'plain JS loop', detail: 'a for loop over typed arrays (bench/common.mjs)', setup: async function () { this.js = await createJsPeer(); }, fn() { return op === 'Max' ? this.js.max(inputs) : this.js.relu(inputs[0]); } });
  if (ort) {
    list.push({
      name: 'onnxruntime-web',
      detail: 'wasm backend, 1 thread (new ort.Tensor + session.run)',
      isAsync: true,
      async setup() {
        if (!(await ort.peer.prepare(op.toLowerCase(), dtype, inputs.map((t) => t.shape)))) throw new Error(`onnxruntime-web has no ${op} for ${dtype}`);
      },
      fn: () => (op === 'Max' ? ort.peer.max(inputs) : ort.peer.relu(inputs[0])),
      teardown: () => ort.peer.clear(),
    });
  }
  return list;
}

async function runBench() {
  const btn = $('#bench-run');
  const status = $('#bench-status');
  const op = $('#bench-op').value;
  const dtype = $('#bench-dtype').value;
  const n = Number($('#bench-size').value);
  btn.disabled = true;
  status.dataset.state = 'running';
  status.textContent = `Running ${op} on ${n.toLocaleString('en-US')} ${dtype} elements…`;
  $('#bench-chart').replaceChildren();
  $('#bench-table').replaceChildren();
  showFreshNote(null);
  showGapNote(null);
  await nextFrame();

  const inputs = (op === 'Max' ? [1, 2] : [1]).map((seed) => ({ dtype, shape: [n], data: randomData(dtype, n, seed) }));
  const want = oracle(op.toLowerCase(), dtype, inputs);
  const opset = op === 'Max' ? 13 : 14;
  const useWorker = $('#bench-worker').checked;
  const { ort, peer, reason: ortReason } = await getOrt();
  renderOrtBadge();
  const list = contestants({ op, dtype, n, inputs, opset, useWorker, ort: ort && { peer } });
  const rows = [];
  try {
    const timed = [];
    for (const c of list) {
      status.textContent = `Checking ${c.name}…`;
      await nextFrame();
      try {
        await c.setup?.();
        const diff = compareOutputs(dtype, want, await c.fn(), 'bits');
        timed.push({ row: { ...c, ok: !diff }, col: { id: c.name, fn: () => c.fn(), isAsync: c.isAsync } });
      } catch (e) {
        c.failed = e instanceof OnnxOpsError ? `${e.message}` : String(e?.message ?? e);
      }
    }
    status.textContent = `Timing ${timed.length} forms in turns…`;
    await nextFrame();
    const t = await timeColumns(timed.map((x) => x.col), n);
    for (const c of list) rows.push(c.failed ? { ...c, error: c.failed } : { ...timed.find((x) => x.col.id === c.name).row, ...t[c.name] });
    status.textContent = 'Timing a fresh array of the result\'s size…';
    await nextFrame();
    await showFreshShare(rows.find((r) => r.name === 'onnx-ops-wasm'), DTYPE_INFO[dtype].array, n);
    status.textContent = 'One call of each form while the page draws frames…';
    await showGaps({ op, inputs, opset, want, useWorker });
  } finally {
    for (const c of list) await c.teardown?.();
    btn.disabled = false;
  }

  drawChart(rows, { op, dtype, n });
  drawTable(rows, n);
  const mem = ops.memoryStats();
  status.dataset.state = 'done';
  const ortNote = ort ? '' : ortReason === 'not included'
    ? 'onnxruntime-web was not included (tick "compare with onnxruntime-web"). '
    : `onnxruntime-web was skipped: ${ortReason}. `;
  status.textContent = `${op} on ${n.toLocaleString('en-US')} ${dtype} elements: done. ${ortNote}`
    + `wasm memory ${(mem.memoryBytes / 2 ** 20).toFixed(0)} MiB, ${mem.liveAllocations} live allocation${mem.liveAllocations === 1 ? '' : 's'} after the run.`;
}

/**
 * A plain call returns a fresh array, and the first write to each of its memory
 * pages costs what the machine charges for fresh memory, on some machines far more
 * than the call's own work (bench/README.md, "Fresh memory"). Times that alone (an
 * array of the result's size, one write per page) and says so when it is more than
 * half of the plain call: then page faults, not the library, set the plain figure,
 * and onnxruntime-web's and the JS loop's fresh results pay them too.
 */
async function showFreshShare(plain, Ctor, n) {
  if (!plain || plain.error) return showFreshNote(null);
  const stride = Math.max(1, 4096 / Ctor.BYTES_PER_ELEMENT);
  const fresh = () => {
    const o = new Ctor(n);
    for (let i = 0; i < n; i += stride) o[i] = 1;
    return o;
  };
  const t = await timeColumns([{ id: 'fresh', fn: fresh }], n);
  showFreshNote({ freshMs: t.fresh.median, plainMs: plain.median, n, name: Ctor.name });
}

/**
 * One sync plain call, and with the worker toggle one worker-form call with
 * { transfer: true } (fresh copies of the inputs, made before), each while
 * the page counts its frames: the longest frame gap shows whether the page
 * stalled. Both results are checked against the oracle's.
 */
async function showGaps({ op, inputs, opset, want, useWorker }) {
  const sync = await longestFrameGap(() => callOp(ops, op, inputs, { opset }));
  let worker = null;
  if (useWorker) {
    const w = await workerOps();
    const moved = inputs.map((t) => ({ ...t, data: t.data.slice() }));
    worker = await longestFrameGap(() => callOp(w, op, moved, { opset, transfer: true }));
  }
  const same = (r) => !compareOutputs(inputs[0].dtype, want, r.result.data, 'bits');
  showGapNote({ sync, worker, ok: same(sync) && (!worker || same(worker)) });
}

async function renderOrtBadge() {
  const badge = $('#bench-ort');
  const wanted = globalThis.ort?.InferenceSession || new URLSearchParams(location.search).has('ort') || $('#bench-ort-include').checked;
  badge.title = 'Tick "compare with onnxruntime-web" (served at /ort/ by demo/serve.mjs when installed), add a global `ort`, or open the page with ?ort=<url of ort.wasm.min.mjs>.';
  if (!wanted) {
    badge.textContent = 'onnxruntime-web: not included';
    badge.dataset.present = 'false';
    return;
  }
  badge.textContent = 'onnxruntime-web: loading…';
  badge.dataset.present = 'loading';
  const { ort, source, reason } = await getOrt();
  badge.textContent = ort ? `onnxruntime-web ${ort.env.versions?.web ?? ''}: loaded from ${source}` : `onnxruntime-web: ${reason}`;
  badge.dataset.present = ort ? 'true' : 'false';
}

/** Wires the panel's controls. */
export function setupBenchPanel() {
  renderOrtBadge();
  $('#bench-ort-include').addEventListener('change', () => renderOrtBadge());
  $('#bench-run').addEventListener('click', () => {
    runBench().catch((e) => {
      $('#bench-status').dataset.state = 'error';
      $('#bench-status').textContent = `Benchmark failed: ${e?.message ?? e}`;
    });
  });
}

/** The panel on the loaded library. */
export function startBenchPanel(loaded) {
  ops = loaded;
  const bsimd = $('#bench-simd');
  bsimd.textContent = `ops.simd = ${ops.simd}`;
  bsimd.classList.add(ops.simd ? 'on' : 'off');
}
