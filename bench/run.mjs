// Benchmark runner: onnx-ops-wasm (Max, Relu) vs onnxruntime-web (wasm),
// tfjs (wasm backend), a plain JS loop, and a memory.copy "physical limit".
//
//   node bench/run.mjs            full run  -> bench/results/latest.{json,md,svg}
//   node bench/run.mjs --quick    < 60 s    -> bench/results/quick.{json,md,svg}
//   node bench/run.mjs --tuned    the same in a tuned child process -> results/latest-tuned.* (quick-tuned.*)
//
// Options: --sizes=1e3,1e6  --workloads=relu,max2  --dtypes=float32,int8 (dtype sweep)
//          --no-dtypes  --dtype-n=1e6  --peers=ort-web,tfjs-wasm,js  --lib=path/to/index.js
//          --out=results/name (prefix, no extension)  --target-ms=150
//          --tuned (with --stock-malloc or --liftoff to leave one of its two settings out)
//          --no-kernels (skip the kernel yardsticks: build/wasm/bench/bench-kernels.cjs)
// See README.md for what each column means.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';
import { DTYPES, BYTES, cliOption, randomData, compareOutputs } from './common.mjs';
import { expectedMax, expectedRelu } from './oracle.mjs';
import { createOrtPeer, createTfjsPeer, createJsPeer, createCopyLimit, COPY_PLACEMENTS } from './peers.mjs';
import { workloads } from './check.mjs';
import { COLUMNS, prepareCase } from './cases.mjs';
import { TUNED, benchProcess, measure as measureWith, processSettings, sink } from './timing.mjs';
import { finishMachine, headerLines, machine, writeResults } from './machine.mjs';
import { fmtN, fmtUs, fmtG, fmtX, svgChart } from './report.mjs';
import { measurePageCost, pageCostLine, pageCostWarning } from './page-cost.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// Process settings: plain node unless --tuned (benchProcess in timing.mjs).
benchProcess();
const require = createRequire(import.meta.url);

// ---------------------------------------------------------------- options
const argv = process.argv.slice(2);
const opt = (name, def) => cliOption(argv, name, def);
const QUICK = !!opt('quick', false);
const parseSizes = (s) => s.split(',').map((x) => Math.round(Number(x)));
const SIZES = opt('sizes') ? parseSizes(opt('sizes')) : QUICK ? [16, 1e4, 1e6] : [1, 16, 256, 1e3, 1e4, 1e5, 1e6, 4e6, 1.6e7];
const WORKLOAD_IDS = opt('workloads') ? opt('workloads').split(',') : null;
const SWEEP_DTYPES = opt('no-dtypes') ? [] : opt('dtypes') ? opt('dtypes').split(',') : DTYPES;
const SWEEP_N = Math.round(Number(opt('dtype-n', QUICK ? 1e5 : 1e6)));
const PEERS = opt('peers') ? opt('peers').split(',') : ['ort-web', 'tfjs-wasm', 'js'];
const LIB = path.resolve(opt('lib', path.join(HERE, '..', 'dist', 'esm', 'index.js')));
const KERNELS = opt('no-kernels') ? null : path.join(HERE, '..', 'build', 'wasm', 'bench', 'bench-kernels.cjs');
const OUT = path.resolve(HERE, opt('out', `${QUICK ? 'results/quick' : 'results/latest'}${TUNED ? '-tuned' : ''}`));
const TIMING = QUICK
  ? { targetMs: 20, minBatchMs: 0.5, minSamples: 3, maxSamples: 25, warmupMs: 5, warmupMin: 1 }
  : { targetMs: 200, minBatchMs: 1, minSamples: 9, maxSamples: 200, warmupMs: 30, warmupMin: 2 };
if (opt('target-ms')) TIMING.targetMs = Number(opt('target-ms'));

// ---------------------------------------------------------------- timing
const measure = (fn, isAsync, cfg = TIMING) => measureWith(fn, isAsync, cfg);

// ---------------------------------------------------------------- setup
/** The machine, and the library's name and version from package.json. */
function machineInfo() {
  let pkg = null;
  try { pkg = JSON.parse(fs.readFileSync(path.join(HERE, '..', 'package.json'), 'utf8')); } catch {}
  return { ...machine(), library: pkg ? `${pkg.name}@${pkg.version}` : null };
}

async function loadOurs() {
  if (!fs.existsSync(LIB)) return { error: `library not built (${path.relative(process.cwd(), LIB)} missing: run \`npm run build\` at the repo root)` };
  try {
    const mod = await import(pathToFileURL(LIB).href);
    const ops = await mod.createOps();
    return { ops };
  } catch (e) {
    return { error: `cannot load ${LIB}: ${e?.stack ?? e}` };
  }
}

// ---------------------------------------------------------------- plain floors
// A fresh result buffer the way the library makes one (js/src/memory.ts,
// freshArray): unzeroed from 1 MiB on under Node, else zero-filled.
const freshBytes = (bytes) => (bytes >= 2 ** 20 ? Buffer.allocUnsafeSlow(bytes) : new Uint8Array(bytes));

// ---------------------------------------------------------------- one case
/** Every column of one (workload, dtype, n), checked (cases.mjs), then timed one after another. */
async function runCase(ctx, wl, dtype, n, shapes) {
  const { cols, cleanups, bytes, record } = await prepareCase({ ...ctx, freshBytes }, wl, dtype, n, shapes);

  // --- timing
  const results = {};
  for (const col of COLUMNS) {
    const c = cols[col.id];
    if (!c) continue;
    if (c.na || c.error) { results[col.id] = { status: c.na ? 'n/a' : 'error', reason: c.na ?? c.error }; continue; }
    let m = await measure(c.fn, c.isAsync);
    for (const f of c.placements?.slice(1) ?? []) { // the copy limit, the floors: the best placement or block
      const other = await measure(f, false);
      if (other.median_us < m.median_us) m = other;
    }
    results[col.id] = {
      status: 'ok',
      ...m,
      gbps: bytes / (m.median_us * 1e3),
      ...(c.mismatch ? { mismatch: c.mismatch } : {}),
      ...(c.warn ? { warning: c.warn } : {}),
      ...(c.copyLen ? { copy_bytes: c.copyLen } : {}),
    };
  }
  for (const f of cleanups) { try { f(); } catch {} }
  return record(results);
}

// ---------------------------------------------------------------- kernel yardsticks
// The library's kernels called directly (no API layer), beside yardsticks
// compiled from the same loop bodies (bench/research/kernels.cpp): pmax (a Max without
// NaN propagation or -0/+0 order), vcopy (loads and stores only), and
// memory.copy for the same traffic. Ratios within one row share data and heap.
// streams: full-length arrays read or written; extra: elements of the reused
// row or value; workload: the table above whose ort-web ceiling the yardstick
// sets. The broadcasts run through the library's C++ entry point (planning and
// the row/value check included), against the bare pmax loop.
const KERNEL_ROWS = [
  { id: 'relu', label: 'Relu', streams: 2, extra: 0, yardstick: 'vcopy', ours: 'relu', workload: 'relu' },
  { id: 'max2', label: 'Max-2', streams: 3, extra: 0, yardstick: 'pmax', ours: 'max', workload: 'max2' },
  { id: 'max3', label: 'Max-3', streams: 4, extra: 0, yardstick: 'pmax3', ours: 'max3', workload: 'max3' },
  { id: 'row', label: 'Max [R,1024],[1024]', streams: 2, extra: 1024, yardstick: 'prow', ours: 'maxrow', workload: 'max-bcast' },
  { id: 'value', label: 'Max [n],[]', streams: 2, extra: 1, yardstick: 'pmaxval', ours: 'maxval', workload: 'max-scalar' },
];
async function runKernels(copy) {
  if (!KERNELS) return { skipped: 'disabled (--no-kernels)' };
  if (!fs.existsSync(KERNELS)) return { skipped: `${path.relative(process.cwd(), KERNELS)} missing (npm run build)` };
  const M = await require(KERNELS)();
  const rows = [];
  for (const t of ['f32', 'f64']) {
    const dtype = t === 'f32' ? 'float32' : 'float64';
    const bpe = BYTES[dtype];
    for (const n of SIZES.filter((x) => x >= 1000)) {
      const R = Math.max(2, Math.round(n / 1024)); // rows of the row broadcast: R * 1024 elements
      const cap = Math.max(n, R * 1024);
      const ptr = [0, 1, 2, 3].map(() => M._bench_alloc(cap * bpe));
      const data = [0, 1, 2].map((i) => randomData(dtype, cap, 77 + i));
      const view = (p, len = n) => new (dtype === 'float32' ? Float32Array : Float64Array)(M.HEAPU8.buffer, p, len);
      data.forEach((d, i) => view(ptr[i], cap).set(d));
      const inputs = data.map((d) => ({ shape: [n], data: d.subarray(0, n) }));
      const fns = {
        relu: () => M[`_bench_relu_${t}`](n, ptr[0], ptr[3]),
        vcopy: () => M[`_bench_vcopy_${t}`](n, ptr[0], ptr[3]),
        max: () => M[`_bench_max_${t}`](n, ptr[0], ptr[1], ptr[3]),
        pmax: () => M[`_bench_pmax_${t}`](n, ptr[0], ptr[1], ptr[3]),
        max3: () => M[`_bench_max3_${t}`](n, ptr[0], ptr[1], ptr[2], ptr[3]),
        pmax3: () => M[`_bench_pmax3_${t}`](n, ptr[0], ptr[1], ptr[2], ptr[3]),
        maxrow: () => M[`_bench_maxrow_${t}`](R, 1024, ptr[0], ptr[1], ptr[3]),
        prow: () => M[`_bench_prow_${t}`](R, 1024, ptr[0], ptr[1], ptr[3]),
        maxval: () => M[`_bench_maxval_${t}`](n, ptr[0], ptr[1], ptr[3]),
        pmaxval: () => M[`_bench_pmaxval_${t}`](n, ptr[0], ptr[1], ptr[3]),
      };
      // the library's calls must give the reference's bits on this data
      const expect = {
        relu: expectedRelu(dtype, inputs[0].data), max: expectedMax(dtype, inputs.slice(0, 2)).data, max3: expectedMax(dtype, inputs).data,
        maxrow: expectedMax(dtype, [{ shape: [R, 1024], data: data[0].subarray(0, R * 1024) }, { shape: [1024], data: data[1].subarray(0, 1024) }]).data,
        maxval: expectedMax(dtype, [inputs[0], { shape: [], data: data[1].subarray(0, 1) }]).data,
      };
      for (const [k, want] of Object.entries(expect)) {
        const status = fns[k]();
        const c = compareOutputs(dtype, want, view(ptr[3], want.length).slice(), 'bits');
        if (c || (status ?? 0) !== 0) throw new Error(`bench kernel ${k} ${dtype} n=${n} differs from the reference (status ${status}): ${JSON.stringify(c)}`);
      }
      for (const k of KERNEL_ROWS) {
        const elements = k.id === 'row' ? R * 1024 : n;
        const traffic = (k.streams * elements + k.extra) * bpe;
        const r = { kernel: k.id, dtype, n: elements, bytes: traffic };
        r.copy = Infinity;
        for (let p = 0; p < COPY_PLACEMENTS; p++) r.copy = Math.min(r.copy, (await measure(copy.prepare(traffic / 2, p), false)).median_us);
        r.ours = (await measure(fns[k.ours], false)).median_us;
        r.yardstick = (await measure(fns[k.yardstick], false)).median_us;
        rows.push(r);
        console.log(`${k.label.padEnd(19)} ${dtype} ${fmtN(n).padStart(6)}: ours ${fmtUs(r.ours)} µs, ${k.yardstick} ${fmtUs(r.yardstick)} µs (ours/${k.yardstick} ${(r.ours / r.yardstick).toFixed(2)}), copy ${fmtUs(r.copy)} µs (ours ${(100 * r.copy / r.ours).toFixed(0)} % of copy)`);
      }
    }
  }
  return { rows, nan: await runNanKernels(M) };
}

// The same Max kernels on data with NaNs: a NaN in b every `spacing` bytes of
// an operand (every chunk of the fast path redone, some, or few), beside pmax
// on the same data (which drops them). The library's results are checked
// against the reference first, as above.
const NAN_N = 1e5;
const NAN_SPACINGS = [1024, 8192, 65536, 262144];
async function runNanKernels(M) {
  const rows = [];
  for (const t of ['f32', 'f64']) {
    const dtype = t === 'f32' ? 'float32' : 'float64';
    const bpe = BYTES[dtype], n = NAN_N;
    const ptr = [0, 1, 2, 3].map(() => M._bench_alloc(n * bpe));
    const view = (p) => new (dtype === 'float32' ? Float32Array : Float64Array)(M.HEAPU8.buffer, p, n);
    for (const spacing of NAN_SPACINGS) {
      const every = spacing / bpe;
      const data = [0, 1, 2].map((i) => randomData(dtype, n, 77 + i));
      for (let i = every >> 1; i < n; i += every) data[1][i] = NaN;
      data.forEach((d, i) => view(ptr[i]).set(d));
      for (const [id, label, ours, yard, k] of [
        ['max2', 'Max-2', `_bench_max_${t}`, `_bench_pmax_${t}`, 2],
        ['max3', 'Max-3', `_bench_max3_${t}`, `_bench_pmax3_${t}`, 3],
      ]) {
        const call = (f) => () => (k === 2 ? M[f](n, ptr[0], ptr[1], ptr[3]) : M[f](n, ptr[0], ptr[1], ptr[2], ptr[3]));
        call(ours)();
        const c = compareOutputs(dtype, expectedMax(dtype, data.slice(0, k).map((d) => ({ shape: [n], data: d }))).data, view(ptr[3]).slice(), 'bits');
        if (c) throw new Error(`bench kernel ${id} ${dtype} with NaNs every ${spacing} bytes differs from the reference: ${JSON.stringify(c)}`);
        const r = { kernel: id, label, dtype, n, spacing, ours: (await measure(call(ours), false)).median_us, yardstick: (await measure(call(yard), false)).median_us };
        rows.push(r);
        console.log(`${label} ${dtype} ${fmtN(n)}, a NaN in b every ${spacing / 1024} KiB: ours ${fmtUs(r.ours)} µs, ${k === 2 ? 'pmax' : 'pmax3'} ${fmtUs(r.yardstick)} µs (${(r.ours / r.yardstick).toFixed(2)})`);
      }
    }
  }
  return rows;
}

function kernelMarkdown(k) {
  const L = ['## Kernel yardsticks: NaN cost and the bare loops', ''];
  if (!k || k.skipped) return [...L, `Skipped: ${k?.skipped ?? 'not run'}.`, ''];
  L.push('The library\'s kernels called directly (no API layer) beside kernels built from the *same loop* with another body',
    '(`bench/research/kernels.cpp`): **pmax** is Max without NaN propagation or -0/+0 order (wasm `f32x4.pmax`); **vcopy** is the Relu loop',
    'with an identity body (128-bit loads and stores only). The broadcasts go through the library\'s C++ entry point (planning',
    'and the check of the row or value included) beside the bare loop: **prow** is pmax of each row with the reused row, **pmaxval**',
    'pmax with a repeated value; their "of copy" is what the library\'s loop for that broadcast reaches without the call.',
    '"of copy" = `memory.copy` time for the same bytes / kernel time.',
    'NaN cost = ours / pmax − 1 (target: ≤ 5 %). Random data without NaN, as in the tables above.', '',
    '| kernel | dtype | n | ours µs | yardstick | yardstick µs | ours / yardstick | ours of copy | yardstick of copy |',
    '|---|---|---:|---:|---|---:|---:|---:|---:|');
  for (const r of k.rows) {
    const row = KERNEL_ROWS.find((x) => x.id === r.kernel);
    L.push(`| ${row.label} | ${r.dtype} | ${fmtN(r.n)} | ${fmtUs(r.ours)} | ${row.yardstick} | ${fmtUs(r.yardstick)} | ${(r.ours / r.yardstick).toFixed(2)} | ${(100 * r.copy / r.ours).toFixed(0)} % | ${(100 * r.copy / r.yardstick).toFixed(0)} % |`);
  }
  L.push('');
  if (k.nan?.length) {
    L.push('### With NaNs in the data', '',
      'The same Max kernels with a NaN in b every S bytes of an operand, beside pmax on the same data (which drops the',
      'NaNs: not a correct Max, only the speed of one). The fast path checks 4 KiB chunks and redoes one that holds a',
      'NaN exactly; after a redo its chunks are 256 bytes until 4 KiB pass, then 1 KiB until 64 KiB do.', '',
      '| kernel | dtype | n | a NaN every | ours µs | yardstick µs | ours / yardstick |',
      '|---|---|---:|---:|---:|---:|---:|');
    for (const r of k.nan) {
      L.push(`| ${r.label} | ${r.dtype} | ${fmtN(r.n)} | ${r.spacing / 1024} KiB | ${fmtUs(r.ours)} | ${fmtUs(r.yardstick)} | ${(r.ours / r.yardstick).toFixed(2)} |`);
    }
    L.push('');
  }
  return L;
}

// ---------------------------------------------------------------- console output
function printHeader(title) {
  console.log(`\n== ${title}`);
  console.log(`${'n'.padStart(8)} ${'elems'.padStart(9)} | ` + COLUMNS.map((c) => c.label.padStart(22)).join(' '));
  console.log(`${''.padStart(8)} ${''.padStart(9)} | ` + COLUMNS.map(() => 'median µs  GB/s'.padStart(22)).join(' '));
}
function printRow(r, label = fmtN(r.n)) {
  const cells = COLUMNS.map((c) => {
    const x = r.results[c.id];
    if (!x) return ''.padStart(22);
    if (x.status !== 'ok') return x.status.padStart(22);
    const s = `${fmtUs(x.median_us)} ${fmtG(x.gbps).padStart(6)}${x.mismatch ? '!' : ''}`;
    return s.padStart(22);
  });
  console.log(`${label.padStart(8)} ${String(r.elements).padStart(9)} | ${cells.join(' ')}`);
}

// ---------------------------------------------------------------- Markdown
const med = (r, id) => (r.results[id]?.status === 'ok' ? r.results[id].median_us : null);
const ratio = (a, b) => (a != null && b != null ? a / b : null);

const sum = (a, b) => (a != null && b != null ? a + b : null);
const vs = (r, id) => `${fmtX(ratio(med(r, id), med(r, 'ours')))} / ${fmtX(ratio(med(r, id), med(r, 'ours-zc')))}`;
const vsOrt = (r) => ['ours', 'ours-out', 'ours-zc'].map((id) => fmtX(ratio(med(r, 'ort-web'), med(r, id)))).join(' / ');
// The fastest any kernel could be: the case's bytes at the fastest speed the
// workload's bare 128-bit loop (its kernel yardstick: vcopy, pmax, pmax3, prow,
// pmaxval; any size, float32 or float64) reached in this run, in cache. Any
// wasm SIMD128 kernel of the workload has at least that loop's loads, stores
// and vector operations; wider vectors do not exist in wasm. Without the
// kernel table (--no-kernels), the best memory.copy of the run (inside L1),
// which no 128-bit loop reaches. In a plain call the kernel works on
// cache-sized chunks, so the case's own copy limit would be no bound.
let peakCopyGBps = null;
let yardUsPerByte = {};
const kernelFloor = (r) => {
  const y = yardUsPerByte[KERNEL_ROWS.find((k) => k.workload === r.workload)?.id];
  if (y) return r.bytes * y;
  return peakCopyGBps ? r.bytes / (peakCopyGBps * 1e3) : null;
};
const fastestYardsticks = (k) => {
  const best = {};
  for (const row of k?.rows ?? []) best[row.kernel] = Math.min(best[row.kernel] ?? Infinity, row.yardstick / row.bytes);
  return best;
};
const ceilingOrt = (r) => ['floor', 'floor-out'].map((id) => fmtX(ratio(med(r, 'ort-web'), sum(med(r, id), kernelFloor(r))))).join(' / ');

function cellTime(x) {
  if (!x) return '';
  if (x.status !== 'ok') return x.status;
  return `${fmtUs(x.median_us)} <sub>${fmtUs(x.p10_us)}–${fmtUs(x.p90_us)}</sub>${x.mismatch ? ' **≠**' : ''}`;
}

function markdown(report) {
  const m = report.meta;
  peakCopyGBps = Math.max(0, ...report.cases.map((c) => (c.results.copy?.status === 'ok' ? c.results.copy.gbps : 0))) || null;
  yardUsPerByte = fastestYardsticks(report.kernels);
  const yardGBps = Object.entries(yardUsPerByte).map(([k, y]) => `${KERNEL_ROWS.find((x) => x.id === k).yardstick} ${fmtG(1e-3 / y)}`).join(', ');
  const L = [];
  L.push(...headerLines(m, {
    title: `onnx-ops-wasm benchmark${m.tuned ? ', tuned Node process' : ''}`, script: 'run.mjs',
    rows: [['library', m.ours.available ? `${m.library ?? 'onnx-ops-wasm'} (${m.ours.path})` : `**not available**: ${m.ours.error}`],
      ...Object.entries(m.peers), ['timing', m.timing], ['process', m.process], ['allocator', m.malloc], ['wasm tiering', m.wasmTiering]],
  }));
  L.push('Times are per call in µs: median <sub>p10–p90</sub>. GB/s = (bytes read + bytes written) / median time.',
    '"×copy" = time / copy-limit time for the same traffic (1.00× = as fast as `memory.copy`).',
    '"ours vs X" = X time / ours time (> 1: ours faster), for the plain path and, after the slashes, with `{ out }` and zero-copy (ort-web); plain and zero-copy (others).',
    yardGBps
      ? `"ceiling vs ort-web" = ort-web time / (plain floor + the bytes at the fastest in-cache speed of the workload's bare 128-bit loop in this run: ${yardGBps} GB/s), then the same with \`{ out }\`:`
      : `"ceiling vs ort-web" = ort-web time / (plain floor + the bytes at ${peakCopyGBps ? fmtG(peakCopyGBps) : 'n/a'} GB/s, the run's best memory.copy), then the same with \`{ out }\`:`,
    'the most any library whose plain calls copy through wasm memory and compute in wasm SIMD128 could be ahead of ort-web here (a target beyond it cannot be met).',
    '**≠** marks an output that is not bit-identical to ours. See bench/README.md.', '');

  const allMis = report.cases.flatMap((c) => c.mismatches.map((x) => ({ case: `${c.label} ${c.dtype} n=${c.n}`, ...x })));
  if (allMis.length) {
    L.push('## ⚠️ OUTPUT MISMATCHES', '', '| case | column | vs | first index | expected | got | count |', '|---|---|---|---|---|---|---|');
    for (const x of allMis) L.push(`| ${x.case} | ${x.column} | ${x.vs} | ${x.index ?? ''} | ${x.expected ?? ''} | ${x.got ?? ''} | ${x.mismatches ?? x.reason} |`);
    L.push('');
  }

  const groups = new Map();
  for (const c of report.cases.filter((c) => c.section === 'sizes')) {
    if (!groups.has(c.workload)) groups.set(c.workload, []);
    groups.get(c.workload).push(c);
  }
  for (const [, rows] of groups) {
    L.push(`## ${rows[0].label} (${rows[0].dtype})`, '');
    L.push('| n | elements | ' + COLUMNS.map((c) => `${c.label} µs`).join(' | ') + ' |');
    L.push('|---:|---:|' + COLUMNS.map(() => '---:').join('|') + '|');
    for (const r of rows) L.push(`| ${fmtN(r.n)} | ${r.elements} | ${COLUMNS.map((c) => cellTime(r.results[c.id])).join(' | ')} |`);
    L.push('');
    L.push('| n | ' + COLUMNS.map((c) => `${c.label} GB/s`).join(' | ') + ' | ours ×copy | zero-copy ×copy | ours vs ort-web | ceiling vs ort-web | ours vs tfjs | ours vs js |');
    L.push('|---:|' + COLUMNS.map(() => '---:').join('|') + '|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      const g = COLUMNS.map((c) => (r.results[c.id]?.status === 'ok' ? fmtG(r.results[c.id].gbps) : (r.results[c.id]?.status ?? '')));
      L.push(`| ${fmtN(r.n)} | ${g.join(' | ')} | ${fmtX(ratio(med(r, 'ours'), med(r, 'copy')))} | ${fmtX(ratio(med(r, 'ours-zc'), med(r, 'copy')))} | ${vsOrt(r)} | ${ceilingOrt(r)} | ${vs(r, 'tfjs-wasm')} | ${vs(r, 'js')} |`);
    }
    L.push('');
  }

  const sweep = report.cases.filter((c) => c.section === 'dtypes');
  for (const op of ['relu', 'max2']) {
    const rows = sweep.filter((c) => c.workload === op);
    if (!rows.length) continue;
    L.push(`## ${rows[0].label} per dtype, n = ${fmtN(rows[0].n)}`, '');
    L.push('| dtype | ' + COLUMNS.map((c) => `${c.label} µs`).join(' | ') + ' | zero-copy GB/s | copy GB/s | zero-copy ×copy | ours vs ort-web | ceiling vs ort-web | ours vs tfjs | ours vs js |');
    L.push('|---|' + COLUMNS.map(() => '---:').join('|') + '|---:|---:|---:|---:|---:|---:|---:|');
    for (const r of rows) {
      const g = (id) => (r.results[id]?.status === 'ok' ? fmtG(r.results[id].gbps) : 'n/a');
      L.push(`| ${r.dtype} | ${COLUMNS.map((c) => cellTime(r.results[c.id])).join(' | ')} | ${g('ours-zc')} | ${g('copy')} | ${fmtX(ratio(med(r, 'ours-zc'), med(r, 'copy')))} | ${vsOrt(r)} | ${ceilingOrt(r)} | ${vs(r, 'tfjs-wasm')} | ${vs(r, 'js')} |`);
    }
    L.push('');
  }

  L.push(...kernelMarkdown(report.kernels));

  const notes = new Map();
  for (const c of report.cases) for (const [id, x] of Object.entries(c.results)) {
    if (x.status !== 'ok' && x.reason) {
      const k = `${id}: ${x.reason}`;
      if (!notes.has(k)) notes.set(k, []);
      notes.get(k).push(`${c.op === 'relu' ? 'Relu' : 'Max'} ${c.dtype}`);
    }
  }
  const allKinds = new Set(report.cases.map((c) => `${c.op === 'relu' ? 'Relu' : 'Max'} ${c.dtype}`));
  if (notes.size) {
    L.push('## Notes (n/a and errors)', '');
    for (const [k, v] of notes) {
      const u = [...new Set(v)];
      L.push(`- ${k}: ${u.length === allKinds.size && u.length > 2 ? 'all cases' : u.join(', ')}`);
    }
    L.push('');
  }
  L.push('![GB/s vs n](' + path.basename(report.svgFile) + ')', '');
  return L.join('\n');
}

// ---------------------------------------------------------------- main
async function main() {
  const meta = machineInfo();
  meta.quick = QUICK;
  const ps = processSettings();
  Object.assign(meta, { tuned: ps.tuned, process: ps.label, malloc: ps.malloc, wasmTiering: ps.wasmTiering });
  meta.nodeFlags = process.execArgv.join(' ') || '(none)';
  console.log(`onnx-ops-wasm bench${QUICK ? ' (quick)' : ''}${TUNED ? ' (tuned)' : ''}: ${meta.cpu}, ${meta.cores} cores, Node ${meta.node}; ${ps.label}`);

  meta.pageCost = [{ at: 'start', ...await measurePageCost() }];
  console.log(`fresh memory: ${pageCostLine(meta.pageCost)}`);
  if (pageCostWarning(meta.pageCost[0], 'Node')) console.warn(pageCostWarning(meta.pageCost[0], 'Node'));
  if (meta.loadavgStart[0] > meta.cores * 0.75) console.warn(`!!!!!!!! load average ${meta.loadavgStart[0]} on ${meta.cores} cores: other processes are running, timings will be noisy`);
  const ours = await loadOurs();
  if (ours.error) console.warn(`\n!!!!!!!! NOTE !!!!!!!! ${ours.error}\n  -> timing the peers only; 'ours' columns are n/a\n`);
  meta.ours = { available: !!ours.ops, path: path.relative(path.join(HERE, '..'), LIB), ...(ours.error ? { error: ours.error } : {}) };

  const peers = {};
  const peerErrors = {};
  meta.peers = {};
  const factories = { 'ort-web': createOrtPeer, 'tfjs-wasm': createTfjsPeer, js: createJsPeer };
  for (const id of PEERS) {
    try {
      const p = await factories[id]();
      peers[id] = p;
      if (id === 'ort-web') meta.peers[id] = `onnxruntime-web ${p.version} (wasm EP, numThreads=1, proxy off)`;
      if (id === 'tfjs-wasm') meta.peers[id] = `tfjs-core ${p.version}, backend '${p.backend}' (simd=${p.simd}, threads=${p.threads})`;
    } catch (e) {
      peerErrors[id] = `unavailable: ${String(e?.message ?? e).split('\n')[0]}`;
      meta.peers[id] = peerErrors[id];
      console.warn(`!!!!!!!! peer ${id} ${peerErrors[id]} (did you run \`npm --prefix bench ci\`?)`);
    }
  }
  meta.peers.js = meta.peers.js ?? 'plain JS loops (bench/common.mjs)';
  meta.peers.copy = `hand-assembled wasm module: memory.copy (bulk memory), best of ${COPY_PLACEMENTS} placements`;
  meta.timing = `warm-up ≥${TIMING.warmupMs} ms, batches ≥${TIMING.minBatchMs} ms, ~${TIMING.targetMs} ms per cell, ${TIMING.minSamples}–${TIMING.maxSamples} samples`;
  const copy = await createCopyLimit();
  const ctx = { ops: ours.ops, oursError: ours.error, peers, peerErrors, copy };

  const cases = [];
  const wls = workloads().filter((w) => w.bench && (!WORKLOAD_IDS || WORKLOAD_IDS.includes(w.id)));
  for (const wl of wls) {
    printHeader(`${wl.label}, float32`);
    const seen = new Set();
    for (const n of SIZES) {
      const shapes = wl.shapes(n);
      const key = JSON.stringify(shapes);
      if (seen.has(key)) continue; // e.g. [1,1024] for every n <= 1536
      seen.add(key);
      const r = await runCase(ctx, wl, 'float32', n, shapes);
      r.section = 'sizes';
      cases.push(r);
      printRow(r);
      await peers['ort-web']?.clear?.();
    }
  }
  const sweepWls = workloads().filter((w) => (w.id === 'relu' || w.id === 'max2') && (!WORKLOAD_IDS || WORKLOAD_IDS.includes(w.id)));
  for (const wl of SWEEP_DTYPES.length ? sweepWls : []) {
    printHeader(`${wl.label} per dtype, n=${fmtN(SWEEP_N)}`);
    for (const dtype of SWEEP_DTYPES) {
      const r = await runCase(ctx, wl, dtype, SWEEP_N, wl.shapes(SWEEP_N));
      r.section = 'dtypes';
      cases.push(r);
      printRow(r, dtype);
      await peers['ort-web']?.clear?.();
    }
  }

  console.log('\n== Kernel yardsticks (bench/research/kernels.cpp)');
  const kernels = await runKernels(copy);
  if (kernels.skipped) console.log(`skipped: ${kernels.skipped}`);

  meta.pageCost.push({ at: 'end', ...await measurePageCost() });
  finishMachine(meta);
  meta.settings = { sizes: SIZES, sweepDtypes: SWEEP_DTYPES, sweepN: SWEEP_N, timing: TIMING, peers: PEERS };
  meta.columns = Object.fromEntries(COLUMNS.map((c) => [c.id, c.desc]));
  const report = { meta, svgFile: `${OUT}.svg`, cases, kernels };
  const saved = { ...report, svgFile: path.basename(report.svgFile) };
  writeResults(OUT, saved, markdown(report), svgChart(report.cases, `${meta.cpu}, ${meta.cores} cores, Node ${meta.node}${meta.tuned ? ' (tuned)' : ''}, ${meta.date.slice(0, 10)}${meta.quick ? ', quick run' : ''}`));
  writeResults(path.join(HERE, 'results', 'raw', `${meta.date.replace(/[:.]/g, '-')}${QUICK ? '-quick' : ''}${TUNED ? '-tuned' : ''}`), saved);

  const mis = cases.reduce((s, c) => s + c.mismatches.length, 0);
  console.log(`\nwrote ${path.relative(process.cwd(), OUT)}.{json,md,svg} in ${meta.elapsed_s} s`);
  for (const p of meta.pageCost) {
    const w = pageCostWarning(p, `Node, ${p.at} of the run`);
    if (w) console.warn(w);
  }
  if (mis) console.warn(`\n!!!!!!!! ${mis} OUTPUT MISMATCH(ES): see the top of ${path.relative(process.cwd(), OUT)}.md !!!!!!!!`);
  if (sink === 42) console.log(''); // keep results alive
}

await main();
