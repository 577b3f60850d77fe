// The tables of README.md's "Performance" and docs/PERFORMANCE.md's "Current
// results", printed from the results files (results/latest.json and
// results/browser-<engine>.json), so that no figure there is typed by hand.
//
//   node bench/summary.mjs            both, as Markdown
//   node bench/summary.mjs --readme   README.md's table only (--engines: PERFORMANCE.md's only)
//
// Ratios come from one run each; a plain call's time is given beside the fresh
// pages of its result at the price that run measured (bench/README.md,
// "Fresh memory"), since on a machine with dear fresh memory they set it.

import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { fmtN, fmtUs, fmtX } from './report.mjs';
import { freshPagesUs } from './page-cost.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const RESULTS = path.join(HERE, 'results');

const read = (name) => {
  const f = path.join(RESULTS, name);
  return fs.existsSync(f) ? JSON.parse(fs.readFileSync(f, 'utf8')) : null;
};

/** [{ name, short, meta, cases }] for Node's latest run and each browser's. */
export function runs() {
  const out = [];
  const node = read('latest.json');
  if (node) out.push({ name: `Node ${node.meta.node.replace(/^v/, '')}`, short: `Node ${node.meta.node.replace(/^v(\d+).*/, '$1')}`, file: 'latest.md', meta: node.meta, cases: node.cases });
  for (const e of ['chromium', 'firefox', 'webkit']) {
    const r = read(`browser-${e}.json`);
    if (!r) continue;
    const short = r.meta.browser.match(e === 'webkit' ? /^\S+ \d+\.\d+/ : /^\S+ \d+/)[0]; // WebKitGTK 2.50, Chromium 156
    out.push({ name: r.meta.browser, short, file: `browser-${e}.md`, meta: r.meta, cases: r.cases });
  }
  return out;
}

const med = (c, id) => (c?.results[id]?.status === 'ok' ? c.results[id].median_us : null);
const ratio = (a, b) => (a != null && b != null ? a / b : null);
const find = (run, workload, n) => run.cases.find((c) => c.section === 'sizes' && c.workload === workload && c.n === n);
/** The lower of a run's fresh-page measurements (µs per 4 KiB page), or null before runs recorded it. */
const pageUs = (run) => (run.meta.pageCost?.length ? Math.min(...run.meta.pageCost.map((p) => p.us_per_page)) : null);
const fmtPage = (x) => (x == null ? 'not recorded' : x >= 10 ? x.toFixed(0) : x >= 1 ? x.toFixed(1) : x.toFixed(2));
// Results under one page come from the allocators' small pools (or V8's heap): no column for them.
const freshCell = (run, c) => {
  const p = pageUs(run);
  return p == null ? 'n/a' : c.elements * 4 < 4096 ? '–' : ru(freshPagesUs({ us_per_page: p }, c.elements * 4));
};

// README.md's figures, rounded to what a reader compares: 2-3 significant digits.
const rx = (x) => (x == null || !isFinite(x) ? 'n/a' : x >= 10 ? `${Math.round(x)}×` : `${x.toFixed(x >= 2 ? 1 : 2)}×`);
const ru = (us) => (us == null ? 'n/a' : us >= 1000 ? Math.round(us).toLocaleString('en-US') : us >= 10 ? us.toFixed(0) : us >= 1 ? us.toFixed(1) : us.toFixed(us >= 0.1 ? 2 : 3));

/** README.md's table: what the library controls, as ratios within each run; a plain call's time beside its result's fresh pages. */
export function readmeTable(all = runs()) {
  const L = ['| 1e6 | zero-copy ×copy | `out` ×copy | ort-web ÷ zero-copy · `out` | n = 16, µs: zero-copy · plain · ort-web | plain µs · its fresh pages µs |',
    '| --- | ---: | ---: | ---: | ---: | ---: |'];
  for (const run of all) {
    for (const [w, label] of [['relu', 'Relu'], ['max2', 'Max-2']]) {
      const c = find(run, w, 1e6), s = find(run, w, 16);
      if (!c) continue;
      const p = pageUs(run);
      L.push(`| ${run.short.split(' ')[0]} ${label} | ${rx(ratio(med(c, 'ours-zc'), med(c, 'copy')))} | ${rx(ratio(med(c, 'ours-out'), med(c, 'copy')))} | `
        + `${rx(ratio(med(c, 'ort-web'), med(c, 'ours-zc')))} · ${rx(ratio(med(c, 'ort-web'), med(c, 'ours-out')))} | `
        + `${s ? [med(s, 'ours-zc'), med(s, 'ours'), med(s, 'ort-web')].map(ru).join(' · ') : 'n/a'} | `
        + `${ru(med(c, 'ours'))} · ${p == null ? 'n/a' : ru(freshPagesUs({ us_per_page: p }, c.elements * 4))} |`);
    }
  }
  return L;
}

/** One table per engine for docs/PERFORMANCE.md. */
export function engineTables(all = runs()) {
  const L = [];
  for (const run of all) {
    const m = run.meta;
    const pc = m.pageCost?.length ? m.pageCost.map((p) => `${p.at} ${fmtPage(p.us_per_page)}`).join(', ') + ' µs' : 'not recorded (run before the page-cost record)';
    L.push(`**${run.name}** ([\`${run.file}\`](../bench/results/${run.file}); ${m.date.slice(0, 16).replace('T', ' ')} UTC, `
      + `load average ${m.loadavgStart?.[0]}-${m.loadavgEnd?.[0]}; a fresh 4 KiB page: ${pc})`, '',
    '| workload | n | zero-copy µs (×copy) | `out` µs (×floor) | plain µs (×floor) | fresh pages µs | ort-web µs | ort-web ÷ zero-copy · `out` · plain |',
    '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |');
    // the other Max workloads at 1e6 in Node's table only (the browser files have them all)
    const rows = [['relu', [16, 1e5, 1e6, 4e6]], ['max2', [16, 1e5, 1e6, 4e6]], ...(run.file === 'latest.md' ? [['max3', [1e6]], ['max-bcast', [1e6]], ['max-scalar', [1e6]]] : [])];
    for (const [w, sizes] of rows) {
      for (const n of sizes) {
        const c = find(run, w, n);
        if (!c) continue;
        const x = (id, floor) => `${fmtUs(med(c, id))} (${fmtX(ratio(med(c, id), med(c, floor)))})`;
        L.push(`| ${c.label} | ${fmtN(n)} | ${x('ours-zc', 'copy')} | ${x('ours-out', 'floor-out')} | ${x('ours', 'floor')} | ${freshCell(run, c)} | ${fmtUs(med(c, 'ort-web'))} | `
          + `${['ours-zc', 'ours-out', 'ours'].map((id) => fmtX(ratio(med(c, 'ort-web'), med(c, id)))).join(' · ')} |`);
      }
    }
    L.push('');
  }
  return L;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const all = runs();
  const only = (f) => process.argv.includes(f);
  if (!only('--engines')) console.log(readmeTable(all).join('\n'));
  if (!only('--readme')) console.log(['', ...engineTables(all)].join('\n'));
}
