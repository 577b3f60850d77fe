// The packed package built by Bun's bundler (issue 48), as docs/API.md says:
// `bun build` for the browser (its page run in headless Chromium under the
// package tests' strict CSP) and `bun build --compile` (the executable run
// from another folder). Bun 1.4 neither bundles nor emits the file of
// `new Worker(new URL(...))`, so the worker form needs the worker file as a
// second entry point, flat beside the app's (--entry-naming '[name].[ext]'):
// with that one line, every form exact on the fastest backend (wasm-simd);
// without it, the sync form and both fallbacks exact and the worker form a
// typed UNSUPPORTED_ENGINE naming the missing file.
//
//   npm run build && node --test tests/deploy/bun.mjs     (17 s here, 2 cores shared with other builds)
//
// Bun is tests/engines' (npm `bun`); the apps install nothing but the tarball.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CSP, ROOT, TMP, consumer, html, openPage, resultOrFailure, run, start, stop } from '../package/consumers.mjs';
import { serve } from '../support/static-server.mjs';
import { APP_MODULE, MODULE, assertExact } from './exact.mjs';

const ENGINES = join(ROOT, 'tests', 'engines', 'node_modules');
/** Bun's postinstall moves its binary over bun/bin/bun.exe; before it, the binary is in the platform package. */
const BUN = ['bun/bin/bun.exe', '@oven/bun-linux-x64/bin/bun'].map((p) => join(ENGINES, p))
  .find((p) => existsSync(p) && statSync(p).size > 1 << 20);

before(start);
after(stop);

const WORKER = './node_modules/onnx-ops-wasm/dist/esm/onnx-ops-wasm-worker.js';
/** docs/API.md's line, after the app's own arguments: the worker file as a second entry, named as it is. */
const DOCUMENTED = [WORKER, '--entry-naming', '[name].[ext]'];

/** The worker form on each backend (FORMS' last three), refused with the error matching `pattern`. */
const workerRefused = (pattern) => ({ 3: pattern, 4: pattern, 5: pattern });

async function bun(args, cwd) {
  const t = performance.now();
  try {
    const { stdout, stderr } = await run(BUN, args, { cwd, env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 << 20 });
    console.log(`# bun ${args.join(' ')}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    return stdout + stderr;
  } catch (e) {
    throw new Error(`bun ${args.join(' ')} (in ${cwd}) failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

test('Bun is installed (tests/engines)', () => assert.ok(BUN, `no Bun binary under ${ENGINES}: npm ci --prefix tests/engines`));

test('`bun build` for the browser, in Chromium under the CSP: without the documented line, the worker form a typed error naming its missing file; with it, every form exact on wasm-simd', async () => {
  const dir = await consumer('bun-browser-app', { type: 'module' }, { 'src/exact.js': MODULE, 'src/index.js': APP_MODULE, 'index.html': html('./dist/index.js') });
  const both = await Promise.all([
    bun(['build', './src/index.js', '--outdir', 'plain'], dir),
    bun(['build', './src/index.js', ...DOCUMENTED, '--outdir', 'dist'], dir),
  ]);
  for (const out of both) assert.doesNotMatch(out, /warn|error/i, out);
  // The same page at /plain/, its ./dist/ being the bundle built without the line.
  const server = await serve([['/plain/dist/', join(dir, 'plain')], ['/plain/', dir], ['/', dir]], () => ({ 'Content-Security-Policy': CSP }));
  try {
    const plain = await openPage(`${server.url}/plain/`, resultOrFailure, { allowProblems: true });
    await assertExact(plain.value, 'bun build, no line', {
      refused: workerRefused(/^true UNSUPPORTED_ENGINE createOps: could not start the worker from onnx-ops-wasm-worker\.js: the worker failed to load/),
    });
    assert.ok(plain.problems.length > 0 && plain.problems.every((p) => /onnx-ops-wasm-worker\.js|404/.test(p)), plain.problems.join('\n'));
    const { value, workers } = await openPage(`${server.url}/`, resultOrFailure);
    await assertExact(value, 'bun build with the documented line');
    assert.ok(workers.length > 0 && workers.every((u) => u === `${server.url}/dist/onnx-ops-wasm-worker.js`), `workers: ${workers.join(', ')}`);
  } finally {
    await server.close();
  }
});

test('`bun build --compile`, run from another folder: without the documented line, the worker form a typed error naming the file it lacks; with it, every form exact on wasm-simd', async () => {
  const dir = await consumer('bun-compile-app', { type: 'module' }, { 'exact.js': MODULE, 'app.js': APP_MODULE });
  await Promise.all([
    bun(['build', '--compile', './app.js', '--outfile', 'plain'], dir),
    bun(['build', '--compile', './app.js', ...DOCUMENTED, '--outfile', 'app'], dir),
  ]);
  // Elsewhere, beside nothing: the executables must need no file of the project's.
  const away = join(TMP, 'bun-compile-elsewhere');
  mkdirSync(away);
  for (const exe of ['plain', 'app']) cpSync(join(dir, exe), join(away, exe));
  const [plain, app] = await Promise.all(['plain', 'app'].map(async (exe) => {
    const { stdout } = await run(join(away, exe), [], { cwd: away, maxBuffer: 16 << 20 });
    return JSON.parse(stdout);
  }));
  await assertExact(plain, 'bun build --compile, no line', {
    refused: workerRefused(/^true UNSUPPORTED_ENGINE createOps: could not start the worker from onnx-ops-wasm-worker\.js: the worker failed: Cannot find module '\/\$bunfs\/root\/onnx-ops-wasm-worker\.js'/),
  });
  await assertExact(app, 'bun build --compile with the documented line');
});
