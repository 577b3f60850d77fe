// The portable suite (tests/portable/) in every engine users run, from the
// packed tarball installed into a throwaway consumer project as a user would:
// Node 20, 22, 24 and 26 (import and require), Deno, Bun, and Chromium,
// Firefox and WebKit (a page and a module worker each); and through the
// library's worker form, createOps({ worker: true }), in each of them.
//
//   npm run build && node tests/engines/run.mjs [engine ...]
//
// Engine names: node20 node20-wasm node20-js node20-nosimd node20-jitless node20-js-entry
// node22 node24 node26 deno bun node20-worker-form node20-jitless-worker-form node22-worker-form
// node24-worker-form node26-worker-form deno-worker-form bun-worker-form
// chromium firefox webkit wpe chromium-plain chromium-csp
// (default: all; tests/engines/engines.mjs says what each is). Needs `npm ci --prefix tests/engines` and the Debian
// browsers (scripts/setup.sh installs both). An engine that cannot start is a
// failure. Prints `N passed, M failed` per engine and form, then the total,
// and writes test-artifacts/engines/results.json; exits 1 on any failure.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { BROWSERS, RUNTIMES } from './engines.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONFORMANCE = join(ROOT, '..', 'shared', 'conformance', 'onnx-backend-node.json');
const ARTIFACTS = join(ROOT, 'test-artifacts', 'engines');
const run = promisify(execFile);
const wanted = new Set(process.argv.slice(2));
const selected = (name) => wanted.size === 0 || wanted.has(name);
for (const w of wanted) {
  if (!RUNTIMES.some((r) => r.name === w) && !(w in BROWSERS)) throw new Error(`engines: unknown engine ${w}`);
}

async function sh(cmd, args, options = {}) {
  try {
    return await run(cmd, args, { maxBuffer: 64 << 20, timeout: 10 * 60_000, ...options });
  } catch (e) {
    const err = new Error(`${cmd} ${args.join(' ')} failed (${e.code ?? e.signal}):\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    err.stdout = e.stdout;
    throw err;
  }
}

/** The consumer project: the tarball installed offline, the suite bundle, its runner and the conformance cases. */
async function makeConsumer() {
  const tmp = mkdtempSync(join(tmpdir(), 'onnx-ops-engines-'));
  const { stdout } = await sh('npm', ['pack', '--json', '--pack-destination', tmp], { cwd: ROOT });
  const tarball = join(tmp, JSON.parse(stdout)[0].filename);
  const dir = join(tmp, 'consumer');
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, type: 'module' }));
  await sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', tarball], { cwd: dir });
  await build({
    entryPoints: [join(ROOT, 'tests', 'portable', 'suite.ts')], bundle: true, format: 'esm', target: 'es2022',
    platform: 'neutral', outfile: join(dir, 'suite.mjs'), logLevel: 'warning',
  });
  copyFileSync(join(ROOT, 'tests', 'engines', 'run-suite.mjs'), join(dir, 'run-suite.mjs'));
  copyFileSync(CONFORMANCE, join(dir, 'conformance.json'));
  return { tmp, dir };
}

/** Reads a runner's report: its last JSON line. */
function reportOf(stdout) {
  const line = stdout.split('\n').reverse().find((l) => l.startsWith('{"engine"'));
  if (!line) throw new Error(`no report in the output:\n${stdout}`);
  return JSON.parse(line);
}

async function runRuntime(rt, form, dir) {
  const [cmd, ...pre] = rt.command;
  // The 4 GiB OUT_OF_MEMORY case once per runtime, and in one worker-form run: it costs seconds of page faults.
  const env = {
    engine: `${rt.name}-${form}`, expect: rt.expect, bigMemory: form === 'esm' && (rt.bigMemory ?? !rt.worker), backend: rt.backend, expectBackend: rt.expectBackend,
    form: rt.worker ? 'worker' : 'sync',
  };
  const { stdout: v } = await sh(cmd, ['--version']);
  const version = `${rt.name.replace(/\d+$/, '')} ${v.trim().split('\n')[0].replace(/^(deno|v)\s*/i, '').replace(/ \(.*$/, '')}`;
  try {
    const { stdout } = await sh(cmd, [...pre, 'run-suite.mjs', JSON.stringify(env), form], { cwd: dir });
    return { ...reportOf(stdout), version };
  } catch (e) {
    if (e.stdout?.includes('{"engine"')) return { ...reportOf(e.stdout), version };
    return { engine: env.engine, version, passed: 0, failed: 1, failures: [{ name: 'the engine ran the suite', message: e.message }] };
  }
}

/** Runs `jobs` (functions returning promises) at most `limit` at a time, in order. */
async function pool(jobs, limit) {
  const results = new Array(jobs.length);
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => {
    while (next < jobs.length) {
      const i = next++;
      results[i] = await jobs[i]();
    }
  }));
  return results;
}

const started = Date.now();
const { tmp, dir } = await makeConsumer();
const reports = [];
const print = (r) => {
  for (const f of r.failures) console.log(`  FAIL [${r.engine}] ${f.name}\n    ${f.message.split('\n').join('\n    ')}`);
  console.log(`${r.engine} (${r.version}): ${r.passed} passed, ${r.failed} failed (${((r.milliseconds ?? 0) / 1000).toFixed(1)} s)`);
};
try {
  const jobs = RUNTIMES.filter((rt) => selected(rt.name)).flatMap((rt) => rt.forms.map((form) => async () => {
    const r = await runRuntime(rt, form, dir);
    print(r);
    return r;
  }));
  reports.push(...await pool(jobs, 2));
  const browsers = Object.keys(BROWSERS).filter(selected);
  if (browsers.length) {
    const { runInBrowser } = await import('./browsers.mjs');
    for (const name of browsers) {
      for (const r of await runInBrowser(name, dir, BROWSERS[name])) {
        print(r);
        reports.push(r);
      }
    }
  }
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
mkdirSync(ARTIFACTS, { recursive: true });
writeFileSync(join(ARTIFACTS, 'results.json'), JSON.stringify(reports.map(({ failures, ...r }) => ({ ...r, failures: failures.map((f) => f.name) })), null, 2) + '\n');
const passed = reports.reduce((s, r) => s + r.passed, 0);
const failed = reports.reduce((s, r) => s + r.failed, 0);
const bad = reports.filter((r) => r.failed || !r.passed).map((r) => r.engine);
console.log(`engines: ${reports.length} runs in ${((Date.now() - started) / 1000).toFixed(0)} s${bad.length ? `; failed: ${bad.join(', ')}` : ''}`);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed || bad.length ? 1 : 0;

