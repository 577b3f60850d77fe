// The fallback backends against what they stand in for, as ratios in one
// process (issue 35's targets):
//   - wasm (no SIMD128) against wasm-simd: zero-copy float32 Relu and Max-2,
//     tensors in and out (no copy, no fresh page);
//   - js (JavaScript kernels) against a plain JavaScript loop over the same
//     typed arrays (common.mjs's, one per dtype): both write into an array
//     made once (`out`), so neither pays for fresh pages; every dtype.
//   - beside the wasm rows, the floor of element-at-a-time scalar code (a
//     hand-made wasm module without SIMD128: a copy loop of one 4-byte load
//     and store an element, and a compare-select loop of two loads, one
//     integer compare and a select an element, no NaN or -0 rule);
//   - beside the js rows at 1e3, the same calls over 256 windows of 1e3
//     values in turn: repeated 1e3 values let the plain loop's branches
//     learn them, which data in use do not.
// Writes bench/results/backends.{md,json}.
//
//   node bench/backends.mjs [--quick] [--lib=path/to/dist/esm/index.js]
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ARRAY_TYPES, DTYPES, cliOption, plainLoops, randomData } from './common.mjs';
import { measurePageCost, pageCostWarning } from './page-cost.mjs';
import { measure } from './timing.mjs';
import { finishMachine, headerLines, machine, writeResults } from './machine.mjs';

const argv = process.argv.slice(2);
const QUICK = argv.includes('--quick');
const libPath = cliOption(argv, 'lib', fileURLToPath(new URL('../dist/esm/index.js', import.meta.url)));
const lib = await import(pathToFileURL(libPath).href);
const TIMING = QUICK
  ? { targetMs: 20, minBatchMs: 2, minSamples: 3, maxSamples: 25, warmupMs: 5, warmupMin: 1 }
  : { targetMs: 300, minBatchMs: 5, minSamples: 9, maxSamples: 200, warmupMs: 50, warmupMin: 2 };
const time = async (fn) => (await measure(fn, false, TIMING)).median_us;
const results = { wasm: [], js: [] };
const start = machine();
// The machine's price of a fresh page, recorded as every results file does (no cell here pays it).
const pageCost = [{ at: 'start', ...await measurePageCost() }];
const warning = pageCostWarning(pageCost[0], 'Node');
if (warning) console.warn(warning);

// The floors: a module of two loops without SIMD128, written here as bytes.
// copy(bytes, src, dst): eight 4-byte loads and stores a step; pick(bytes,
// a, b, dst): four elements a step, each b > a (as int32) ? b : a. bytes is a
// multiple of 32, above 0.
const uleb = (v) => { const o = []; do { o.push((v & 0x7f) | (v > 0x7f ? 0x80 : 0)); v >>>= 7; } while (v); return o; };
const vec = (items) => [...uleb(items.length), ...items.flat()];
const section = (id, bytes) => [id, ...uleb(bytes.length), ...bytes];
const name = (s) => vec([...s].map((c) => [c.charCodeAt(0)]));
const [GET, SET, TEE, ADD, SUB, LOAD, STORE, GT_S, SELECT, CONST] = [0x20, 0x21, 0x22, 0x6a, 0x6b, 0x28, 0x36, 0x4a, 0x1b, 0x41];
// The loop's tail: each pointer local += step, bytes -= step, again while bytes.
const tail = (pointers, step) => [...pointers.flatMap((l) => [GET, l, CONST, ...uleb(step), ADD, SET, l]),
  GET, 0, CONST, ...uleb(step), SUB, TEE, 0, 0x0d, 0, 0x0b, 0x0b];
const copyBody = [0, 0x03, 0x40, ...[0, 1, 2, 3, 4, 5, 6, 7].flatMap((k) => [GET, 2, GET, 1, LOAD, 2, 4 * k, STORE, 2, 4 * k]), ...tail([1, 2], 32)];
const pickBody = [1, 2, 0x7f, 0x03, 0x40, ...[0, 1, 2, 3].flatMap((k) => [GET, 3, GET, 2, LOAD, 2, 4 * k, TEE, 4,
  GET, 1, LOAD, 2, 4 * k, TEE, 5, GET, 4, GET, 5, GT_S, SELECT, STORE, 2, 4 * k]), ...tail([1, 2, 3], 16)];
const floorModule = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0,
  ...section(1, vec([[0x60, 3, 0x7f, 0x7f, 0x7f, 0], [0x60, 4, 0x7f, 0x7f, 0x7f, 0x7f, 0]])),
  ...section(3, vec([[0], [1]])),
  ...section(5, vec([[0, ...uleb(192)]])), // 12 MiB: three runs of 1e6 float32
  ...section(7, vec([[...name('copy'), 0, 0], [...name('pick'), 0, 1], [...name('memory'), 2, 0]])),
  ...section(10, vec([copyBody, pickBody].map((b) => [...uleb(b.length), ...b]))),
]);
const floor = (await WebAssembly.instantiate(floorModule)).instance.exports;

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
  // The floors over the same values, checked once.
  const A = 0, B = 4 * n, O = 8 * n, m32 = new Int32Array(floor.memory.buffer);
  m32.set(new Int32Array(a.buffer), A / 4);
  m32.set(new Int32Array(b.buffer), B / 4);
  floor.copy(4 * n, A, O);
  if (m32.subarray(O / 4, O / 4 + n).some((v, i) => v !== m32[i])) throw new Error('floor copy: wrong result');
  floor.pick(4 * n, A, B, O);
  if (m32.subarray(O / 4, O / 4 + n).some((v, i) => v !== Math.max(m32[i], m32[B / 4 + i]))) throw new Error('floor pick: wrong result');
  const floors = { relu: await time(() => floor.copy(4 * n, A, O)), max: await time(() => floor.pick(4 * n, A, B, O)) };
  for (const op of ['relu', 'max']) {
    results.wasm.push({ op: op === 'max' ? 'Max-2' : 'Relu', n, simd_us: cells[0][op], wasm_us: cells[1][op], ratio: cells[1][op] / cells[0][op],
      floor_us: floors[op], floor_ratio: floors[op] / cells[0][op] });
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
// float32 at 1e3 over 256 windows of 1e3 values in turn (each call the next).
{
  const n = 1e3, W = 256;
  const a = randomData('float32', n * W, 5), b = randomData('float32', n * W, 6);
  const out = new Float32Array(n);
  const loops = plainLoops('float32');
  const as = [], bs = [], tas = [], tbs = [];
  for (let w = 0; w < W; w++) {
    as.push(a.subarray(w * n, (w + 1) * n));
    bs.push(b.subarray(w * n, (w + 1) * n));
    tas.push({ dtype: 'float32', shape: [n], data: as[w] });
    tbs.push({ dtype: 'float32', shape: [n], data: bs[w] });
  }
  let w = 0;
  const row = { dtype: 'float32', n, windows: W };
  row.relu_js_us = await time(() => js.relu(tas[w = (w + 1) & (W - 1)], { out }));
  row.relu_loop_us = await time(() => loops.relu(as[w = (w + 1) & (W - 1)], out, n));
  row.relu_ratio = row.relu_js_us / row.relu_loop_us;
  row.max_js_us = await time(() => js.max([tas[w = (w + 1) & (W - 1)], tbs[w]], { out }));
  row.max_loop_us = await time(() => loops.max(as[w = (w + 1) & (W - 1)], bs[w], out, n));
  row.max_ratio = row.max_js_us / row.max_loop_us;
  results.js.splice(1, 0, row);
}

const meta = finishMachine({ ...start, quick: QUICK, lib: libPath, pageCost });
const f = (x) => (x < 10 ? x.toFixed(2) : x < 1000 ? x.toFixed(1) : Math.round(x).toLocaleString('en'));
const lines = [
  ...headerLines(meta, { title: 'The fallback backends against what they stand in for', script: 'backends.mjs' }),
  'Medians, µs per call. No cell makes a fresh array (so none pays the fresh memory above).',
  '',
  '## wasm (no SIMD128) against wasm-simd: zero-copy float32, tensors in and `out` (target: wasm within 3x)',
  '',
  'Floor: the least element-at-a-time scalar code costs, a hand-made wasm loop without SIMD128 over the same values ' +
  '(Relu: one 4-byte load and store an element; Max-2: two loads, one integer compare and a select an element, no NaN or -0 rule).',
  '',
  '| op | n | wasm-simd µs | wasm µs | wasm / wasm-simd | floor µs | floor / wasm-simd |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...results.wasm.map((r) => `| ${r.op} | ${r.n.toExponential(0)} | ${f(r.simd_us)} | ${f(r.wasm_us)} | ${r.ratio.toFixed(2)}x | ` +
    `${f(r.floor_us)} | ${r.floor_ratio.toFixed(2)}x |`),
  '',
  '## js (JavaScript kernels) against a plain JavaScript loop, both into an `out` made once (target for float32: js at most 1x)',
  '',
  '*256 windows*: each call takes the next of 256 windows of 1e3 values (1 MiB an operand), where the other rows repeat one set of values.',
  '',
  '| dtype | n | Relu js µs | Relu loop µs | js / loop | Max-2 js µs | Max-2 loop µs | js / loop |',
  '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
  ...results.js.map((r) => `| ${r.dtype}${r.windows ? `, ${r.windows} windows` : ''} | ${r.n.toExponential(0)} | ` +
    (r.relu_ratio === undefined ? '- | - | - | ' : `${f(r.relu_js_us)} | ${f(r.relu_loop_us)} | ${r.relu_ratio.toFixed(2)}x | `) +
    `${f(r.max_js_us)} | ${f(r.max_loop_us)} | ${r.max_ratio.toFixed(2)}x |`),
  '',
];
const md = lines.join('\n');
console.log(md);
if (!QUICK) {
  writeResults(fileURLToPath(new URL('./results/backends', import.meta.url)), { meta, results }, md);
}
