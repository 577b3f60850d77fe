// The worker form, createOps({ worker: true }), against the sync API in one
// process or page (issue 36):
//   - the page during a call: the longest gap between the page's own
//     MessageChannel pings during one float32 Max-2 of two [4e6] arrays, for
//     the sync call, the worker form (inputs copied) and the worker form with
//     { transfer: true } (inputs moved), several runs of each, interleaved;
//   - the cost of the form: worker-form call time over the sync plain call's,
//     float32 Relu and Max-2 at 16 to 4e6 elements, beside where the
//     difference goes: an empty request's round trip, the page's copy of the
//     inputs (what the default form does), and the form with the inputs moved.
//   - the channel at the thread's floor: a 16-element Relu's round trip over the channel the
//     instance chose (shared memory where SharedArrayBuffer and Atomics.waitAsync exist) and
//     over postMessage, against two floors measured in the same run between this thread and a
//     bare worker: a postMessage echo of the same data, and a SharedArrayBuffer + Atomics ping;
//     and the bound: the echo's worker running the sync API's Relu before it answers.
//     In browsers on a plain page and on a cross-origin-isolated one (COOP/COEP).
// Calls are awaited one after another: a call's time is its latency.
//
//   node bench/worker.mjs                          Node (this process) -> results/worker-node.{md,json}
//   node bench/worker.mjs --browsers               Chromium, Firefox, WebKit -> results/worker-<engine>.{md,json}
//   node bench/worker.mjs --browsers=firefox --quick   sizes 16 and 1e6, 3 rounds, 3 gap runs -> results/quick-worker-*
//   node bench/worker.mjs --channel [--browsers]        the channel part alone (seconds) -> results/quick-worker-*
// Options: --rounds=9  --batch-ms=40  --gap-runs=7. Pages import runWorkerBench from
// this file too, so Node's modules are loaded only by the driver.

import { randomData } from './common.mjs';
import { median, timeRounds, timerStep } from './rounds.mjs';
import { measurePageCost } from './page-cost.mjs';

export const SIZES = [16, 1e3, 1e5, 1e6, 4e6];
export const GAP_N = 4e6;
/** Zero-copy calls in a row in the gap test's control: the worker busy as long as a plain call, touching no fresh page. */
const CHAIN = 40;
export const FORMS = [
  { id: 'sync', label: 'sync `ops.max()`' },
  { id: 'worker', label: 'worker form, inputs copied' },
  { id: 'transfer', label: 'worker form, `{ transfer: true }`' },
  { id: 'tensors', label: 'worker form, tensors in the worker, `out` tensor' },
  { id: 'chain', label: `the same, ${CHAIN} calls one after another (no fresh memory)` },
];

const call = (ops, op, inputs, options) => (op === 'relu' ? ops.relu(inputs[0], options) : ops.max(inputs, options));
const plain = (data) => ({ dtype: 'float32', shape: [data.length], data });
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
/**
 * How long each column of the channel part runs untimed first: both ends of the worker form run optimised
 * code only after some thousands of calls, which cost several times the steady state before.
 */
const WARM_MS = 1000;
/** How long the pings run before each call: their longest gap then is the thread's floor on this machine. */
const IDLE_MS = 100;

function assertSame(got, want, what) {
  const g = new Uint32Array(got.buffer, got.byteOffset, got.length), w = new Uint32Array(want.buffer, want.byteOffset, want.length);
  if (g.length !== w.length) throw new Error(`${what}: ${g.length} elements, want ${w.length}`);
  for (let i = 0; i < w.length; i++) if (g[i] !== w[i]) throw new Error(`${what}: element ${i} differs from the sync call's`);
}

/**
 * The longest gap (ms) between the thread's own pings, a MessageChannel whose
 * port answers itself as soon as the thread lets it, from the last ping
 * before run() starts to the first after its promise settled; and the same
 * while idle before it (the pings' own floor).
 */
async function gapDuring(run) {
  const ch = new MessageChannel();
  const stamps = [];
  let on = true;
  ch.port1.onmessage = () => {
    stamps.push(performance.now());
    if (on) ch.port2.postMessage(0);
  };
  ch.port2.postMessage(0);
  await sleep(IDLE_MS);
  const t0 = performance.now();
  const settled = run();
  const own = performance.now() - t0; // the call's synchronous part: checks and posting (a sync call: all of it)
  await settled;
  const t1 = performance.now();
  await sleep(10);
  on = false;
  ch.port1.close();
  ch.port2.close();
  const first = Math.max(0, stamps.findLastIndex((s) => s <= t0));
  let last = stamps.findIndex((s) => s >= t1);
  if (last < 0) last = stamps.length - 1;
  let gap = 0, at = 0, idle = 0;
  for (let i = first; i < last; i++) if (stamps[i + 1] - stamps[i] > gap) [gap, at] = [stamps[i + 1] - stamps[i], stamps[i] - t0];
  for (let i = 0; i < first; i++) idle = Math.max(idle, stamps[i + 1] - stamps[i]);
  return { gap_ms: gap, at_ms: at, call_ms: t1 - t0, own_ms: own, idle_gap_ms: idle, pings: last - first };
}

/** The floors' worker: echoes each message, or answers a ping on the SharedArrayBuffer it is sent forever (a classic script, or CommonJS in Node). */
const FLOOR_WORKER = `
const port = typeof require === 'function' ? require('node:worker_threads').parentPort : null;
const on = (m) => {
  if (m && m.ping) {
    const i = new Int32Array(m.ping);
    for (;;) { Atomics.wait(i, 0, 0); Atomics.store(i, 0, 0); Atomics.store(i, 1, 1); Atomics.notify(i, 1); }
  }
  port ? port.postMessage(m) : postMessage(m);
};
if (port) port.on('message', on); else onmessage = (e) => on(e.data);`;
/**
 * The bound's worker: the echo's, but it runs the sync API's Relu (the library at `lib`, the build measured) on
 * what it receives and sends the result back: the op's own cost in a thread just woken, with no page-side library.
 */
const OP_WORKER = (lib) => `
const port = typeof require === 'function' ? require('node:worker_threads').parentPort : null;
const send = (m) => (port ? port.postMessage(m) : postMessage(m));
import(${JSON.stringify(lib)}).then(({ createOps }) => createOps()).then((ops) => {
  const on = (m) => send({ t: m.t, data: ops.relu({ dtype: 'float32', shape: [m.data.length], data: m.data }).data });
  if (port) port.on('message', on); else onmessage = (e) => on(e.data);
  send('ready');
});`;
/** The override (worker/shared.ts) that makes createOps({ worker: true }) use postMessage where it would share memory. */
const CHANNEL = Symbol.for('onnx-ops-wasm.channel');

/** Whether createOps({ worker: true }) shares memory here: worker/shared.ts's test, read from outside. */
export function sharesMemory() {
  return typeof SharedArrayBuffer === 'function' && typeof Atomics.waitAsync === 'function' && globalThis.crossOriginIsolated !== false;
}

/** A bare worker running `source` (FLOOR_WORKER's, or OP_WORKER's as a module, which says 'ready' first). */
async function startFloorWorker(source = FLOOR_WORKER, module = false) {
  const node = typeof process !== 'undefined' && typeof process.versions?.node === 'string';
  let w, end;
  if (node) {
    const { Worker } = await import('node:worker_threads');
    w = new Worker(source, { eval: true });
    end = () => w.terminate();
  } else {
    const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
    w = new Worker(url, module ? { type: 'module' } : {});
    end = () => { w.terminate(); URL.revokeObjectURL(url); };
  }
  // The echo's data is read, as any caller reads an answer: Chromium deserializes a message only when its data is read.
  let f = () => {};
  if (node) w.on('message', (m) => f(m)); else w.onmessage = (e) => f(e.data);
  if (module) await new Promise((ready, fail) => { f = ready; if (!node) w.onerror = (e) => fail(new Error(`the bound's worker failed: ${e.message}`)); });
  return { post: (m) => w.postMessage(m), on: (g) => { f = g; }, end };
}

/**
 * The round trip of a 16-element float32 Relu over the instance's own channel
 * ('auto') and over postMessage ('message'), and of memoryStats() (nothing to
 * copy), interleaved with the floors between this thread and a bare worker:
 * 'echo', a postMessage echo of { t, data } with the same 16 floats, and
 * 'ping', a SharedArrayBuffer + Atomics ping (this thread awaiting
 * Atomics.waitAsync, the worker blocking in Atomics.wait), where there is
 * shared memory. Resolves to { shared, cols: { [id]: { median_us, ... } } }.
 */
export async function runChannelBench({ createOps, lib, rounds = 9, batchMs = 40 }) {
  const shared = sharesMemory();
  const auto = await createOps({ worker: true });
  globalThis[CHANNEL] = 'message';
  let message;
  try {
    message = await createOps({ worker: true });
  } finally {
    delete globalThis[CHANNEL];
  }
  const echoWorker = await startFloorWorker(), pingWorker = shared ? await startFloorWorker() : undefined;
  const opWorker = await startFloorWorker(OP_WORKER(lib), true);
  try {
    const data = Float32Array.from({ length: 16 }, (_, i) => i - 8);
    const x = { dtype: 'float32', shape: [16], data };
    for (const ops of [auto, message]) assertSame((await ops.relu(x)).data, data.map((v) => Math.max(v, 0)), 'Relu n=16');
    let echoed, opEchoed;
    echoWorker.on((m) => echoed(m));
    opWorker.on((m) => opEchoed(m));
    assertSame((await new Promise((r) => { opEchoed = r; opWorker.post({ t: 'call', data }); })).data, data.map((v) => Math.max(v, 0)), 'Relu n=16, bare worker');
    const cols = [
      { id: 'echo', isAsync: true, fn: () => new Promise((r) => { echoed = r; echoWorker.post({ t: 'call', data }); }) },
      { id: 'opEcho', isAsync: true, fn: () => new Promise((r) => { opEchoed = r; opWorker.post({ t: 'call', data }); }) },
      { id: 'auto', isAsync: true, fn: () => auto.relu(x) },
      { id: 'message', isAsync: true, fn: () => message.relu(x) },
      { id: 'autoStats', isAsync: true, fn: () => auto.memoryStats() },
      { id: 'messageStats', isAsync: true, fn: () => message.memoryStats() },
    ];
    if (pingWorker) {
      const sab = new SharedArrayBuffer(8), i = new Int32Array(sab);
      pingWorker.post({ ping: sab });
      cols.splice(1, 0, {
        id: 'ping', isAsync: true,
        fn: async () => {
          Atomics.store(i, 1, 0);
          Atomics.store(i, 0, 1);
          Atomics.notify(i, 0);
          const w = Atomics.waitAsync(i, 1, 0);
          if (w.async) await w.value;
          return 1;
        },
      });
    }
    for (const c of cols) {
      const t0 = performance.now();
      while (performance.now() - t0 < WARM_MS) await c.fn();
    }
    const timed = await timeRounds(cols, { rounds, batchMs });
    return { shared, crossOriginIsolated: globalThis.crossOriginIsolated, cols: Object.fromEntries(Object.entries(timed).map(([id, t]) => [id, { median_us: t.median_us, min_us: t.min_us, max_us: t.max_us, batch: t.batch }])) };
  } finally {
    echoWorker.end();
    pingWorker?.end();
    opWorker.end();
    await Promise.all([auto.close(), message.close()]);
  }
}

/** The channel's ratios: the instance's channel over its floor (ping where it shares memory), and postMessage over the echo. */
export function channelRatios(c) {
  const m = (id) => c.cols[id]?.median_us;
  return { auto: c.shared ? m('auto') / m('ping') : m('auto') / m('echo'), message: m('message') / m('echo'), bound: m('opEcho') / m('echo') };
}

/**
 * Runs both parts with the library's createOps (a page or Node); resolves to
 * { timerStepMs, startMs, roundTrip, cells, gaps, pageCost }.
 */
export async function runWorkerBench({ createOps, sizes = SIZES, rounds = 9, batchMs = 40, gapRuns = 7, gapN = GAP_N, log = () => {} }) {
  const pageCost = [{ at: 'start', ...await measurePageCost() }];
  const sync = await createOps();
  let t = performance.now();
  const worker = await createOps({ worker: true });
  const startMs = performance.now() - t;
  if (worker.worker !== true || worker.backend !== sync.backend) throw new Error(`the worker form runs ${worker.backend}, the sync API ${sync.backend}`);
  try {
    // An empty request: no data either way, the worker answers at once.
    const roundTrip = (await timeRounds([{ id: 'rt', fn: () => worker.memoryStats(), isAsync: true }], { rounds, batchMs })).rt;
    log(`round trip (await ops.memoryStats()): ${roundTrip.median_us.toFixed(1)} µs`);

    const cells = [];
    for (const op of ['relu', 'max2']) {
      for (const n of sizes) {
        const data = (op === 'relu' ? [1] : [1, 2]).map((seed) => randomData('float32', n, seed));
        const inputs = data.map(plain);
        // Checked before timing: both forms give the sync call's bits; copying leaves the inputs, moving detaches them.
        const want = call(sync, op, inputs).data;
        assertSame((await call(worker, op, inputs)).data, want, `${op} n=${n} worker`);
        const moved = data.map((d) => d.slice());
        assertSame((await call(worker, op, moved.map(plain), { transfer: true })).data, want, `${op} n=${n} transfer`);
        if (moved.some((d) => d.length !== 0) || data.some((d) => d.length !== n)) throw new Error(`${op} n=${n}: inputs not moved or not kept as documented`);
        let queue = [], k = 0;
        const timed = await timeRounds([
          { id: 'sync', fn: () => call(sync, op, inputs) },
          { id: 'worker', fn: () => call(worker, op, inputs), isAsync: true },
          {
            id: 'transfer', isAsync: true,
            // each call moves (detaches) its inputs: fresh copies for the batch, made untimed
            before: (batch) => { queue = Array.from({ length: batch }, () => data.map((d) => plain(d.slice()))); k = 0; },
            fn: () => { const x = queue[k]; queue[k++] = null; return call(worker, op, x, { transfer: true }); },
          },
          // what the default form does on the page before posting: a copy of each input (a new array, set)
          { id: 'copy', fn: () => data.map((d) => { const c = new Float32Array(d.length); c.set(d); return c; }) },
        ], { rounds, batchMs });
        queue = [];
        const cell = { op, n, ...Object.fromEntries(Object.entries(timed).map(([id, x]) => [id, { median_us: x.median_us, min_us: x.min_us, max_us: x.max_us, batch: x.batch }])) };
        cells.push(cell);
        log(`${op} n=${n}: sync ${cell.sync.median_us.toFixed(1)} µs, worker ${cell.worker.median_us.toFixed(1)} (${(cell.worker.median_us / cell.sync.median_us).toFixed(2)}x), ` +
          `transfer ${cell.transfer.median_us.toFixed(1)} (${(cell.transfer.median_us / cell.sync.median_us).toFixed(2)}x), copy of inputs ${cell.copy.median_us.toFixed(1)}`);
      }
    }

    // The page during one large call: each form once per run, the order rotated.
    const a = randomData('float32', gapN, 1), b = randomData('float32', gapN, 2);
    const runs = {
      sync: async () => { call(sync, 'max2', [plain(a), plain(b)]); },
      worker: () => call(worker, 'max2', [plain(a), plain(b)]),
      transfer: (moved) => call(worker, 'max2', moved, { transfer: true }),
      // no data crosses and no fresh memory is touched: what is left is the machine's
      tensors: () => call(worker, 'max2', kept, { out: keptOut }),
      chain: async () => { for (let i = 0; i < CHAIN; i++) await call(worker, 'max2', kept, { out: keptOut }); },
    };
    const kept = [await worker.tensor('float32', [gapN], a), await worker.tensor('float32', [gapN], b)];
    const keptOut = await worker.tensor('float32', [gapN]);
    for (const f of FORMS) await runs[f.id]([plain(a.slice()), plain(b.slice())]); // warm-up
    const gaps = Object.fromEntries(FORMS.map((f) => [f.id, []]));
    for (let r = 0; r < gapRuns; r++) {
      for (let j = 0; j < FORMS.length; j++) {
        const id = FORMS[(j + r) % FORMS.length].id;
        const moved = [plain(a.slice()), plain(b.slice())]; // made before the window
        const g = await gapDuring(() => runs[id](moved));
        gaps[id].push(g);
        log(`gap run ${r + 1} ${id}: longest gap ${g.gap_ms.toFixed(1)} ms at ${g.at_ms.toFixed(1)} ms into a ${g.call_ms.toFixed(1)} ms call (idle ${g.idle_gap_ms.toFixed(2)} ms, ${g.pings} pings)`);
      }
    }
    for (const t of [...kept, keptOut]) t.dispose();
    pageCost.push({ at: 'end', ...await measurePageCost() });
    return { timerStepMs: timerStep(), startMs, roundTrip, cells, gaps, gapN, pageCost, backend: worker.backend };
  } finally {
    await worker.close();
  }
}

/** The gaps of one form: { median, worst } of the longest gap, the median call and idle gap (ms). */
export function gapSummary(list) {
  return {
    median_ms: median(list.map((g) => g.gap_ms)), worst_ms: Math.max(...list.map((g) => g.gap_ms)),
    call_ms: median(list.map((g) => g.call_ms)), own_ms: median(list.map((g) => g.own_ms)), own_worst_ms: Math.max(...list.map((g) => g.own_ms)), idle_ms: median(list.map((g) => g.idle_gap_ms)), pings: median(list.map((g) => g.pings)), runs: list.length,
  };
}

// ---------------------------------------------------------------- the driver
async function main() {
  const [{ default: fs }, { default: path }, { fileURLToPath, pathToFileURL }, { finishMachine, headerLines, machine, writeResults }, { cliOption }, { pageCostWarning }, { fmtN }] =
    await Promise.all([import('node:fs'), import('node:path'), import('node:url'), import('./machine.mjs'),
      import('./common.mjs'), import('./page-cost.mjs'), import('./report.mjs')]);
  const HERE = path.dirname(fileURLToPath(import.meta.url));
  const ROOT = path.join(HERE, '..');
  const argv = process.argv.slice(2);
  const known = ['browsers', 'quick', 'channel', 'rounds', 'batch-ms', 'gap-runs'];
  for (const a of argv) {
    if (!known.includes(a.replace(/^--/, '').split('=')[0])) throw new Error(`unknown option ${a} (options: ${known.map((k) => `--${k}`).join(' ')})`);
  }
  const opt = (name, dflt) => cliOption(argv, name, dflt);
  const QUICK = !!opt('quick', false);
  const CHANNEL_ONLY = !!opt('channel', false);
  const PARTIAL = QUICK || CHANNEL_ONLY || ['rounds', 'batch-ms', 'gap-runs'].some((k) => opt(k) !== undefined);
  const b = opt('browsers', false);
  const engines = b === false ? ['node'] : b === true ? ['chromium', 'firefox', 'webkit'] : String(b).split(',').filter(Boolean);
  const cfg = {
    sizes: QUICK ? [16, 1e6] : SIZES, rounds: Number(opt('rounds', QUICK ? 3 : 9)),
    batchMs: Number(opt('batch-ms', 40)), gapRuns: Number(opt('gap-runs', QUICK ? 3 : 7)),
  };
  const INDEX = path.join(ROOT, 'dist', 'esm', 'index.js');
  if (!fs.existsSync(INDEX)) throw new Error('dist/esm/index.js is missing: run npm run build');

  let server, isolated;
  let failed = 0;
  /** The channel part on a page of `srv` (a fresh browser page each). */
  const channelOnPage = async (browser, srv) => {
    const page = await browser.newPage();
    await page.goto(`${srv.url}/blank.html`);
    const c = await page.evaluate(async (k) => {
      const [{ createOps }, { runChannelBench: run }] = await Promise.all([import('/dist/esm/index.js'), import('/bench/worker.mjs')]);
      return run({ createOps, lib: new URL('/dist/esm/index.js', location.href).href, ...k });
    }, { rounds: cfg.rounds, batchMs: cfg.batchMs });
    const problems = await page.flushProblems();
    if (problems.length) { console.error(`!!!!!!!! the page reported: ${problems.join('; ')}`); failed += problems.length; }
    await page.close();
    return c;
  };
  try {
    for (const name of engines) {
      const start = machine();
      let r, engine;
      if (name === 'node') {
        const { createOps } = await import(pathToFileURL(INDEX).href);
        engine = `Node ${process.version}`;
        r = CHANNEL_ONLY ? {} : await runWorkerBench({ createOps, ...cfg, log: (m) => console.log(`node ${m}`) });
        r.channel = { node: await runChannelBench({ createOps, lib: pathToFileURL(INDEX).href, rounds: cfg.rounds, batchMs: cfg.batchMs }) };
      } else {
        const [{ launch }, { serve }] = await Promise.all([import('../tests/browsers/drivers.mjs'), import('../tests/support/static-server.mjs')]);
        const mounts = [['/dist/', path.join(ROOT, 'dist')], ['/bench/', HERE], ['/tests/portable/', path.join(ROOT, 'tests', 'portable')], ['/', path.join(HERE, 'browser')]];
        server ??= await serve(mounts);
        // The same files cross-origin isolated: SharedArrayBuffer, and the shared channel where the engine has Atomics.waitAsync.
        isolated ??= await serve(mounts, () => ({ 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' }));
        const browser = await launch(name);
        try {
          engine = browser.version;
          const channel = { plain: await channelOnPage(browser, server), isolated: await channelOnPage(browser, isolated) };
          r = {};
          if (!CHANNEL_ONLY) {
            const page = await browser.newPage();
            await page.goto(`${server.url}/blank.html`);
            r = await page.evaluate(async (c) => {
              const [{ createOps }, { runWorkerBench: run }] = await Promise.all([import('/dist/esm/index.js'), import('/bench/worker.mjs')]);
              return { ...await run({ createOps, ...c }), userAgent: navigator.userAgent };
            }, cfg);
            const problems = await page.flushProblems();
            if (problems.length) { console.error(`!!!!!!!! ${name}: the page reported: ${problems.join('; ')}`); failed += problems.length; }
            await page.close();
          }
          r.channel = channel;
        } finally {
          await browser.close();
        }
      }
      const meta = finishMachine({ engine, ...start, quick: QUICK, partial: PARTIAL, settings: cfg });
      for (const [where, c] of Object.entries(r.channel)) {
        const { auto, message, bound } = channelRatios(c);
        console.log(`${name} ${where}: Relu n=16 over ${c.shared ? 'shared memory' : 'postMessage'} ${c.cols.auto.median_us.toFixed(1)} µs, ${auto.toFixed(2)}x its floor ` +
          `(${c.shared ? `ping ${c.cols.ping.median_us.toFixed(1)} µs, target 2x` : `echo ${c.cols.echo.median_us.toFixed(1)} µs, target 1.5x`}); ` +
          `over postMessage ${c.cols.message.median_us.toFixed(1)} µs, ${message.toFixed(2)}x the echo (target 1.5x); ` +
          `a bare worker running the sync Relu ${bound.toFixed(2)}x the echo`);
      }
      const prefix = path.join(HERE, 'results', `${PARTIAL ? 'quick-' : ''}worker-${name}`);
      if (CHANNEL_ONLY) {
        const md = [`# The worker form's channel in ${engine} (quick)`, '', ...channelMarkdown(r.channel)].join('\n');
        writeResults(prefix, { meta, ...r }, md);
        console.log(`\n${md}\nwrote ${path.relative(process.cwd(), prefix)}.{md,json}`);
        continue;
      }
      const gaps = Object.fromEntries(FORMS.map((f) => [f.id, gapSummary(r.gaps[f.id])]));
      for (const p of r.pageCost) if (pageCostWarning(p, name)) console.warn(pageCostWarning(p, name));
      const md = markdown(meta, r, gaps, { headerLines, fmtN });
      writeResults(prefix, { meta, ...r, gapSummary: gaps }, md);
      console.log(`\n${md}\nwrote ${path.relative(process.cwd(), prefix)}.{md,json}`);
      // The target is judged on the median run; the worst run is set beside the control's worst (nothing moved), the machine's own stalls.
      const { median_ms: med, worst_ms: worst } = gaps.transfer;
      console.log(`${name}: longest gap with { transfer: true }: median ${med.toFixed(1)} ms (target at most 5 ms: ${med <= 5 ? 'met' : 'NOT MET'}), ` +
        `worst ${worst.toFixed(1)} ms; control (nothing moved) worst ${gaps.chain.worst_ms.toFixed(1)} ms, idle median ${gaps.transfer.idle_ms.toFixed(1)} ms`);
      if (med > 5) console.warn(`!!!!!!!! ${name}: the median longest gap with { transfer: true } was ${med.toFixed(1)} ms (target: at most 5 ms)`);
    }
  } finally {
    await server?.close();
    await isolated?.close();
  }
  if (failed) process.exitCode = 1;
}

/** The channel section: per page (or Node), the round trips, the floors and the ratios. */
function channelMarkdown(channel) {
  const us = (v) => (v === undefined ? '–' : v >= 100 ? v.toFixed(0) : v.toFixed(1));
  const L = ['## The channel at the thread\'s floor: 16-element float32 Relu, awaited one after another', '',
    'µs per round trip, median of interleaved rounds (batches of at least the batch time), all measured in the same run',
    'between this thread and a worker: the floors are a bare worker\'s postMessage echo of the same 16 floats and a',
    'SharedArrayBuffer + Atomics ping (this thread awaiting `Atomics.waitAsync`, the worker in `Atomics.wait`). "The',
    'instance\'s channel" is what `createOps({ worker: true })` chose there; the postMessage column is the same call with',
    'the channel forced to postMessage. Targets: shared memory within 2× the ping, postMessage within 1.5× the echo.',
    'The bound: the echo\'s worker running the sync API\'s Relu on what it receives before it answers (no page-side library).', '',
    '| page | channel | echo | ping | Relu, instance\'s channel | ÷ its floor | Relu over postMessage | ÷ echo | bound ÷ echo | `memoryStats()`, instance / postMessage |',
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const [where, c] of Object.entries(channel)) {
    const { auto, message, bound } = channelRatios(c);
    const m = (id) => c.cols[id]?.median_us;
    L.push(`| ${where === 'isolated' ? 'cross-origin isolated' : where} | ${c.shared ? 'shared memory' : 'postMessage'} | ${us(m('echo'))} | ${us(m('ping'))} | ` +
      `${us(m('auto'))} | **${auto.toFixed(2)}×** ${c.shared ? 'ping' : 'echo'} | ${us(m('message'))} | **${message.toFixed(2)}×** | ${bound.toFixed(2)}× | ${us(m('autoStats'))} / ${us(m('messageStats'))} |`);
  }
  L.push('');
  return L;
}

function markdown(meta, r, gaps, { headerLines, fmtN }) {
  const ms = (x) => (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2));
  const us = (v) => { const a = Math.abs(v); return a >= 1e4 ? Math.round(v).toLocaleString('en') : a >= 100 ? v.toFixed(0) : a >= 10 ? v.toFixed(1) : v.toFixed(2); };
  const x = (a, b) => (b > 0 ? `${(a / b).toFixed(a / b >= 10 ? 0 : 2)}×` : 'n/a'); // a coarse clock can read a batch as 0
  const xx = (c, id) => `${x(c[id].median_us, c.sync.median_us)} <sub>${x(c[id].min_us, c.sync.min_us)}</sub>`;
  const rt = r.roundTrip.median_us;
  const L = [...headerLines(meta, {
    title: `The worker form in ${meta.engine}`, script: 'worker.mjs', pageCost: r.pageCost,
    rows: [['user agent', r.userAgent], ['backend', `${r.backend} (sync API and worker alike)`], ['performance.now() step', `${+r.timerStepMs.toPrecision(2)} ms`],
      ['worker start', `\`await createOps({ worker: true })\`: ${ms(r.startMs)} ms`]],
  }),
    `## The page during one call: float32 Max-2 of two [${fmtN(r.gapN)}] arrays`, '',
    'The longest gap between the page\'s own pings (a `MessageChannel` whose port answers itself as soon as the',
    'thread lets it) from the last ping before the call to the first after its promise settled; ' +
    `${gaps.sync.runs} runs of each form, interleaved; inputs made before the call (target for \`{ transfer: true }\`: at most 5 ms).`, '',
    '| call | longest gap, median | worst | call, median | its synchronous part, median / worst | pings during the call |', '|---|---:|---:|---:|---:|---:|',
    ...FORMS.map((f) => `| ${f.label} | ${ms(gaps[f.id].median_ms)} ms | ${ms(gaps[f.id].worst_ms)} ms | ${ms(gaps[f.id].call_ms)} ms | ` +
      `${ms(gaps[f.id].own_ms)} / ${ms(gaps[f.id].own_worst_ms)} ms | ${Math.round(gaps[f.id].pings)} |`), '',
    'The synchronous part is the page\'s own work before the call returns its promise (checks, copies, posting; for the sync',
    'call, all of it).',
    'The last two rows are controls: no data crosses and no fresh page is touched (the last keeps the worker busy about',
    'as long as a plain call), so what they show is the machine\'s, not the form\'s.',
    `With no call, the longest gap between pings in the ${IDLE_MS} ms before each: median ${ms(median(FORMS.flatMap((f) => r.gaps[f.id].map((g) => g.idle_gap_ms))))} ms.`, '',
    '## The cost of the form: worker-form call time over the sync plain call\'s', '',
    `µs per call, awaited one after another, median of ${meta.settings.rounds} interleaved rounds of batches of at least ${meta.settings.batchMs} ms`,
    '(the ratios of the best rounds in small print: fresh pages make single rounds swing); fresh result arrays in both. Where the difference goes: an empty request\'s round trip (`await ops.memoryStats()`:',
    `**${us(rt)} µs** here); the page's copy of the inputs (\`new Float32Array(n)\` + \`set\` per input, which the default form`,
    'does before posting, timed alone); "moved − sync − round trip": what is left with the inputs moved (waking the',
    'worker, the messages, the result\'s buffer coming back).', '',
    '| op | n | sync | worker (copied) | ÷ sync | `{ transfer: true }` | ÷ sync | copy of inputs | copied − moved | moved − sync − round trip |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|'];
  for (const c of r.cells) {
    L.push(`| ${c.op === 'relu' ? 'Relu' : 'Max-2'} | ${fmtN(c.n)} | ${us(c.sync.median_us)} | ${us(c.worker.median_us)} | ${xx(c, 'worker')} | ` +
      `${us(c.transfer.median_us)} | ${xx(c, 'transfer')} | ${us(c.copy.median_us)} | ${us(c.worker.median_us - c.transfer.median_us)} | ` +
      `${us(c.transfer.median_us - c.sync.median_us - rt)} |`);
  }
  L.push('', ...channelMarkdown(r.channel));
  return L.join('\n');
}

if (typeof process !== 'undefined' && process.argv?.[1] && import.meta.url.endsWith(`/${process.argv[1].split('/').pop()}`)) {
  await main();
}
