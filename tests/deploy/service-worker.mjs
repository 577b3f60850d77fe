// The packed package in a module service worker in headless Chromium, under
// the package tests' strict CSP (issue 48): bundled by esbuild's defaults
// (`--bundle --format=esm`, which inlines the library's import()s), with
// `--splitting` (chunks loaded by import()), and unbundled (the worker's own
// `import` of dist/esm/index.js). Bundled into one file: the
// default createOps() and both forced fallbacks exact, the default on
// wasm-simd. Split or unbundled: the default exact on wasm-simd (its files
// are static imports); the fallbacks, each a file the library loads by import(), which
// the HTML standard forbids in service workers, a typed UNSUPPORTED_ENGINE
// naming that rule and onnx-ops-wasm/js. Both: the worker form refused
// (typed: a service worker has no Worker), and onnx-ops-wasm/js exact.
//
//   npm run build && node --test tests/deploy/service-worker.mjs     (15 s here, 2 cores shared with other builds)
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CSP, consumer, html, openPage, resultOrFailure, start, stop } from '../package/consumers.mjs';
import { serve } from '../support/static-server.mjs';
import { MODULE, assertExact } from './exact.mjs';

before(start);
after(stop);

/** The forms the service worker runs exact() on: the main entry's sync form on each backend, its worker form, then onnx-ops-wasm/js. */
const SW_FORMS = [undefined, { backend: 'wasm' }, { backend: 'js' }, { worker: true }];
const serviceWorker = (main, jsEntry) => `import * as lib from ${JSON.stringify(main)};
import * as jsEntry from ${JSON.stringify(jsEntry)};
import { exact } from './exact.js';
self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('message', (event) => {
  const forms = ${JSON.stringify(SW_FORMS.map((o) => o ?? null))};
  Promise.all([...forms.map((o) => exact(lib, o ?? undefined)), exact(jsEntry)]).then((r) => event.ports[0].postMessage(r));
});
`;
// The page: registers ./sw.js as a module service worker, waits until it is active, and asks it for its results.
const page = `const registration = await navigator.serviceWorker.register('./sw.js', { type: 'module' });
const sw = registration.installing || registration.waiting || registration.active;
await new Promise((resolve) => {
  if (sw.state === 'activated') resolve();
  sw.addEventListener('statechange', () => sw.state === 'activated' && resolve());
});
const channel = new MessageChannel();
const reply = new Promise((resolve) => { channel.port1.onmessage = (e) => resolve(e.data); });
sw.postMessage(null, [channel.port2]);
reply.then((r) => { window.result = r; }, (e) => { window.failure = String(e && e.stack || e); });
`;

/** assertExact()'s options for the service worker's reply (SW_FORMS, then onnx-ops-wasm/js); `refused` as assertExact()'s. */
const reply = (refused) => ({ forms: [...SW_FORMS, 'onnx-ops-wasm/js'], backends: ['wasm-simd', 'wasm', 'js', 'wasm-simd', 'js'], refused });

const noWorker = /^true UNSUPPORTED_ENGINE createOps: could not start the worker from onnx-ops-wasm-worker\.js: this engine has neither Worker nor node:worker_threads/;
/** The unbundled refusal of `file`: the loader's reason, the service-worker rule and the remedy. */
const noImport = (file) => new RegExp(`^true UNSUPPORTED_ENGINE createOps: could not load ${file.replaceAll('.', '\\.')}, .*import\\(\\).*a service worker may not use dynamic import \\(HTML standard\\): bundle it, or import onnx-ops-wasm/js there`);

test('a Chromium module service worker, esbuild-bundled (one file, and --splitting) and unbundled, under the CSP: what runs exact on which backend, and what is refused with which reason', async () => {
  const dir = await consumer('service-worker-app', { type: 'module' }, {
    'exact.js': MODULE, 'page.js': page, 'index.html': html('./page.js'),
    'sw.js': serviceWorker('./node_modules/onnx-ops-wasm/dist/esm/index.js', './node_modules/onnx-ops-wasm/dist/esm/js.js'),
    'src/exact.js': MODULE, 'src/sw.js': serviceWorker('onnx-ops-wasm', 'onnx-ops-wasm/js'),
  });
  const esbuild = await import('esbuild');
  const t = performance.now();
  // esbuild's defaults, one file; and with --splitting, whose chunks are loaded by import() too.
  const results = await Promise.all([['bundled', false], ['split', true]].map(([out, splitting]) => {
    mkdirSync(join(dir, out));
    for (const f of ['page.js', 'index.html']) writeFileSync(join(dir, out, f), readFileSync(join(dir, f)));
    return esbuild.build({
      absWorkingDir: dir, entryPoints: ['src/sw.js'], bundle: true, format: 'esm', splitting, outdir: out, logLevel: 'silent',
    });
  }));
  console.log(`# esbuild: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  for (const result of results) assert.deepEqual([...result.warnings, ...result.errors], [], 'esbuild warned');
  const server = await serve([['/bundled/', join(dir, 'bundled')], ['/split/', join(dir, 'split')], ['/plain/', dir]], () => ({ 'Content-Security-Policy': CSP }));
  try {
    // One after the other: each page's context is its own, and Chromium's service workers share its two cores.
    const bundled = await openPage(`${server.url}/bundled/`, resultOrFailure);
    await assertExact(bundled.value, 'esbuild-bundled service worker', reply({ 3: noWorker }));
    for (const [path, label] of [['plain', 'unbundled service worker'], ['split', 'service worker bundled with --splitting']]) {
      const { value } = await openPage(`${server.url}/${path}/`, resultOrFailure);
      await assertExact(value, label, reply({ 1: noImport('onnx-ops-wasm-scalar.js'), 2: noImport('backend-js.js'), 3: noImport('worker-client.js') }));
    }
  } finally {
    await server.close();
  }
});
