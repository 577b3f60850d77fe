// The packed package in apps built as a new user would build them (issue 41):
// each bundler's default production configuration, the least that builds an
// app, nothing copied by hand but the one line docs/API.md gives for the
// bundlers that do not emit worker files. Each app's page (mainModule() of
// consumers.mjs) runs, under the Content-Security-Policy of the package test,
// in headless Chromium: the sync ops, both forced fallbacks
// (createOps({ backend: 'wasm' }) and ({ backend: 'js' })), the worker form on
// each of the three backends, and (where the bundler bundles workers) the sync
// ops in a module worker of the app's own; exact results, and no console
// error or warning, no failed request.
//
//   webpack 5 and rspack (`--mode production`; no warning in the build), Parcel 2,
//   Vite (production build, and the dev server with and without what the docs
//   say), Rollup 4 with @rollup/plugin-node-resolve (without and with the
//   documented importMetaAssets()), esbuild (without and with the documented
//   copy of the worker file).
//
//   npm run build && node --test tests/package/bundlers.mjs
//
// webpack, rspack, Parcel and Rollup come from tests/bundlers/node_modules
// (TMP/node_modules links to it, so each app, a folder of TMP, finds them as
// its own), Vite and esbuild from the repository's; the apps install nothing
// but the tarball. Two apps build at a time. KEEP_TMP=1 keeps them.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { cpSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import {
  CSP, ROOT, TMP, assertChecked, assertWorkerFile, checkModule, consumer, html, mainModule, openPage, resultOrFailure, run,
  start, stop, workerModule,
} from './consumers.mjs';
import { serve } from '../support/static-server.mjs';

const TOOLS = join(ROOT, 'tests', 'bundlers', 'node_modules');

before(async () => {
  await start();
  symlinkSync(TOOLS, join(TMP, 'node_modules'), 'dir');
});
after(stop);

/** The script `name` of package `pkg`'s "bin", in tests/bundlers/node_modules. */
function bin(pkg, name) {
  const { bin: bins } = JSON.parse(readFileSync(join(TOOLS, pkg, 'package.json'), 'utf8'));
  return join(TOOLS, pkg, typeof bins === 'string' ? bins : bins[name]);
}

/** An app: src/index.js is mainModule() (with a module worker of its own unless `ownWorker` is false), beside `files`. */
function app(name, files, { ownWorker = true } = {}) {
  return consumer(name, { type: 'module' }, {
    'src/check.js': checkModule,
    'src/index.js': mainModule("'onnx-ops-wasm'", ownWorker ? "new URL('./worker.js', import.meta.url)" : null, { fallbacks: true }),
    ...(ownWorker && { 'src/worker.js': workerModule("'onnx-ops-wasm'") }),
    ...files,
  });
}

/** Runs `build` (a function), prints how long it took, and returns what it returns. */
async function timed(label, build) {
  const t = performance.now();
  const out = await build();
  console.log(`# ${label}: built in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return out;
}

/** Runs a bundler's command line in `dir`; resolves its stdout and stderr together, without colours. */
async function cli(label, script, args, dir) {
  return timed(label, async () => {
    try {
      const { stdout, stderr } = await run(process.execPath, [script, ...args], {
        cwd: dir, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' }, maxBuffer: 64 << 20,
      });
      return stdout + stderr;
    } catch (e) {
      throw new Error(`${label}: ${script} ${args.join(' ')} (in ${dir}) failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
    }
  });
}
/** A build's output for a message: each line cut to 200 characters (a warning may quote a whole minified line). */
const shown = (out) => out.split('\n').map((l) => l.slice(0, 200)).join('\n');

/**
 * Opens the app's page at `url` and checks it: every check exact (the
 * worker form's worker from a file whose served path matches `workerFile`).
 * `missing`: the file the worker form must do without; it then rejects on
 * every backend with UNSUPPORTED_ENGINE naming it, and the page's only
 * problems are the failed requests for it.
 */
async function checkPage(label, url, { workerFile, missing, ownWorker = true }) {
  const { value, problems, workers } = await openPage(url, resultOrFailure, { allowProblems: missing !== undefined });
  if (missing === undefined) {
    assertChecked(value, label, { fallbacks: true, worker: ownWorker });
    assertWorkerFile(workers, new URL(url).origin, workerFile, label);
    return;
  }
  const failure = value.workerForm?.[0];
  const named = missing.replaceAll('.', '\\.');
  assert.match(failure?.failed ?? '', new RegExp(`^true UNSUPPORTED_ENGINE createOps: could not (start the worker from |load )${named}: `), label);
  assertChecked(value, label, { fallbacks: true, worker: ownWorker, workerForm: failure });
  assert.ok(problems.length > 0 && problems.every((p) => p.includes(missing) || p.includes('404')), `${label}: problems\n${problems.join('\n')}`);
}

/** Serves `root` under `csp` and checks the app's page, its index.html. */
async function checkServed(label, root, { csp = CSP, ...options }) {
  const server = await serve([['/', root]], () => ({ 'Content-Security-Policy': csp }));
  try {
    await checkPage(label, server.url + '/', options);
  } finally {
    await server.close();
  }
}

describe('apps built by each bundler, in headless Chromium under the CSP', { concurrency: 2 }, () => {
  for (const [name, script, label] of [['webpack', bin('webpack-cli', 'webpack-cli'), 'webpack 5'], ['rspack', bin('@rspack/cli', 'rspack'), 'rspack']]) {
    test(`${label}: \`${name} build --mode production\` with no configuration, no warning; every check exact`, async () => {
      const dir = await app(`${name}-app`, {
        // What html-webpack-plugin would write: the bundle, a classic script, from the default output dir/.
        'index.html': html('dist/main.js').replace('type="module"', 'defer'),
      });
      const out = await cli(label, script, ['build', '--mode', 'production'], dir);
      assert.match(out, /compiled successfully/, shown(out));
      assert.doesNotMatch(out, /warning|error/i, shown(out));
      // webpack and rspack write a module's file: URL wherever import.meta.url is read outside new URL(): the library
      // does so only in the worker form's Node path (worker-client.js), so no other chunk carries the build machine's path.
      const carrying = readdirSync(join(dir, 'dist')).filter((f) => readFileSync(join(dir, 'dist', f), 'utf8').includes(`file://${dir}`));
      assert.ok(carrying.length <= 1, `${label}: the build machine's path in ${carrying.join(', ')}`);
      if (carrying.length) assert.match(readFileSync(join(dir, 'dist', carrying[0]), 'utf8'), /onnx-ops-wasm\/dist\/esm\/worker-client\.js/, `${label}: the path in ${carrying[0]}`);
      await checkServed(label, dir, { workerFile: /^\/dist\/onnx-ops-wasm\.js$/ }); // the chunk named by the worker's `name`
    });
  }

  test('Parcel 2: `parcel build index.html` with no configuration; every check exact', async () => {
    const dir = await app('parcel-app', { 'index.html': html('./src/index.js') });
    const out = await cli('Parcel 2', bin('parcel', 'parcel'), ['build', 'index.html'], dir);
    assert.match(out, /Built in/, shown(out));
    assert.doesNotMatch(out, /⚠|warn|error/i, shown(out));
    // Parcel writes its bundle manifest into the page as an inline import map, which no option turns off
    // (parcel-bundler/parcel#10073, #10240): the page's only inline script, allowed by its hash.
    const page = readFileSync(join(dir, 'dist', 'index.html'), 'utf8');
    const inline = [...page.matchAll(/<script([^>]*)>([^<]*)<\/script>/g)].filter(([, attributes]) => !/\bsrc=/.test(attributes));
    assert.deepEqual(inline.map(([, attributes]) => attributes.trim()), ['type=importmap'], 'Parcel\'s inline scripts');
    const hash = createHash('sha256').update(inline[0][2]).digest('base64');
    const csp = CSP.replace("'wasm-unsafe-eval'", `'wasm-unsafe-eval' 'sha256-${hash}'`);
    await checkServed('Parcel 2', join(dir, 'dist'), { csp, workerFile: /^\/onnx-ops-wasm-worker\.\w+\.js$/ });
  });

  // Rollup bundles no worker: the app has none of its own. `assets`: docs/API.md's one line, importMetaAssets().
  for (const assets of [false, true]) {
    const plugins = `nodeResolve()${assets ? ', importMetaAssets()' : ''}`;
    const config = ["import { nodeResolve } from '@rollup/plugin-node-resolve';",
      ...(assets ? ["import { importMetaAssets } from '@web/rollup-plugin-import-meta-assets';"] : []),
      `export default { input: 'src/index.js', output: { dir: 'dist', format: 'es' }, plugins: [${plugins}] };`, ''].join('\n');
    const label = `Rollup 4, plugins [${plugins}]`;
    test(`${label}: ${assets ? 'every check exact' : 'the sync ops and both fallbacks exact, the worker form a typed error naming its missing file'}`, async () => {
      const dir = await app(`rollup${assets ? '-assets' : ''}-app`, {
        'index.html': html('./dist/index.js'), 'rollup.config.mjs': config,
      }, { ownWorker: false });
      const out = await cli(label, bin('rollup', 'rollup'), ['-c'], dir);
      assert.doesNotMatch(out, /\(!\)|warn|error/i, shown(out));
      await checkServed(label, dir, assets
        ? { ownWorker: false, workerFile: /^\/dist\/assets\/onnx-ops-wasm-worker-[\w-]+\.js$/ }
        : { ownWorker: false, missing: 'onnx-ops-wasm-worker.js' });
    });
  }

  test('esbuild (--bundle --format=esm): the sync ops and both fallbacks exact with nothing copied; every check once the worker file is copied beside the bundle', async () => {
    const esbuild = await import('esbuild');
    const dir = await app('esbuild-app', { 'index.html': html('./dist/index.js') });
    const result = await timed('esbuild', () => esbuild.build({
      absWorkingDir: dir, entryPoints: ['src/index.js', 'src/worker.js'], bundle: true, format: 'esm', outdir: 'dist', logLevel: 'silent',
    }));
    assert.deepEqual([...result.warnings, ...result.errors], [], 'esbuild warned');
    await checkServed('esbuild, nothing copied', dir, { missing: 'onnx-ops-wasm-worker.js' });
    // docs/API.md's one line: cp node_modules/onnx-ops-wasm/dist/esm/onnx-ops-wasm-worker.js dist/
    cpSync(join(dir, 'node_modules', 'onnx-ops-wasm', 'dist', 'esm', 'onnx-ops-wasm-worker.js'), join(dir, 'dist', 'onnx-ops-wasm-worker.js'));
    await checkServed('esbuild, the worker file copied', dir, { workerFile: /^\/dist\/onnx-ops-wasm-worker\.js$/ });
  });

  /** Vite's logger, keeping its warnings and errors in `warnings`. */
  const viteLogger = (vite, warnings) => {
    const logger = vite.createLogger('warn');
    const keep = (f) => (msg, o) => { warnings.push(msg); f(msg, o); };
    return { ...logger, warn: keep(logger.warn), warnOnce: keep(logger.warnOnce), error: keep(logger.error) };
  };

  test('Vite: production build with no configuration, every check exact; the dev server, every check with onnx-ops-wasm excluded from pre-bundling, the worker form a typed error without', async () => {
    const vite = await import('vite');
    // Vite bundles the app's own workers as 'iife', which cannot split the library's import()s: the next test.
    const dir = await app('vite-app', { 'index.html': html('/src/index.js') }, { ownWorker: false });
    const warnings = [];
    const customLogger = viteLogger(vite, warnings);
    await timed('Vite', () => vite.build({ root: dir, configFile: false, logLevel: 'warn', customLogger }));
    assert.deepEqual(warnings, [], 'vite build warned');
    const assets = readdirSync(join(dir, 'dist', 'assets'));
    assert.ok(assets.some((f) => /^onnx-ops-wasm-worker-[\w-]+\.js$/.test(f)), `no bundled worker among the assets: ${assets.join(', ')}`);
    await checkServed('vite build', join(dir, 'dist'), { ownWorker: false, workerFile: /^\/assets\/onnx-ops-wasm-worker-[\w-]+\.js$/ });
    // The dev server pre-bundles the package into node_modules/.vite/deps/ without the worker file it names by
    // new URL() (vitejs/vite#8427): the worker form needs it excluded from pre-bundling (docs/API.md).
    for (const optimizeDeps of [undefined, { exclude: ['onnx-ops-wasm'] }]) {
      warnings.length = 0;
      const dev = await vite.createServer({
        root: dir, configFile: false, logLevel: 'warn', customLogger, optimizeDeps,
        server: { host: '127.0.0.1', port: 0, headers: { 'Content-Security-Policy': CSP } },
      });
      await dev.listen();
      const label = `vite dev server${optimizeDeps ? ', optimizeDeps: { exclude: [\'onnx-ops-wasm\'] }' : ''}`;
      try {
        await checkPage(label, dev.resolvedUrls.local[0], optimizeDeps
          ? { ownWorker: false, workerFile: /\/node_modules\/onnx-ops-wasm\/dist\/esm\/onnx-ops-wasm-worker\.js$/ }
          : { ownWorker: false, missing: 'onnx-ops-wasm-worker.js' });
        assert.deepEqual(warnings.filter((w) => optimizeDeps || !w.includes('onnx-ops-wasm-worker.js')), [], `${label}: vite warned`);
      } finally {
        await dev.close();
      }
    }
  });

  test('Vite: an app whose own module worker imports the library, with worker: { format: \'es\' } (production build); every check exact', async () => {
    const vite = await import('vite');
    const dir = await app('vite-worker-app', { 'index.html': html('/src/index.js') });
    const warnings = [];
    // docs/API.md's one line for this case: Vite's default worker format, 'iife', cannot split the library's import()s.
    await timed('Vite, worker format es', () => vite.build({
      root: dir, configFile: false, logLevel: 'warn', customLogger: viteLogger(vite, warnings), worker: { format: 'es' },
    }));
    assert.deepEqual(warnings, [], 'vite build warned');
    await checkServed('vite build, worker format es', join(dir, 'dist'), { workerFile: /^\/assets\/onnx-ops-wasm-worker-[\w-]+\.js$/ });
  });
});
