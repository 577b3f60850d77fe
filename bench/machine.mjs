// The one machine header and the one writer of every results file the bench
// scripts write (Node only): what ran where, how busy the machine was, what a
// fresh page cost, then the tables; results/<name>.{json,md,svg}.

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuModel } from './timing.mjs';
import { pageCostCell } from './page-cost.mjs';

const loadavg = () => os.loadavg().map((x) => +x.toFixed(2));

/** The machine at the start of a run: date, CPU, cores, memory, platform, Node and V8, load average. */
export function machine() {
  return {
    date: new Date().toISOString(), cpu: cpuModel(), cores: os.cpus().length,
    memoryGiB: +(os.totalmem() / 2 ** 30).toFixed(1), platform: `${os.platform()} ${os.release()} ${os.arch()}`,
    node: process.version, v8: process.versions.v8, loadavgStart: loadavg(), started: performance.now(),
  };
}

/** Closes a run's meta: the load average at the end and the run time. */
export function finishMachine(meta) {
  meta.loadavgEnd = loadavg();
  meta.elapsed_s = +((performance.now() - meta.started) / 1000).toFixed(1);
  delete meta.started;
  return meta;
}

/**
 * A results file's title and header table: `script` wrote it; `rows` are
 * [name, value] pairs of what the run was (engine, peers, settings) between
 * the machine and its load; `pageCost` one measurement or a list of them.
 */
export function headerLines(meta, { title, script, rows = [], pageCost = meta.pageCost }) {
  const busy = Math.max(meta.loadavgStart?.[0] ?? 0, meta.loadavgEnd?.[0] ?? 0) > meta.cores * 0.75;
  const run = meta.quick ? '**Quick run.** ' : meta.partial ? '**Partial run.** ' : '';
  return [`# ${title}`, '', `${run}Written by \`bench/${script}\`; see bench/README.md.`, '', '| | |', '|---|---|',
    `| date | ${meta.date} |`,
    `| machine | ${meta.cpu}, ${meta.cores} cores, ${meta.memoryGiB} GiB, ${meta.platform} |`,
    `| driver / Node | ${meta.node} (V8 ${meta.v8}) |`,
    ...rows.filter(([, v]) => v !== undefined && v !== null).map(([k, v]) => `| ${k} | ${v} |`),
    ...(pageCost ? [`| fresh memory | ${pageCostCell([pageCost].flat())} |`] : []),
    `| load average (1/5/15 min) | start ${meta.loadavgStart.join(' / ')}, end ${meta.loadavgEnd.join(' / ')}${busy ? ' — **machine was busy: numbers are noisy**' : ''} |`,
    `| run time | ${meta.elapsed_s} s |`, ''];
}

/** Writes prefix.json (the report) and, if given, prefix.md and prefix.svg. */
export function writeResults(prefix, report, md, svg) {
  fs.mkdirSync(path.dirname(prefix), { recursive: true });
  fs.writeFileSync(`${prefix}.json`, `${JSON.stringify(report, null, 1)}\n`);
  if (md) fs.writeFileSync(`${prefix}.md`, md.endsWith('\n') ? md : `${md}\n`);
  if (svg) fs.writeFileSync(`${prefix}.svg`, svg);
}
