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
// Calls are awaited one after another: a call's time is its latency.
//
//   node bench/worker.mjs                          Node (this process) -> results/worker-node.{md,json}
//   node bench/worker.mjs --browsers               Chromium, Firefox, WebKit -> results/worker-<engine>.{md,json}
//   node bench/worker.mjs --browsers=firefox --quick   sizes 16 and 1e6, 3 rounds, 3 gap runs -> results/quick-worker-*
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
  const known = ['browsers', 'quick', 'rounds', 'batch-ms', 'gap-runs'];
  for (const a of argv) {
    if (!known.includes(a.replace(/^--/, '').split('=')[0])) throw new Error(`unknown option ${a} (options: ${known.map((k) => `--${k}`).join(' ')})`);
  }
  const opt = (name, dflt) => cliOption(argv, name, dflt);
  const QUICK = !!opt('quick', false);
  const PARTIAL = QUICK || ['rounds', 'batch-ms', 'gap-runs'].some((k) => opt(k) !== undefined);
  const b = opt('browsers', false);
  const engines = b === false ? ['node'] : b === true ? ['chromium', 'firefox', 'webkit'] : String(b).split(',').filter(Boolean);
  const cfg = {
    sizes: QUICK ? [16, 1e6] : SIZES, rounds: Number(opt('rounds', QUICK ? 3 : 9)),
    batchMs: Number(opt('batch-ms', 40)), gapRuns: Number(opt('gap-runs', QUICK ? 3 : 7)),
  };
  const INDEX = path.join(ROOT, 'dist', 'esm', 'index.js');
  if (!fs.existsSync(INDEX)) throw new Error('dist/esm/index.js is missing: run npm run build');

  let server;
  let failed = 0;
  try {
    for (const name of engines) {
      const start = machine();
      let r, engine;
      if (name === 'node') {
        const { createOps } = await import(pathToFileURL(INDEX).href);
        engine = `Node ${process.version}`;
        r = await runWorkerBench({ createOps, ...cfg, log: (m) => console.log(`node ${m}`) });
      } else {
        const [{ launch }, { serve }] = await Promise.all([import('../tests/browsers/drivers.mjs'), import('../tests/support/static-server.mjs')]);
        server ??= await serve([['/dist/', path.join(ROOT, 'dist')], ['/bench/', HERE], ['/tests/portable/', path.join(ROOT, 'tests', 'portable')], ['/', path.join(HERE, 'browser')]]);
        const browser = await launch(name);
        try {
          engine = browser.version;
          const page = await browser.newPage();
          await page.goto(`${server.url}/blank.html`);
          r = await page.evaluate(async (c) => {
            const [{ createOps }, { runWorkerBench: run }] = await Promise.all([import('/dist/esm/index.js'), import('/bench/worker.mjs')]);
            return { ...await run({ createOps, ...c }), userAgent: navigator.userAgent };
          }, cfg);
          const problems = await page.flushProblems();
          if (problems.length) { console.error(`!!!!!!!! ${name}: the page reported: ${problems.join('; ')}`); failed += problems.length; }
          await page.close();
        } finally {
          await browser.close();
        }
      }
      const meta = finishMachine({ engine, ...start, quick: QUICK, partial: PARTIAL, settings: cfg });
      const gaps = Object.fromEntries(FORMS.map((f) => [f.id, gapSummary(r.gaps[f.id])]));
      for (const p of r.pageCost) if (pageCostWarning(p, name)) console.warn(pageCostWarning(p, name));
      const md = markdown(meta, r, gaps, { headerLines, fmtN });
      const prefix = path.join(HERE, 'results', `${PARTIAL ? 'quick-' : ''}worker-${name}`);
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
  }
  if (failed) process.exitCode = 1;
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
  L.push('');
  return L.join('\n');
}

if (typeof process !== 'undefined' && process.argv?.[1] && import.meta.url.endsWith(`/${process.argv[1].split('/').pop()}`)) {
  await main();
}
