/**
 * The portable conformance suite: one set of cases that runs in every engine
 * (Jest in Node via tests/js/portable.test.ts; Node 20-26, Deno, Bun and the
 * browsers, pages and workers, via tests/engines/). It uses nothing but the
 * library's module namespace and the Env its runner hands in.
 */
import type { Case, Env, Lib, Ops } from './harness';
import { specCases } from './cases/spec';
import { conformanceCases } from './cases/conformance';
import { propertyCases } from './cases/property';
import { errorCases } from './cases/errors';
import { zeroCopyCases } from './cases/zero-copy';
import { hostileCases } from './cases/hostile';
import { runtimeCases } from './cases/runtime';

export type { Case, Env, Features, Lib } from './harness';
export { detectFeatures } from './cases/runtime';

/** Every case, in order; they share one instance of the library (created on first use). */
export function suiteCases(lib: Lib, env: Env): Case[] {
  let shared: Promise<Ops> | undefined;
  const ops = () => (shared ??= lib.createOps());
  return [
    ...runtimeCases(lib, ops, env),
    ...specCases(lib, ops),
    ...conformanceCases(lib, ops, env),
    ...errorCases(lib, ops, env),
    ...zeroCopyCases(lib, ops),
    ...hostileCases(lib, ops, env),
    ...propertyCases(lib, ops),
  ];
}

export interface Report {
  engine: string;
  passed: number;
  failed: number;
  failures: { name: string; message: string }[];
  milliseconds: number;
}

/** Runs every case and reports; a case that throws (anything) has failed. */
export async function runSuite(lib: Lib, env: Env): Promise<Report> {
  const start = Date.now();
  const report: Report = { engine: env.engine, passed: 0, failed: 0, failures: [], milliseconds: 0 };
  for (const c of suiteCases(lib, env)) {
    try {
      await c.run();
      report.passed++;
    } catch (e) {
      report.failed++;
      report.failures.push({ name: c.name, message: e instanceof Error ? `${e.name}: ${e.message}` : String(e) });
    }
  }
  report.milliseconds = Date.now() - start;
  return report;
}
