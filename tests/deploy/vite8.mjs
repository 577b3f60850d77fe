// The packed package in an app built by Vite 8 (Rolldown) with no
// configuration (issue 48): `vite build`, as a new user runs it, and the built
// page in headless Chromium under the package tests' strict CSP. The sync
// form on each backend (the default wasm-simd, forced 'wasm' and 'js') and
// the worker form on each, exact; the worker form's worker from the file Vite
// emitted for it. (tests/package/bundlers.mjs checks Vite 7, the root's.)
//
//   npm run build && node --test tests/deploy/vite8.mjs     (14 s here, 2 cores shared with other builds)
//
// Vite 8 is tests/vite8's (its own package.json, apart from the root's Vite 7).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CSP, ROOT, consumer, html, openPage, resultOrFailure, run, start, stop } from '../package/consumers.mjs';
import { serve } from '../support/static-server.mjs';
import { APP_MODULE, MODULE, assertExact } from './exact.mjs';

const VITE = join(ROOT, 'tests', 'vite8', 'node_modules', 'vite', 'bin', 'vite.js');

before(start);
after(stop);

test('Vite 8: `vite build` with no configuration, no warning; in Chromium under the CSP, the sync form on each backend and the worker form on each, exact', async () => {
  assert.ok(existsSync(VITE), `no Vite 8 at ${VITE}: npm ci --prefix tests/vite8`);
  const { stdout: version } = await run(process.execPath, [VITE, '--version']);
  assert.match(version, /^vite\/8\./, 'tests/vite8 has not Vite 8');
  const dir = await consumer('vite8-app', { type: 'module' }, { 'src/exact.js': MODULE, 'src/index.js': APP_MODULE, 'index.html': html('/src/index.js') });
  const t = performance.now();
  let out;
  try {
    const { stdout, stderr } = await run(process.execPath, [VITE, 'build'], { cwd: dir, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
    out = stdout + stderr;
  } catch (e) {
    assert.fail(`vite build failed:\n${e.stdout}${e.stderr}`);
  }
  console.log(`# vite build: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  assert.match(out, /built in/, out);
  assert.doesNotMatch(out, /warn|error|\(!\)/i, out);
  const assets = readdirSync(join(dir, 'dist', 'assets'));
  assert.ok(assets.some((f) => /^onnx-ops-wasm-worker-[\w-]+\.js$/.test(f)), `no worker file among the assets: ${assets.join(', ')}`);
  const server = await serve([['/', join(dir, 'dist')]], () => ({ 'Content-Security-Policy': CSP }));
  try {
    const { value, workers } = await openPage(`${server.url}/`, resultOrFailure);
    await assertExact(value, 'vite build');
    assert.ok(workers.length > 0 && workers.every((u) => /^\/assets\/onnx-ops-wasm-worker-[\w-]+\.js$/.test(new URL(u).pathname)), `workers: ${workers.join(', ')}`);
  } finally {
    await server.close();
  }
});
