// Broadcast shapes beyond run.mjs's workloads: Max where an input repeats
// along a dim other than the last, with short rows (the last dim, C), where a
// call per row would cost more than the row itself.
//
//   [R,C],[R,1]      a value per row
//   [R,1],[1,C]      an outer product (a value per row against one reused row)
//   [A,B,C],[A,1,C]  rows reused within blocks of B rows
//   [R,C],[R,1],[]   three inputs: a value per row and a single value
//   [R,C]x3,[R,1]    four inputs: three laid out as the output, a value per row
//   [R,C],[C]        for scale: one row reused by every row
//
// Each case has an output of 2^18 elements. Columns: ours zero-copy (wasm
// tensors) and plain (typed arrays in, a new one out), onnxruntime-web
// (`session.run`, wasm, one thread; its time over ours plain), and memory.copy
// of the same bytes (read + written) / 2 inside one wasm memory. Every output
// is checked bit for bit against the JS reference before it is timed.
//
//   node bench/shapes.mjs [--dtypes=float32,float16,int8,float64] [--cs=2,8,32,128]
//                         [--lib=path/to/esm/index.js] [--no-ort] [--out=results/shapes]
//                         [--tuned [--liftoff] [--stock-malloc]]
// Writes <out>.md and <out>.json (default results/shapes, tuned: results/shapes-tuned) unless --out=- (print only).
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ARRAY_TYPES, BYTES, broadcastShapes, cliOption, compareOutputs, randomData, sizeOf } from './common.mjs';
import { expectedMax } from './oracle.mjs';
import { COPY_PLACEMENTS, createCopyLimit, createOrtPeer } from './peers.mjs';
import { TUNED, benchProcess, measure, processSettings, sink } from './timing.mjs';
import { finishMachine, headerLines, machine, writeResults } from './machine.mjs';
import { measurePageCost, pageCostLine, pageCostWarning } from './page-cost.mjs';

benchProcess(); // plain node unless --tuned, as run.mjs (timing.mjs)

const HERE = path.dirname(fileURLToPath(import.meta.url));
const opt = (name, dflt) => cliOption(process.argv, name, dflt);
const LIB = path.resolve(opt('lib', path.join(HERE, '..', 'dist', 'esm', 'index.js')));
const DTYPES = opt('dtypes', 'float32,float16,int8,float64').split(',');
const CS = opt('cs', '2,8,32,128').split(',').map(Number);
const OUT = opt('out', path.join(HERE, 'results', TUNED ? 'shapes-tuned' : 'shapes'));
const N = 2 ** 18;

const CASES = [
  { label: '[R,C],[R,1]', shapes: (c) => [[N / c, c], [N / c, 1]] },
  { label: '[R,1],[1,C]', shapes: (c) => [[N / c, 1], [1, c]] },
  { label: '[A,B,C],[A,1,C]', shapes: (c) => [[8, N / c / 8, c], [8, 1, c]] },
  { label: '[R,C],[R,1],[]', shapes: (c) => [[N / c, c], [N / c, 1], []] },
  { label: '[R,C]x3,[R,1]', shapes: (c) => [[N / c, c], [N / c, c], [N / c, c], [N / c, 1]] },
  { label: '[R,C],[C]', shapes: (c) => [[N / c, c], [c]] },
];

// About 150 ms of samples, each a batch of at least 1 ms, after 20 ms of warm-up.
const TIMING = { targetMs: 150, minBatchMs: 1, minSamples: 9, maxSamples: 200, warmupMs: 20, warmupMin: 2 };

const start = machine();
const { createOps } = await import(pathToFileURL(LIB).href);
const ops = await createOps();
// what the machine charges for fresh memory (the plain column's fresh results pay it)
const pageCost = [{ at: 'start', ...await measurePageCost() }];
console.log(`fresh memory: ${pageCostLine(pageCost)}`);
if (pageCostWarning(pageCost[0], 'Node')) console.warn(pageCostWarning(pageCost[0], 'Node'));
const copy = await createCopyLimit();
let ort = null;
if (!process.argv.includes('--no-ort')) {
  try { ort = await createOrtPeer({ probe: false }); } catch (e) { console.error(`onnxruntime-web not loaded (${e.message}): npm --prefix bench ci`); }
}

const rows = [];
for (const dtype of DTYPES) {
  for (const c of CS) {
    for (const k of CASES) {
      const shapes = k.shapes(c);
      const outShape = broadcastShapes(shapes);
      const inputs = shapes.map((shape, i) => ({ dtype, shape, data: randomData(dtype, sizeOf(shape), 7 + i) }));
      const want = expectedMax(dtype, inputs);
      const bytes = (shapes.reduce((a, s) => a + sizeOf(s), 0) + sizeOf(outShape)) * BYTES[dtype];
      const row = { dtype, case: k.label, c, shapes, bytes };
      const check = (what, got) => {
        const bad = compareOutputs(dtype, want.data, got);
        if (bad) throw new Error(`${what} ${dtype} ${JSON.stringify(shapes)}: ${JSON.stringify(bad)}`);
      };
      // ours, zero-copy
      const ts = inputs.map((t) => ops.tensor(dtype, t.shape, t.data));
      const o = ops.tensor(dtype, outShape);
      ops.max(ts, { out: o });
      check('ours zero-copy', o.data);
      row.zc = await measure(() => ops.max(ts, { out: o }), false, TIMING);
      for (const t of [...ts, o]) t.dispose();
      // ours, plain
      check('ours plain', ops.max(inputs).data);
      row.plain = await measure(() => ops.max(inputs), false, TIMING);
      // onnxruntime-web
      if (ort && (await ort.prepare('max', dtype, shapes))) {
        check('ort-web', await ort.max(inputs));
        row.ort = await measure(() => ort.max(inputs), true, TIMING);
      }
      // memory.copy of the same traffic, best placement
      let best = Infinity;
      for (let p = 0; p < COPY_PLACEMENTS; p++) best = Math.min(best, (await measure(copy.prepare(Math.round(bytes / 2), p), false, TIMING)).median_us);
      row.copy_us = best;
      rows.push(row);
      const f = (x) => (x < 10 ? x.toFixed(2) : x.toFixed(1));
      console.log(`${dtype.padEnd(8)} ${k.label.padEnd(16)} C=${String(c).padEnd(4)} zero-copy ${f(row.zc.median_us).padStart(7)} µs ` +
        `(${(bytes / row.zc.median_us / 1e3).toFixed(1)} GB/s, ${(100 * best / row.zc.median_us).toFixed(0)} % of copy)  ` +
        `plain ${f(row.plain.median_us).padStart(7)} µs` + (row.ort ? `  ort-web ${f(row.ort.median_us).padStart(7)} µs (${(row.ort.median_us / row.plain.median_us).toFixed(1)}x ours plain)` : ''));
    }
    if (ort) await ort.clear();
  }
}

const meta = finishMachine({
  ...start, lib: path.relative(process.cwd(), LIB), n: N, ort: ort?.version ?? null, process: processSettings().label, tuned: TUNED, pageCost,
});
const fmt = (x) => (x === undefined ? 'n/a' : x < 10 ? x.toFixed(2) : x.toFixed(1));
const L = [
  ...headerLines(meta, {
    title: `Broadcast shapes: Max with short rows${TUNED ? ', tuned Node process' : ''}`, script: 'shapes.mjs',
    rows: [['library', meta.lib], ['ort-web', meta.ort && `onnxruntime-web ${meta.ort} (wasm, 1 thread)`], ['process', `${meta.process} (as \`run.mjs\`)`]],
  }),
  `Output of ${N} elements; medians in µs (p10-p90).`,
  '"GB/s" = bytes read and written / zero-copy time; "of copy" = `memory.copy` time for the same bytes / zero-copy time;',
  '"ort-web / ours" = onnxruntime-web time / ours plain time (both take and return typed arrays).',
  '',
  '| dtype | shapes | C | ours zero-copy µs | GB/s | of copy | ours plain µs | ort-web µs | ort-web / ours |',
  '|---|---|---:|---:|---:|---:|---:|---:|---:|',
];
for (const r of rows) {
  const cell = (m) => (m ? `${fmt(m.median_us)} <sub>${fmt(m.p10_us)}–${fmt(m.p90_us)}</sub>` : 'n/a');
  L.push(`| ${r.dtype} | ${r.case} | ${r.c} | ${cell(r.zc)} | ${(r.bytes / r.zc.median_us / 1e3).toFixed(1)} | ${(100 * r.copy_us / r.zc.median_us).toFixed(0)} % | ` +
    `${cell(r.plain)} | ${cell(r.ort)} | ${r.ort ? (r.ort.median_us / r.plain.median_us).toFixed(1) + '×' : 'n/a'} |`);
}
if (OUT !== '-') {
  writeResults(OUT, { meta, rows }, L.join('\n'));
  console.log(`wrote ${path.relative(process.cwd(), OUT)}.md and .json`);
}
if (sink === 42) console.log('');
