/**
 * The portable conformance suite: one set of cases that runs in every engine
 * (Jest in Node via tests/js/portable.test.ts; Node 20-26, Deno, Bun and the
 * browsers, pages and workers, via tests/engines/). It uses nothing but the
 * library's module namespace and the Env its runner hands in.
 */
import { type Case, type Env, type Form, type Lib, type Ops, closeOps, eq } from './harness';
import { specCases } from './cases/spec';
import { conformanceCases } from './cases/conformance';
import { propertyCases } from './cases/property';
import { errorCases } from './cases/errors';
import { zeroCopyCases } from './cases/zero-copy';
import { hostileCases } from './cases/hostile';
import { runtimeCases } from './cases/runtime';
import { workerCases } from './cases/worker';

export type { Case, Env, Features, Lib } from './harness';
export { detectFeatures } from './cases/runtime';

/**
 * Every case, in order; they share one instance of the library (created on
 * first use). With env.backend, every createOps() of the suite asks for that
 * backend; with env.form 'worker', for the worker form; with
 * env.expectBackend, the first case checks which backend createOps() chose
 * by itself.
 */
export function suiteCases(original: Lib, env: Env): Case[] {
  const form = env.form ?? 'sync';
  const lib = forcing(original, { ...(env.backend ? { backend: env.backend } : {}), ...(form === 'worker' ? { worker: true } : {}) }, form);
  let shared: Promise<Ops> | undefined;
  const ops = () => (shared ??= lib.createOps() as Promise<never>);
  const chosen: Case[] = env.expectBackend === undefined ? [] : [{
    name: `runtime: createOps() with no option chooses the ${env.expectBackend} backend here`,
    run: async () => {
      const o = (await lib.createOps()) as unknown as Ops;
      const got = o.backend;
      if (got !== env.expectBackend) throw new Error(`createOps() chose ${got}, expected ${env.expectBackend}`);
      const r = await o.relu({ dtype: 'float32', shape: [3], data: new Float32Array([-1, 0, 2]) });
      if (Array.from(r.data as Float32Array).join() !== '0,0,2') throw new Error(`Relu gave ${Array.from(r.data as Float32Array)}`);
      await closeOps(o);
    },
  }];
  return [
    ...chosen,
    { name: `runtime: createOps() gives the ${form} form`, run: async () => {
      const o = await ops();
      eq(o.worker === true, form === 'worker', 'ops.worker');
      const r = o.max([new Float32Array([1])]);
      eq(typeof r.then === 'function', form === 'worker', 'an op returns a promise');
      eq(Array.from((await r).data as Float32Array), [1], 'its result');
    } },
    ...runtimeCases(lib, ops, env),
    ...specCases(lib, ops),
    ...conformanceCases(lib, ops, env),
    ...errorCases(lib, ops, env),
    ...zeroCopyCases(lib, ops),
    ...hostileCases(lib, ops, env),
    ...propertyCases(lib, ops),
    ...(form === 'worker' ? workerCases(lib, ops, env) : []),
  ];
}

/**
 * The library with these options in every createOps() (options that are no
 * object are passed on as they are), and the form it gives (harness.ts's formOf).
 */
function forcing(lib: Lib, forced: object, form: Form): Lib {
  const createOps = (options?: unknown) => lib.createOps((options === undefined ? { ...forced }
    : options !== null && typeof options === 'object' ? { ...forced, ...options } : options) as never);
  return { ...lib, createOps, suiteForm: form } as unknown as Lib;
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
