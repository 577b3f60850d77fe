// The bench's one runner: suites × engines. Each suite is one script that
// runs the engines it supports (Node, or pages in Chromium, Firefox and WebKit
// through tests/browsers/drivers.mjs) and writes its results files; this runs
// each chosen suite once, for the chosen engines it has, one after another.
//
//   node bench/bench.mjs [--suites=sizes,worker,backends,shapes] [--engines=node,chromium,firefox,webkit] [--quick]
//
// Defaults: the suites sizes, worker and backends on node (`npm run bench`);
// `npm run bench:browser` is sizes and worker on the three browsers. A suite's
// own options are its script's (bench/README.md); run the script for them.

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cliOption } from './common.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const BROWSERS = ['chromium', 'firefox', 'webkit'];

/** Per suite: the engines it runs on, and the script runs for a list of them ([script, ...args] each). */
const SUITES = {
  sizes: {
    engines: ['node', ...BROWSERS],
    runs: (engines, quick) => [
      ...(engines.includes('node') ? [['run.mjs', ...quick]] : []),
      ...(engines.some((e) => e !== 'node') ? [['browser.mjs', `--browsers=${engines.filter((e) => e !== 'node')}`, ...quick]] : []),
    ],
  },
  worker: { engines: ['node', ...BROWSERS], runs: (engines, quick) => [['worker.mjs', `--browsers=${engines}`, ...quick]] },
  backends: { engines: ['node'], runs: (engines, quick) => [['backends.mjs', ...quick]] },
  shapes: {
    engines: ['node'],
    runs: (engines, quick) => [['shapes.mjs', ...(quick.length ? ['--cs=8', '--dtypes=float32', `--out=${path.join(HERE, 'results', 'quick-shapes')}`] : [])]],
  },
};

const argv = process.argv.slice(2);
// The last --name=... counts, so that `npm run bench:browser -- --engines=firefox` overrides the script's.
const list = (name, dflt) => String(cliOption(argv.slice().reverse(), name, dflt)).split(',').filter(Boolean);
const suites = list('suites', 'sizes,worker,backends');
const engines = list('engines', 'node');
const quick = cliOption(argv, 'quick', false) ? ['--quick'] : [];
for (const s of suites) if (!SUITES[s]) throw new Error(`unknown suite ${s} (suites: ${Object.keys(SUITES).join(', ')})`);
for (const e of engines) if (!SUITES.sizes.engines.includes(e)) throw new Error(`unknown engine ${e} (engines: ${SUITES.sizes.engines.join(', ')})`);

const failed = [];
for (const s of suites) {
  const on = engines.filter((e) => SUITES[s].engines.includes(e));
  if (!on.length) { console.log(`\n== ${s}: runs on ${SUITES[s].engines.join(', ')} only, not on ${engines.join(', ')}`); continue; }
  for (const [script, ...args] of SUITES[s].runs(on, quick)) {
    console.log(`\n== ${s} on ${on.join(', ')}: node bench/${script} ${args.join(' ')}`);
    const r = spawnSync(process.execPath, [path.join(HERE, script), ...args], { stdio: 'inherit' });
    if (r.status !== 0) failed.push(`${script} ${args.join(' ')} (exit ${r.status ?? r.signal})`);
  }
}
if (failed.length) {
  console.error(`\n${failed.length} suite run(s) failed: ${failed.join('; ')}`);
  process.exitCode = 1;
}
