// The fallback backends against what they stand in for, as ratios in one
// process (issue 35's targets):
//   - wasm (no SIMD128) against wasm-simd: zero-copy float32 Relu and Max-2,
//     tensors in and out (no copy, no fresh page);
//   - js (JavaScript kernels) against a plain JavaScript loop over the same
//     typed arrays (common.mjs's, one per dtype): both write into an array
//     made once (`out`), so neither pays for fresh pages; every dtype.
// Writes bench/results/backends.{md,json}.
//
//   node bench/backends.mjs [--quick] [--lib=path/to/dist/esm/index.js]
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ARRAY_TYPES, DTYPES, cliOption, plainLoops, randomData } from './common.mjs';
import { measurePageCost, pageCostLine, pageCostWarning } from './page-cost.mjs';
import { cpuModel, measure } from './timing.mjs';

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const libPath = cliOption(argv, 'lib', fileURLToPath(new URL('../dist/esm/index.js', import.meta.url)));
const lib = await import(pathToFileURL(libPath).href);
const TIMING = QUICK
  ? { targetMs: 20, minBatchMs: 2, minSamples: 3, maxSamples: 25, warmupMs: 5, warmupMin: 1 }
  : { targetMs: 300, minBatchMs: 5, minSamples: 9, maxSamples: 200, warmupMs: 50, warmupMin: 2 };
const time = async (fn) => (await measure(fn, false, TIMING)).median_us;
const results = { wasm: [], js: [] };
const loadStart = os.loadavg();
// The machine's price of a fresh page, recorded as every results file does (no cell here pays it).
const pageCost = [{ at: 'start', ...await measurePageCost() }];
const warning = pageCostWarning(pageCost[0], 'Node');
if (warning) console.warn(warning);

// wasm against wasm-simd, zero-copy.
const simd = await lib.createOps({ backend: 'wasm-simd' });
const scalar = await lib.createOps({ backend: 'wasm' });
for (const n of QUICK ? [1e6] : [1e3, 1e5, 1e6]) {
  const a = randomData('float32', n, 1), b = randomData('float32', n, 2);
  const cells = [];
  for (const ops of [simd, scalar]) {
    const x = ops.tensor('float32', [n], a), y = ops.tensor('float32', [n], b), out = ops.tensor('float32', [n]);
    cells.push({
      relu: await time(() => ops.relu(x, { out })),
      max: await time(() => ops.max([x, y], { out })),
    });
    for (const t of [x, y, out]) t.dispose();
  }
  for (const op of ['relu', 'max']) {
    results.wasm.push({ op: op === 'max' ? 'Max-2' : 'Relu', n, simd_us: cells[0][op], wasm_us: cells[1][op], ratio: cells[1][op] / cells[0][op] });
  }
}

// js against a plain JavaScript loop, into an out made once.
const js = await lib.createOps({ backend: 'js' });
for (const dtype of DTYPES) {
  for (const n of dtype === 'float32' && !QUICK ? [1e3, 1e5, 1e6] : [1e5]) {
    const a = randomData(dtype, n, 3), b = randomData(dtype, n, 4);
    const out = new ARRAY_TYPES[dtype](n);
    const loops = plainLoops(dtype);
    const ta = { dtype, shape: [n], data: a }, tb = { dtype, shape: [n], data: b };
    const row = { dtype, n };
    if (!dtype.startsWith('uint')) { // Relu takes no unsigned dtype
      row.relu_js_us = await time(() => js.relu(ta, { out }));
      row.relu_loop_us = await time(() => loops.relu(a, out, n));
      row.relu_ratio = row.relu_js_us / row.relu_loop_us;
    }
    row.max_js_us = await time(() => js.max([ta, tb], { out }));
    row.max_loop_us = await time(() => loops.max(a, b, out, n));
    row.max_ratio = row.max_js_us / row.max_loop_us;
    results.js.push(row);
  }
}

const meta = {
  date: new Date().toISOString(), node: process.version, cpu: cpuModel(), cores: os.cpus().length,
  loadavgStart: loadStart, loadavgEnd: os.loadavg(), quick: QUICK, lib: libPath, pageCost,
};
const f = (x) => (x < 10 ? x.toFixed(2) : x < 1000 ? x.toFixed(1) : Math.round(x).toLocaleString('en'));
const lines = [
  '# The fallback backends against what they stand in for',
  '',
  `Node ${meta.node}, ${meta.cpu}, ${meta.cores} cores; load average ${meta.loadavgStart.map((l) => l.toFixed(2)).join(' ')} at the start, ` +
  `${meta.loadavgEnd.map((l) => l.toFixed(2)).join(' ')} at the end${QUICK ? '; a --quick run' : ''}. Medians, µs per call; ` +
  'written by `node bench/backends.mjs`. No cell makes a fresh array.',
  '',
  `Fresh memory: ${pageCostLine(pageCost)} (not paid by any cell).`,
  '',
  '## wasm (no SIMD128) against wasm-simd: zero-copy float32, tensors in and `out` (target: wasm within 3x)',
  '',
  '| op | n | wasm-simd µs | wasm µs | wasm / wasm-simd |',
  '| --- | ---: | ---: | ---: | ---: |',
  ...results.wasm.map((r) => `| ${r.op} | ${r.n.toExponential(0)} | ${f(r.simd_us)} | ${f(r.wasm_us)} | ${r.ratio.toFixed(2)}x |`),
  '',
  '## js (JavaScript kernels) against a plain JavaScript loop, both into an `out` made once (target for float32: js at most 1x)',
  '',
  '| dtype | n | Relu js µs | Relu loop µs | js / loop | Max-2 js µs | Max-2 loop µs | js / loop |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...results.js.map((r) => `| ${r.dtype} | ${r.n.toExponential(0)} | ` +
    (r.relu_ratio === undefined ? '- | - | - | ' : `${f(r.relu_js_us)} | ${f(r.relu_loop_us)} | ${r.relu_ratio.toFixed(2)}x | `) +
    `${f(r.max_js_us)} | ${f(r.max_loop_us)} | ${r.max_ratio.toFixed(2)}x |`),
  '',
];
const md = lines.join('\n');
console.log(md);
if (!QUICK) {
  const dir = new URL('./results/', import.meta.url);
  writeFileSync(new URL('backends.md', dir), md);
  writeFileSync(new URL('backends.json', dir), JSON.stringify({ meta, results }, null, 2) + '\n');
}
