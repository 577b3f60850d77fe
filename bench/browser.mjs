// The benchmark in browsers: the workloads of run.mjs in headless Chromium, Firefox
// and WebKit (tests/browsers/drivers.mjs), every column in one page (browser/page.mjs),
// interleaved in rounds; then the ways to make a fresh result array, in each browser
// and in this Node process (plain `node`, no flags).
//
//   npm run bench:browser                      full run -> bench/results/browser-<engine>.{json,md,svg}
//   npm run bench:browser -- --quick           < 3 min  -> bench/results/quick-browser-<engine>.* (git-ignored)
//
// Options: --browsers=chromium,firefox,webkit  --sizes=16,1e6  --workloads=relu,max2
//          --dtypes=float32,int8 | --no-dtypes  --dtype-n=1e6  --peers=ort-web,tfjs-wasm,js
//          --rounds=5  --batch-ms=40  --no-fresh  --lib=path/to/dist (a folder with esm/index.js)
// Any option that narrows the run (--quick, --sizes, --workloads, --dtypes, --no-dtypes,
// --dtype-n, --peers, --rounds, --batch-ms, --lib) writes the quick-* files. See README.md.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DTYPES, cliOption } from './common.mjs';
import { workloads } from './check.mjs';
import { COLUMNS } from './cases.mjs';
import { FRESH_SIZES, runFresh } from './fresh.mjs';
import { finishMachine, headerLines, machine, writeResults } from './machine.mjs';
import { fmtN, fmtUs, fmtX, svgChart } from './report.mjs';
import { freshPagesUs, measurePageCost, pageCostLine, pageCostWarning } from './page-cost.mjs';
import { serve } from '../tests/support/static-server.mjs';
import { BROWSERS, launch } from '../tests/browsers/drivers.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const ROOT = path.join(HERE, '..');

// ---------------------------------------------------------------- options
const argv = process.argv.slice(2);
const opt = (name, def) => cliOption(argv, name, def);
const known = ['quick', 'browsers', 'sizes', 'workloads', 'dtypes', 'no-dtypes', 'dtype-n', 'peers', 'rounds', 'batch-ms', 'no-fresh', 'lib'];
for (const a of argv) {
  if (!known.includes(a.replace(/^--/, '').split('=')[0])) { console.error(`unknown option ${a} (options: ${known.map((k) => `--${k}`).join(' ')})`); process.exit(2); }
}
const QUICK = !!opt('quick', false);
const PARTIAL = QUICK || ['sizes', 'workloads', 'dtypes', 'no-dtypes', 'dtype-n', 'peers', 'rounds', 'batch-ms', 'lib'].some((k) => opt(k) !== undefined);
const list = (s) => s.split(',').map((x) => x.trim()).filter(Boolean);
const nums = (s) => list(s).map((x) => Math.round(Number(x)));
const ENGINES = opt('browsers') ? list(opt('browsers')) : BROWSERS;
for (const b of ENGINES) if (!BROWSERS.includes(b)) { console.error(`unknown browser ${b} (one of ${BROWSERS.join(', ')})`); process.exit(2); }
const SIZES = opt('sizes') ? nums(opt('sizes')) : QUICK ? [16, 1e6] : [16, 256, 1e3, 1e4, 1e5, 1e6, 4e6];
const WORKLOAD_IDS = opt('workloads') ? list(opt('workloads')) : null;
const SWEEP_DTYPES = opt('no-dtypes') ? [] : opt('dtypes') ? list(opt('dtypes')) : QUICK ? ['float32', 'int8'] : DTYPES;
const SWEEP_N = Math.round(Number(opt('dtype-n', QUICK ? 1e5 : 1e6)));
const PEERS = opt('peers') ? list(opt('peers')) : ['ort-web', 'tfjs-wasm', 'js'];
const ROUNDS = Number(opt('rounds', QUICK ? 3 : 5));
const BATCH_MS = Number(opt('batch-ms', 40));
const FRESH = !opt('no-fresh', false);
const FRESH_AT = QUICK ? [1e3, 1e6] : FRESH_SIZES;
// Fresh arrays' times swing with the garbage collector and the allocator: more rounds for their medians.
const FRESH_ROUNDS = QUICK ? ROUNDS : Math.max(ROUNDS, 9);
const DIST = path.resolve(opt('lib', path.join(ROOT, 'dist')));
// Quick runs time one floor block (the library's 256 KiB scratch size) and one copy placement.
const FLOOR_BLOCKS = QUICK ? [256 * 1024] : undefined;
const COPY_PLACEMENTS = QUICK ? 1 : undefined;
const RESULTS = path.join(HERE, 'results');
const outPrefix = (name) => path.join(RESULTS, `${PARTIAL ? 'quick-' : ''}${name}`);

const ORT_DIST = path.join(HERE, 'node_modules', 'onnxruntime-web', 'dist');
const TFJS_CORE = path.join(HERE, 'node_modules', '@tensorflow', 'tfjs-core', 'dist');
const TFJS_WASM = path.join(HERE, 'node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist');


// ---------------------------------------------------------------- the cases
function caseList() {
  const cases = [];
  for (const wl of workloads().filter((w) => w.bench && (!WORKLOAD_IDS || WORKLOAD_IDS.includes(w.id)))) {
    const seen = new Set();
    for (const n of SIZES) {
      const key = JSON.stringify(wl.shapes(n));
      if (seen.has(key)) continue; // e.g. [1,1024] for every n <= 1536
      seen.add(key);
      cases.push({ section: 'sizes', workload: wl.id, dtype: 'float32', n });
    }
  }
  for (const id of ['relu', 'max2']) {
    if (WORKLOAD_IDS && !WORKLOAD_IDS.includes(id)) continue;
    for (const dtype of SWEEP_DTYPES) cases.push({ section: 'dtypes', workload: id, dtype, n: SWEEP_N });
  }
  return cases;
}

const brief = (r) => COLUMNS.map((c) => {
  const x = r.results[c.id];
  if (!x) return null;
  return `${c.label} ${x.status === 'ok' ? fmtUs(x.median_us) + (x.mismatch ? '≠' : '') : x.status}`;
}).filter(Boolean).join(', ');

// ---------------------------------------------------------------- one browser
/** A fresh page of the benchmark, started with the peers `peers`; resolves to [page, what init() says]. */
async function openPage(browser, server, peers) {
  const page = await browser.newPage();
  await page.goto(`${server.url}/page.html`);
  const info = await page.evaluate(async (cfg) => {
    for (let i = 0; i < 200 && !window.benchPage; i++) await new Promise((r) => setTimeout(r, 25));
    if (!window.benchPage) throw new Error('bench/browser/page.mjs did not start (see the console)');
    return window.benchPage.init(cfg);
  }, { ortUrl: '/ort/ort.wasm.min.mjs', ortDir: `${server.url}/ort/`, tfjsWasmDir: `${server.url}/tfjs-wasm/`, peers });
  return [page, info];
}

async function runEngine(name, server) {
  const start = machine();
  const browser = await launch(name);
  let page;
  try {
    let info;
    [page, info] = await openPage(browser, server, PEERS);
    console.log(`\n== ${browser.version}: SIMD ${info.simd}, timer step ${info.timerStepMs} ms, cross-origin isolated ${info.crossOriginIsolated}`);
    for (const [id, e] of Object.entries(info.peerErrors)) if (e !== 'not selected') console.warn(`!!!!!!!! ${name}: ${id} ${e}`);
    const pageCost = [{ at: 'start', ...await page.evaluate(() => window.benchPage.pageCost()) }];
    logPageCost(name, pageCost[0]);
    const cases = [];
    for (const c of caseList()) {
      const r = await page.evaluate((spec) => window.benchPage.runCase(spec),
        { ...c, rounds: ROUNDS, batchMs: BATCH_MS, floorBlocks: FLOOR_BLOCKS, copyPlacements: COPY_PLACEMENTS });
      r.section = c.section;
      cases.push(r);
      for (const w of r.warnings) console.warn(`!!!!!!!! ${name}: ${w}`);
      console.log(`${name} ${r.label} ${r.dtype} n=${fmtN(r.n)}: ${brief(r)}`);
    }
    pageCost.push({ at: 'end', ...await page.evaluate(() => window.benchPage.pageCost()) });
    logPageCost(name, pageCost[1]);
    const problems = await page.flushProblems();
    await page.close();
    // A page of its own, so that what the cases left on the heap does not weigh on the allocations.
    let fresh = [];
    if (FRESH) {
      [page] = await openPage(browser, server, []);
      fresh = await page.evaluate((o) => window.benchPage.runFresh(o), { sizes: FRESH_AT, rounds: FRESH_ROUNDS, batchMs: BATCH_MS });
      for (const row of fresh) console.log(`${name} fresh array n=${fmtN(row.n)}: ${freshBrief(row)}`);
      problems.push(...await page.flushProblems());
    }
    const meta = finishMachine({
      engine: name, browser: browser.version, userAgent: info.userAgent, simd: info.simd,
      timerStepMs: info.timerStepMs, crossOriginIsolated: info.crossOriginIsolated,
      ...start, pageCost,
      peers: { ...info.peers, js: 'plain JS loops (bench/common.mjs)', copy: 'hand-assembled wasm module: memory.copy' },
      timing: `interleaved: ${ROUNDS} rounds (fresh arrays ${FRESH_ROUNDS}), each column one batch of >= ${BATCH_MS} ms per round, median of the rounds`,
      quick: QUICK, partial: PARTIAL, problems,
      settings: { sizes: SIZES, sweepDtypes: SWEEP_DTYPES, sweepN: SWEEP_N, rounds: ROUNDS, batchMs: BATCH_MS, peers: PEERS },
      columns: Object.fromEntries(COLUMNS.map((c) => [c.id, c.desc])),
    });
    return { meta, cases, fresh };
  } finally {
    await page?.close().catch(() => {});
    await browser.close();
  }
}

function logPageCost(where, p) {
  console.log(`${where}: fresh memory: ${pageCostLine([p])}`);
  const w = pageCostWarning(p, where);
  if (w) console.warn(w);
}

const FRESH_IDS = ['new+set', 'slice', 'buffer.slice', 'ctor(view)', 'allocUnsafeSlow+set', 'set (reused)', 'new (untouched)'];
const freshBrief = (row) => FRESH_IDS.filter((id) => row.results[id]).map((id) => `${id} ${fmtUs(row.results[id].median_us)}`).join(', ');

// ---------------------------------------------------------------- Markdown
const med = (r, id) => (r?.results[id]?.status === 'ok' ? r.results[id].median_us : null);
const ratio = (a, b) => (a != null && b != null ? a / b : null);
const cell = (x) => (!x ? '' : x.status !== 'ok' ? x.status : `${fmtUs(x.median_us)} <sub>${fmtUs(x.min_us)}–${fmtUs(x.max_us)}</sub>${x.mismatch ? ' **≠**' : ''}`);

/** The header of a browser's file (a browser in meta) or of Node's fresh-array file. */
function header(meta, title) {
  const rows = meta.browser ? [['browser', meta.browser], ['user agent', meta.userAgent], ['wasm SIMD', meta.simd],
    ['performance.now() step', `${meta.timerStepMs} ms (cross-origin isolated: ${meta.crossOriginIsolated})`], ...Object.entries(meta.peers)]
    : [['process', 'plain `node`, no flags']];
  return headerLines(meta, { title, script: 'browser.mjs', rows: [...rows, ['timing', meta.timing]] });
}

function freshLines(rows) {
  if (!rows.length) return [];
  const ids = FRESH_IDS.filter((id) => rows[0].results[id]);
  const L = ['## A fresh Float32Array from wasm memory', '',
    'What a plain call does with its result, alone: n float32 elements of a tensor\'s memory (`heap` is a',
    'Float32Array over all of wasm memory, `a` the element offset) into an array the caller owns. µs per call, median',
    '<sub>min–max</sub> of the rounds. `set (reused)` is the copy without the allocation; `new (untouched)` the allocation',
    'without the copy, and without the first write to its pages, which the ways above pay for.', '',
    ...ids.map((id) => `- \`${id}\`: ${rows[0].results[id].desc}`), '',
    `| n | ${ids.join(' | ')} |`, `|---:|${ids.map(() => '---:').join('|')}|`];
  for (const r of rows) L.push(`| ${fmtN(r.n)} | ${ids.map((id) => cell({ status: 'ok', ...r.results[id] })).join(' | ')} |`);
  L.push('');
  return L;
}

/** Relu and Max-2 float32 from 1e3 to 4e6 (docs/PERFORMANCE.md's per-engine tables). */
function summaryLines(cases, pageCost) {
  const perPage = pageCost?.length ? Math.min(...pageCost.map((p) => p.us_per_page)) : null;
  const L = ['## Summary: the three call forms', '',
    'µs per call; in brackets onnxruntime-web\'s time / ours (> 1: ours faster), then ours / its floor: the plain',
    'floor for plain calls, the floor with `out` for `{ out }`, the copy limit for zero-copy. "fresh pages": the',
    'result\'s 4 KiB pages at the lower fresh-memory cost this run measured (header): what a fresh result array',
    '(ours, onnxruntime-web\'s, a JS loop\'s) pays on this machine unless the allocator recycles its pages.', '',
    '| workload | n | plain | fresh pages | + `out` | zero-copy | ort-web |', '|---|---:|---:|---:|---:|---:|---:|'];
  for (const w of ['relu', 'max2']) {
    for (const r of cases.filter((c) => c.section === 'sizes' && c.workload === w && c.n >= 1e3 && c.n <= 4e6)) {
      const f = (id, floor) => `${fmtUs(med(r, id))} (${fmtX(ratio(med(r, 'ort-web'), med(r, id)))}, ${fmtX(ratio(med(r, id), med(r, floor)))})`;
      const pages = perPage == null ? 'n/a' : fmtUs(freshPagesUs({ us_per_page: perPage }, r.elements * 4));
      L.push(`| ${r.label} | ${fmtN(r.n)} | ${f('ours', 'floor')} | ${pages} | ${f('ours-out', 'floor-out')} | ${f('ours-zc', 'copy')} | ${fmtUs(med(r, 'ort-web'))} |`);
    }
  }
  const at16 = cases.filter((c) => c.section === 'sizes' && c.n === 16);
  if (at16.length) {
    L.push('', 'Fixed cost per call (n = 16), µs:', '', '| workload | plain | + `out` | zero-copy | ort-web |', '|---|---:|---:|---:|---:|');
    for (const r of at16) L.push(`| ${r.label} | ${fmtUs(med(r, 'ours'))} | ${fmtUs(med(r, 'ours-out'))} | ${fmtUs(med(r, 'ours-zc'))} | ${fmtUs(med(r, 'ort-web'))} |`);
  }
  L.push('');
  return L;
}

function markdown({ meta, cases, fresh }, svgName) {
  const L = header(meta, `onnx-ops-wasm in ${meta.browser}`);
  L.push('Times are µs per call: the median of the rounds <sub>min–max</sub>. "×floor": ours / the plain floor (with `out`:',
    'the floor with `out`; zero-copy: the copy limit). "ort-web / ours": > 1 means ours is faster, for plain / + `out` / zero-copy.',
    '**≠** marks an output that is not bit-identical to ours.', '');
  const mis = cases.flatMap((c) => c.mismatches.map((x) => ({ case: `${c.label} ${c.dtype} n=${c.n}`, ...x })));
  if (mis.length) {
    L.push('## ⚠️ OUTPUT MISMATCHES', '', '| case | column | vs | first index | expected | got | count |', '|---|---|---|---|---|---|---|');
    for (const x of mis) L.push(`| ${x.case} | ${x.column} | ${x.vs} | ${x.index ?? ''} | ${x.expected ?? ''} | ${x.got ?? ''} | ${x.mismatches ?? x.reason} |`);
    L.push('');
  }
  if (meta.problems.length) L.push('## Problems the page reported', '', ...meta.problems.map((p) => `- ${p}`), '');
  L.push(...summaryLines(cases, meta.pageCost));
  const ratios = (r) => [fmtX(ratio(med(r, 'ours'), med(r, 'floor'))), fmtX(ratio(med(r, 'ours-out'), med(r, 'floor-out'))), fmtX(ratio(med(r, 'ours-zc'), med(r, 'copy'))),
    ['ours', 'ours-out', 'ours-zc'].map((id) => fmtX(ratio(med(r, 'ort-web'), med(r, id)))).join(' / ')];
  const table = (title, rows, first) => {
    L.push(`## ${title}`, '', `| ${first} | ${COLUMNS.map((c) => `${c.label} µs`).join(' | ')} | plain ×floor | +out ×floor | zero-copy ×copy | ort-web / ours |`,
      `|---:|${COLUMNS.map(() => '---:').join('|')}|---:|---:|---:|---:|`);
    for (const r of rows) L.push(`| ${first === 'n' ? fmtN(r.n) : r.dtype} | ${COLUMNS.map((c) => cell(r.results[c.id])).join(' | ')} | ${ratios(r).join(' | ')} |`);
    L.push('');
  };
  const groups = new Map();
  for (const c of cases.filter((x) => x.section === 'sizes')) groups.set(c.workload, [...(groups.get(c.workload) ?? []), c]);
  for (const rows of groups.values()) table(`${rows[0].label} (float32)`, rows, 'n');
  for (const w of ['relu', 'max2']) {
    const rows = cases.filter((c) => c.section === 'dtypes' && c.workload === w);
    if (rows.length) table(`${rows[0].label} per dtype, n = ${fmtN(rows[0].n)}`, rows, 'dtype');
  }
  L.push(...freshLines(fresh));
  const notes = new Map();
  for (const c of cases) for (const [id, x] of Object.entries(c.results)) {
    if (x.status !== 'ok' && x.reason) notes.set(`${id}: ${x.reason}`, [...new Set([...(notes.get(`${id}: ${x.reason}`) ?? []), `${c.op === 'relu' ? 'Relu' : 'Max'} ${c.dtype}`])]);
  }
  if (notes.size) L.push('## Notes (n/a and errors)', '', ...[...notes].map(([k, v]) => `- ${k}: ${v.join(', ')}`), '');
  L.push(`![GB/s vs n](${svgName})`, '');
  return L.join('\n');
}

function write(prefix, report, md, svg) {
  writeResults(prefix, report, md, svg);
  console.log(`wrote ${path.relative(process.cwd(), prefix)}.{json,md${svg ? ',svg' : ''}}`);
}

// ---------------------------------------------------------------- main
async function main() {
  for (const [what, dir] of [['onnxruntime-web', ORT_DIST], ['tfjs', TFJS_WASM]]) {
    if (PEERS.includes(what === 'tfjs' ? 'tfjs-wasm' : 'ort-web') && !fs.existsSync(dir)) throw new Error(`${what} is not installed in bench/node_modules: run \`npm --prefix bench ci\``);
  }
  if (!fs.existsSync(path.join(DIST, 'esm', 'index.js'))) throw new Error(`${path.join(DIST, 'esm', 'index.js')} is missing: run \`npm run build\``);
  const server = await serve([
    ['/dist/', DIST], ['/bench/', HERE], ['/tests/portable/', path.join(HERE, '..', 'tests', 'portable')], ['/ort/', ORT_DIST], ['/tfjs-core/', TFJS_CORE], ['/tfjs-wasm/', TFJS_WASM], ['/', path.join(HERE, 'browser')],
  ]);
  let failed = 0;
  try {
    for (const name of ENGINES) {
      const report = await runEngine(name, server);
      const prefix = outPrefix(`browser-${name}`);
      write(prefix, report, markdown(report, path.basename(`${prefix}.svg`)),
        svgChart(report.cases, `${report.meta.browser}, ${report.meta.cpu}, ${report.meta.cores} cores, ${report.meta.date.slice(0, 10)}${PARTIAL ? ', quick run' : ''}`));
      const mis = report.cases.reduce((s, c) => s + c.mismatches.length, 0);
      const errors = report.cases.flatMap((c) => Object.entries(c.results).filter(([, x]) => x.status === 'error').map(([id, x]) => `${c.label} ${c.dtype} n=${c.n} ${id}: ${x.reason}`));
      for (const p of report.meta.problems) console.warn(`!!!!!!!! ${name}: the page reported: ${p}`);
      for (const e of errors) console.warn(`!!!!!!!! ${name}: error: ${e}`);
      if (mis) console.warn(`!!!!!!!! ${name}: ${mis} OUTPUT MISMATCH(ES)`);
      failed += mis + errors.length + report.meta.problems.length;
    }
  } finally {
    await server.close();
  }
  if (FRESH) {
    // The same fresh-array ways in this process: Node as users run it.
    const start = machine();
    const pageCost = [{ at: 'start', ...await measurePageCost() }];
    logPageCost('node', pageCost[0]);
    const { createOps } = await import(pathToFileURL(path.join(DIST, 'esm', 'index.js')).href);
    const fresh = await runFresh(await createOps(), { sizes: FRESH_AT, rounds: FRESH_ROUNDS, batchMs: BATCH_MS });
    for (const row of fresh) console.log(`node fresh array n=${fmtN(row.n)}: ${freshBrief(row)}`);
    const meta = finishMachine({ ...start, pageCost, quick: QUICK, partial: PARTIAL,
      timing: `interleaved: ${FRESH_ROUNDS} rounds, each way one batch of >= ${BATCH_MS} ms per round, median of the rounds` });
    write(outPrefix('fresh-node'), { meta, fresh }, [...header(meta, `A fresh result array in Node ${process.version}`), ...freshLines(fresh)].join('\n'));
  }
  if (failed) {
    console.error(`\n${failed} problem(s): see above`);
    process.exitCode = 1;
  }
}

await main();
