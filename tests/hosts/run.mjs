// The packed package in hosts without the web's APIs (issue 41): a React
// Native bundle (Metro with React Native's default config, `import` and
// `require`, android and ios) run on Hermes; QuickJS (quickjs-emscripten),
// onnx-ops-wasm/js and the ES module entry; a bare Node vm context (no
// WebAssembly, URL, process or Worker), onnx-ops-wasm/js and the ES module
// and CommonJS entries; in both, a one-script esbuild bundle. In each, tests/hosts/check.mjs's hostCheck(): Max and
// Relu bit for bit against tests/portable/reference.ts, the `js` backend, a
// typed error for a bad input, and the worker form's UNSUPPORTED_ENGINE.
//
//   npm run build && node --test tests/hosts/run.mjs
//
// Needs `npm ci --prefix tests/hosts` (scripts/setup.sh). KEEP_TMP=1 keeps the
// consumer projects (their folder is printed).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { EXPECTED } from '../package/check.mjs';
import { hostCases, hostScript } from './check.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const HOSTS = join(ROOT, 'tests', 'hosts');
const MODULES = join(HOSTS, 'node_modules');
const HERMES = join(MODULES, 'hermes-engine-cli', 'linux64-bin');
const run = promisify(execFile);

async function sh(cmd, args, cwd, env = {}) {
  try {
    return await run(cmd, args, { cwd, env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', ...env }, maxBuffer: 64 << 20, timeout: 180_000 });
  } catch (e) {
    // Metro prints a banner, then the minified line it failed on, in colour: from its error on, plain, lines cut.
    const out = `${e.stdout ?? ''}${e.stderr ?? ''}`.replace(/\x1b\[[0-9;]*m/g, '').split('\n').map((l) => l.slice(0, 400)).join('\n');
    const from = Math.max(0, out.search(/^\w*Error\b/m));
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed (${e.code ?? e.signal}):\n${out.slice(from, from + 6000)}`);
  }
}

let TMP;
let tarball;
/** The tarball unpacked: its package/ folder. */
let unpacked;
let want;

/**
 * hostCheck()'s result must be what the reference gives, in every field; the
 * worker form and the wasm backend reject naming the cause: onnx-ops-wasm/js
 * (`jsEntry`) has neither, the full entry finds no Worker and no WebAssembly.
 */
function assertChecked(got, label, jsEntry) {
  assert.equal(got.failure, undefined, `${label}: ${got.failure}`);
  const { workerForm, wasm, ...rest } = got;
  assert.deepEqual(rest.cases.map((c, i) => ({ i, ...c })), want.cases.map((c, i) => ({ i, ...c })), `${label}: Max and Relu bit for bit`);
  const { message, ...bad } = rest.bad;
  assert.deepEqual({ ...rest, bad }, want, label);
  assert.match(message, /^Max: input 1: .*\[DATA_LENGTH\]$/, `${label}: the bad input's message`);
  const causes = jsEntry
    ? { workerForm: /^onnx-ops-wasm\/js .*import 'onnx-ops-wasm' for the worker form/, wasm: /^onnx-ops-wasm\/js .*import 'onnx-ops-wasm' for the wasm backends/ }
    : { workerForm: /has neither Worker nor/, wasm: /^this engine cannot compile WebAssembly/ };
  for (const [what, e] of Object.entries({ workerForm, wasm })) {
    assert.deepEqual([e.code, e.op], ['UNSUPPORTED_ENGINE', 'createOps'], `${label}: ${what}: ${JSON.stringify(e)}`);
    assert.match(e.message.replace(/^createOps: /, ''), causes[what], `${label}: ${what}'s error names the cause`);
    assert.doesNotMatch(e.message, /bundler/, `${label}: ${what}'s error blames a bundler`);
  }
}

/** A consumer project in `dir`: package.json, `files`, and the tarball installed offline, as a user installs it. */
async function consumer(dir, files) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', private: true, version: '0.0.0' }));
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  await sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', tarball], dir);
  return dir;
}

/**
 * What hostCheck() must give on the js backend: its cases' bytes from
 * tests/portable/reference.ts (bundled into TMP), which imports nothing from
 * the library.
 */
async function expected() {
  const outfile = join(TMP, 'reference.mjs');
  await build({ entryPoints: [join(ROOT, 'tests/portable/reference.ts')], bundle: true, format: 'esm', outfile, logLevel: 'warning' });
  const { refMax, refRelu } = await import(pathToFileURL(outfile).href);
  const hex = (bytes) => Buffer.from(bytes).toString('hex');
  const dtypeOf = (x) => x.dtype ?? { Float32Array: 'float32', Float64Array: 'float64', Int8Array: 'int8', Int16Array: 'int16', Int32Array: 'int32',
    BigInt64Array: 'int64', Uint8Array: 'uint8', Uint16Array: 'uint16', Uint32Array: 'uint32', BigUint64Array: 'uint64' }[x.constructor.name];
  const plain = (x) => ({ dtype: dtypeOf(x), shape: x.shape ?? [x.length], data: x.data ?? x });
  const cases = hostCases().map(([op, , inputs]) => {
    const xs = inputs.map(plain);
    if (op === 'Relu') return { dtype: xs[0].dtype, shape: xs[0].shape, hex: hex(refRelu(xs[0])), inputsKept: true };
    const { shape, bytes } = refMax(xs);
    return { dtype: xs[0].dtype, shape, hex: hex(bytes), inputsKept: true };
  });
  return {
    backend: 'js', worker: false, check: { ...EXPECTED, simd: false, backend: 'js' }, cases,
    bad: { code: 'DATA_LENGTH', op: 'Max', input: 1 }, after: [0, 2],
  };
}

let bundled;
/**
 * hostCheck() on the ES module entry bundled by esbuild with its defaults
 * (one IIFE script, no splitting: the lazily loaded files inlined), from a
 * consumer project with the tarball installed; the script's path.
 */
function oneScript() {
  bundled ??= (async () => {
    const app = await consumer(join(TMP, 'one-script-app'), { 'main.js': `import * as lib from 'onnx-ops-wasm';\n${hostScript('lib', 'done')}` });
    const outfile = join(app, 'one-script.js');
    const { warnings } = await build({ entryPoints: [join(app, 'main.js')], bundle: true, outfile, logLevel: 'silent' });
    for (const w of warnings) console.log(`# esbuild: ${w.text}`);
    return outfile;
  })();
  return bundled;
}

before(async () => {
  assert.ok(existsSync(join(ROOT, 'dist', 'esm', 'index.js')), 'dist/ is missing: run `npm run build` first');
  assert.ok(existsSync(MODULES), 'tests/hosts/node_modules is missing: run `npm ci --prefix tests/hosts` (scripts/setup.sh does)');
  TMP = mkdtempSync(join(tmpdir(), 'onnx-ops-wasm-hosts-'));
  if (process.env.KEEP_TMP) console.log(`# consumer projects in ${TMP}`);
  const { stdout } = await sh('npm', ['pack', '--json', '--pack-destination', TMP, '--loglevel=error'], ROOT);
  tarball = join(TMP, JSON.parse(stdout)[0].filename);
  mkdirSync(join(TMP, 'unpacked'));
  await sh('tar', ['-xzf', tarball, '-C', join(TMP, 'unpacked')], TMP);
  unpacked = join(TMP, 'unpacked', 'package');
  want = await expected();
});

after(() => {
  if (TMP && !process.env.KEEP_TMP) rmSync(TMP, { recursive: true, force: true });
});

// ---- React Native: Metro, then Hermes ------------------------------------------------
describe('React Native (Metro 0.87, React Native\'s default config; Hermes 0.12)', () => {
  let app;
  before(async () => {
    // Inside tests/hosts, so that Metro and its config find their packages in tests/hosts/node_modules, as an app finds its own.
    mkdirSync(join(HOSTS, '.work'), { recursive: true });
    app = await consumer(mkdtempSync(join(HOSTS, '.work', 'rn-app-')), {
      'metro.config.js': `const { getDefaultConfig, mergeConfig } = require('@react-native/metro-config');
// React Native's default, but for two things the app's packages being one folder up needs: Metro watching that
// folder, and no react-native/setup-env (the app has no react-native package; on a device it sets up the native side).
module.exports = mergeConfig(getDefaultConfig(__dirname), {
  watchFolders: [${JSON.stringify(MODULES)}],
  serializer: { getModulesRunBeforeMainModule: () => [] },
});
`,
      'import.js': `import * as lib from 'onnx-ops-wasm';\n${hostScript('lib', 'print')}`,
      'require.js': `const lib = require('onnx-ops-wasm');\n${hostScript('lib', 'print')}`,
    });
  });
  after(() => {
    if (app && !process.env.KEEP_TMP) rmSync(app, { recursive: true, force: true });
  });

  for (const [entry, platform] of [['import.js', 'android'], ['require.js', 'ios']]) {
    test(`${entry} (${platform}, release, minified): bundles with no import.meta and no import(), and runs on Hermes as bytecode`, async () => {
      const bundle = join(app, `${entry.replace(/\.js$/, '')}.${platform}.bundle.js`); // Metro adds .js to a name without it
      const t = Date.now();
      // Metro's cache goes in os.tmpdir(): this run's folder, empty at first. One worker: a dozen files cost less in-process.
      await sh(process.execPath, [join(MODULES, 'metro', 'src', 'cli.js'), 'build', entry, '--platform', platform, '--dev', 'false',
        '--minify', 'true', '--max-workers', '1', '--out', bundle, '--config', join(app, 'metro.config.js')], app, { TMPDIR: TMP });
      const text = readFileSync(bundle, 'utf8');
      console.log(`# metro ${entry} ${platform}: ${text.length} bytes in ${Date.now() - t} ms`);
      assert.doesNotMatch(text, /import\.meta/, 'import.meta in the bundle (Hermes refuses it)');
      assert.doesNotMatch(text, /\bimport\s*\(/, 'import() in the bundle');
      assert.doesNotMatch(text, /ONNX_OPS_WASM_BASE64/, 'the embedded wasm in the bundle: Metro did not take onnx-ops-wasm/js');
      // As a release build does: hermesc to bytecode, then the VM runs it.
      await sh(join(HERMES, 'hermesc'), ['-O', '-emit-binary', '-out', `${bundle}.hbc`, bundle], app);
      const { stdout, stderr } = await sh(join(HERMES, 'hermes'), [`${bundle}.hbc`], app);
      assert.equal(stderr, '', 'Hermes printed to stderr');
      assertChecked(JSON.parse(stdout), `Hermes ${entry}`, true); // the react-native condition: onnx-ops-wasm/js
    });
  }
});

// ---- QuickJS -----------------------------------------------------------------------------
describe('QuickJS (quickjs-emscripten)', () => {
  /**
   * Runs hostCheck() on `file` (a dist file) as a module in a fresh QuickJS
   * context, whose module loader serves the unpacked package only; or, with
   * `script`, that one script (which loads nothing).
   */
  async function inQuickJs(file, script) {
    const { getQuickJS } = await import(join(MODULES, 'quickjs-emscripten', 'dist', 'index.mjs'));
    const runtime = (await getQuickJS()).newRuntime();
    const loaded = [];
    runtime.setModuleLoader((name) => {
      loaded.push(relative(unpacked, name));
      return readFileSync(name, 'utf8');
    }, (base, specifier) => {
      const path = resolve(dirname(base), specifier);
      if (!specifier.startsWith('.') || relative(unpacked, path).startsWith('..')) throw new Error(`the host has no module ${JSON.stringify(specifier)}`);
      return path;
    });
    const vm = runtime.newContext();
    try {
      const globals = vm.dump(vm.unwrapResult(vm.evalCode('[typeof WebAssembly, typeof URL, typeof Worker, typeof setTimeout].join()')));
      let result;
      const done = vm.newFunction('done', (json) => { result = vm.getString(json); });
      vm.setProp(vm.global, 'done', done);
      done.dispose();
      vm.unwrapResult(script === undefined
        ? vm.evalCode(`import * as lib from './${file}';\n${hostScript('lib', 'done')}`, join(unpacked, 'host-check.mjs'), { type: 'module' })
        : vm.evalCode(script, file, { type: 'global' })).dispose();
      // No event loop: run the job queue until the check has finished or nothing is left to run.
      while (result === undefined) {
        const jobs = vm.unwrapResult(runtime.executePendingJobs());
        if (jobs === 0) break;
      }
      assert.notEqual(result, undefined, `QuickJS ${file}: the check never finished (no job left to run)`);
      return { globals, loaded, result: JSON.parse(result) };
    } finally {
      vm.dispose();
      runtime.dispose();
    }
  }

  test('onnx-ops-wasm/js (dist/esm/js.js): one file, the js backend, everything checked', async () => {
    const { globals, loaded, result } = await inQuickJs('dist/esm/js.js');
    assert.equal(globals, 'undefined,undefined,undefined,undefined', 'QuickJS has no WebAssembly, URL, Worker or setTimeout');
    assert.deepEqual(loaded, ['dist/esm/js.js'], 'the files loaded');
    assertChecked(result, 'QuickJS js.js', true);
  });

  test('the ES module entry (dist/esm/index.js) chooses the js backend and passes everything', async () => {
    const { loaded, result } = await inQuickJs('dist/esm/index.js');
    assertChecked(result, 'QuickJS index.js', false);
    assert.deepEqual(loaded, ['dist/esm/index.js', 'dist/esm/onnx-ops-wasm-data.js', 'dist/esm/backend-js.js', 'dist/esm/worker-client.js'], 'the files loaded');
  });

  test('a one-script bundle of the ES module entry (esbuild\'s defaults), as single-file hosts ship code', async () => {
    const { loaded, result } = await inQuickJs('one-script.js', readFileSync(await oneScript(), 'utf8'));
    assert.deepEqual(loaded, [], 'the files loaded');
    assertChecked(result, 'QuickJS one script', false);
  });
});

// ---- a bare Node vm context --------------------------------------------------------------
describe('a Node vm context without WebAssembly and URL', () => {
  for (const [kind, file] of [['esm', 'dist/esm/js.js'], ['esm', 'dist/esm/index.js'], ['cjs', 'dist/cjs/js.js'], ['cjs', 'dist/cjs/index.js']]) {
    test(`${file}: the js backend, everything checked`, async () => {
      const { stdout, stderr } = await sh(process.execPath, ['--experimental-vm-modules', '--no-warnings', join(HOSTS, 'vm.mjs'), unpacked, kind, file], HOSTS);
      assert.equal(stderr, '');
      const { globals, loaded, result } = JSON.parse(stdout);
      assert.equal(globals, 'undefined,undefined,undefined,undefined,undefined,undefined',
        'the context has no WebAssembly, URL, process, Worker, require or setTimeout');
      assertChecked(result, `vm ${file}`, file.endsWith('/js.js'));
      assert.deepEqual(loaded, file.endsWith('/js.js') ? [file] : ['index.js', 'onnx-ops-wasm-data.js', 'backend-js.js', 'worker-client.js'].map((f) => file.replace('index.js', f)),
        'the files loaded');
    });
  }

  test('a one-script bundle of the ES module entry (esbuild\'s defaults), as single-file hosts ship code', async () => {
    const { stdout } = await sh(process.execPath, [join(HOSTS, 'vm.mjs'), unpacked, 'script', await oneScript()], HOSTS);
    const { loaded, result } = JSON.parse(stdout);
    assert.deepEqual(loaded, [], 'the files loaded');
    assertChecked(result, 'vm one script', false);
  });
});
