// The npm package as users get it: `npm pack`, then the tarball installed
// offline into throwaway consumer projects, and in each environment Max (with
// broadcasting) and Relu run and their values are checked, through the sync
// API and through the worker form, createOps({ worker: true }) (its results
// byte for byte the sync API's, and what only it has: copy or transfer, out,
// order, handles, misuse, close):
//
//   Node require() and import (and examples/node-*.{cjs,mjs},
//   examples/worker-form.mjs), and a Node process that exits by itself with the
//   worker form; TypeScript with moduleResolution node16, nodenext and bundler,
//   from ES modules and CommonJS; esbuild bundles for Node (the worker form's
//   files copied beside them, and onnx-ops-wasm/wasm as a file asset);
//   examples/browser.html, examples/worker.html and examples/worker-form.html;
//   a plain page with a module worker under the Content-Security-Policy
//   script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'.
//   Browser cases run in headless Chromium (playwright-core + Debian's chromium).
//   Also: the tarball's contents and package.json, publint and
//   @arethetypeswrong/cli (attw) on the tarball, its Markdown's relative links,
//   and the size budget. Apps built by bundlers (webpack, rspack, Parcel,
//   Rollup, esbuild, Vite) for browsers: tests/package/bundlers.mjs.
//
//   npm run build && node --test tests/package/run.mjs
//
// esbuild and TypeScript come from the repository's node_modules; the
// consumers install nothing but the tarball (and onnxruntime-common, from the
// repository's node_modules, for the TypeScript interop check). KEEP_TMP=1
// keeps the consumer projects (their folder is printed).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import './api-docs.mjs';
import { deadLinks, linkTargets } from './links.mjs';
import {
  CSP, EXPECTED, EXPECTED_WORKER, ROOT, TMP, assertChecked, assertWorkerFile, checkCommonJs, checkModule, consumer, html,
  mainModule, nodeBin, openPage, packInfo, run, sh, shToFile, start, stop, tarball, unpacked,
} from './consumers.mjs';
import { serve } from '../support/static-server.mjs';
import { RUNTIMES } from '../engines/engines.mjs';

before(start);
after(stop);

/** What one environment may load: the ES module entry and everything it imports. */
export const BUDGET = { raw: 100_000, gzip: 32_000 };

/** The dist files an entry reaches through its static imports / requires, with raw and gzip sizes. */
export function reachable(entry, skip = []) {
  const seen = new Map();
  const visit = (file) => {
    if (seen.has(file) || skip.some((f) => file.endsWith(`/${f}`))) return;
    const bytes = readFileSync(file);
    seen.set(file, { raw: bytes.length, gzip: gzipSync(bytes, { level: 9 }).length });
    const text = bytes.toString('utf8');
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*|\brequire\s*\(\s*)["'](\.{1,2}\/[^"']+)["']/g)) {
      visit(join(dirname(file), m[1]));
    }
  };
  visit(entry);
  return seen;
}

// ---- the tarball -------------------------------------------------------------------
describe('the tarball', () => {
  test('holds the prebuilt ES module, CommonJS and types of each, README, LICENSE, CHANGELOG, API docs; nothing else', () => {
    const files = packInfo.files.map((f) => f.path).sort();
    for (const required of [
      'package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'docs/API.md',
      'dist/esm/index.js', 'dist/esm/package.json',
      'dist/cjs/index.js', 'dist/cjs/package.json',
      'dist/types/index.d.ts', 'dist/types/wasm/onnx-ops-wasm.d.ts', 'dist/types/index.d.mts',
      'dist/types/wasm/onnx-ops-wasm.d.mts', 'dist/types/wasm-asset.d.ts', 'dist/onnx-ops-wasm.wasm',
      ...['esm', 'cjs'].flatMap((k) => [`dist/${k}/worker-client.js`, `dist/${k}/onnx-ops-wasm-worker.js`, `dist/${k}/js.js`, `dist/${k}/inflate.js`, `dist/${k}/wasm-host.js`]),
      'dist/esm/edge.js', 'dist/types/wasm-module.d.ts',
      'dist/types/js.d.ts', 'dist/types/js.d.mts',
    ]) assert.ok(files.includes(required), `${required} is missing from the tarball`);
    const allowed = /^(package\.json|README\.md|LICENSE|CHANGELOG\.md|docs\/API\.md|dist\/(esm|cjs)\/[\w/-]+\.(js|js\.map|json)|dist\/types\/[\w/-]+\.d\.m?ts|dist\/onnx-ops-wasm\.wasm)$/;
    assert.deepEqual(files.filter((f) => !allowed.test(f)), [], 'unexpected files in the tarball');
    // Each declaration file for require() has its twin for import (but the wasm asset's, one for both).
    const cjsTypes = files.filter((f) => f.startsWith('dist/types/') && f.endsWith('.d.ts') && !['dist/types/wasm-asset.d.ts', 'dist/types/wasm-module.d.ts'].includes(f));
    const esmTypes = files.filter((f) => f.endsWith('.d.mts'));
    assert.deepEqual(esmTypes, cjsTypes.map((f) => f.replace(/\.d\.ts$/, '.d.mts')).sort(), '.d.ts and .d.mts pairs');
    console.log(`# tarball ${packInfo.filename}: ${packInfo.size} bytes, ${packInfo.files.length} files, ` +
      `${packInfo.unpackedSize} bytes unpacked`);
  });

  test('package.json: no install scripts, no dependencies, sideEffects false, engines, exports that exist', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    const scripts = Object.keys(pkg.scripts ?? {});
    for (const s of ['preinstall', 'install', 'postinstall', 'prepare', 'preprepare', 'postprepare', 'prepack']) {
      assert.ok(!scripts.includes(s), `package.json has a "${s}" script`);
    }
    assert.ok(!pkg.gypfile, 'gypfile');
    assert.deepEqual(Object.keys(pkg.dependencies ?? {}), [], 'runtime dependencies');
    assert.deepEqual(Object.keys(pkg.peerDependencies ?? {}), [], 'peer dependencies');
    assert.equal(pkg.sideEffects, false);
    // engines claims exactly the oldest Node the portable suite runs in (tests/engines/engines.mjs).
    const oldest = Math.min(...RUNTIMES.filter((r) => /^node\d+$/.test(r.name)).map((r) => Number(r.name.slice(4))));
    assert.deepEqual(pkg.engines, { node: `>=${oldest}` }, 'engines matches the oldest Node tested');
    assert.equal(pkg.license, 'MIT');
    const files = new Set(packInfo.files.map((f) => f.path));
    const targets = [pkg.main, pkg.module, pkg.types, pkg['react-native']];
    const walk = (x) => (typeof x === 'string' ? targets.push(x) : Object.values(x).forEach(walk));
    walk(pkg.exports);
    walk(pkg.typesVersions);
    for (const t of targets) assert.ok(files.has(t.replace(/^\.\//, '')), `${t} (package.json) is not in the tarball`);
    // Types per condition, each first: the .d.ts files are CommonJS by "type", like the require() build.
    assert.equal(pkg.type, 'commonjs');
    const { import: esm, require: cjs } = pkg.exports['.'];
    // React Native's Metro asserts 'react-native' with 'import' and 'require': first, it gets the one-file js entry.
    // wrangler ('workerd') and Next.js's edge ('edge-light') get the entry that imports the wasm as a module; no
    // other condition does (tests/deploy/edge.mjs).
    assert.deepEqual(Object.keys(pkg.exports['.']), ['react-native', 'workerd', 'edge-light', 'import', 'require']);
    for (const c of ['workerd', 'edge-light']) assert.deepEqual(pkg.exports['.'][c], { types: esm.types, default: './dist/esm/edge.js' }, c);
    assert.match(readFileSync(join(ROOT, 'dist', 'esm', 'edge.js'), 'utf8'), /\bimport [\w$]+ from"\.\.\/onnx-ops-wasm\.wasm\?module";/, 'edge.js imports the wasm as a module');
    // The wasm under a name that ends in .wasm, which bundlers that import .wasm files as modules match.
    assert.equal(pkg.exports['./onnx-ops-wasm.wasm'].default, pkg.exports['./wasm'].default);
    assert.equal(pkg.exports['.']['react-native'], pkg.exports['./js'].import.default);
    assert.equal(pkg['react-native'], pkg.exports['./js'].import.default, 'Metro without exports support reads the react-native field');
    const { import: jsEsm, require: jsCjs } = pkg.exports['./js'];
    for (const c of [esm, cjs, jsEsm, jsCjs, pkg.exports['./wasm']]) assert.deepEqual(Object.keys(c), ['types', 'default']);
    assert.match(esm.types, /\.d\.mts$/);
    assert.match(cjs.types, /[^m]\.d\.ts$/);
    assert.equal(pkg.main, cjs.default);
    assert.equal(pkg.types, cjs.types, 'node10 (no exports) gets the declarations of main, the CommonJS build');
    assert.deepEqual(pkg.typesVersions, {
      '*': { wasm: [pkg.exports['./wasm'].types], js: [jsCjs.types], 'onnx-ops-wasm.wasm': [pkg.exports['./onnx-ops-wasm.wasm'].types] },
    }, 'node10 finds the subpaths\' types');
  });

  test('publint finds nothing in the tarball, suggestions included', async () => {
    const bytes = readFileSync(tarball);
    const { messages, pkg } = await publint({
      pack: { tarball: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.length) }, level: 'suggestion', strict: true,
    });
    assert.deepEqual(messages.map((m) => `${m.type}: ${formatMessage(m, pkg)}`), [], 'publint');
  });

  test('attw: every entry point resolves to types of its format under node10, node16 (from CommonJS and ES modules) and bundler', async () => {
    // --no-definitely-typed: the package's own types only, and nothing fetched.
    const out = join(TMP, 'attw.json');
    const code = await shToFile(process.execPath,
      [nodeBin('@arethetypeswrong/cli/dist/index.js'), tarball, '--format', 'json', '--no-definitely-typed'], TMP, out);
    const { analysis } = JSON.parse(readFileSync(out, 'utf8'));
    assert.deepEqual(analysis.problems, [], 'attw problems');
    assert.equal(code, 0, 'attw exit code');
    const pkg = JSON.parse(readFileSync(join(unpacked, 'package.json'), 'utf8'));
    assert.deepEqual(Object.keys(analysis.entrypoints), Object.keys(pkg.exports), 'the entry points attw checked');
    for (const [subpath, { resolutions }] of Object.entries(analysis.entrypoints)) {
      assert.deepEqual(Object.keys(resolutions), ['node10', 'node16-cjs', 'node16-esm', 'bundler'], subpath);
      const line = Object.entries(resolutions).map(([kind, r]) => {
        assert.ok(r.resolution?.fileName, `${subpath} under ${kind}: no types`);
        return `${kind} ${r.resolution.fileName.replace('/node_modules/onnx-ops-wasm/', '')}`;
      });
      console.log(`# attw ${subpath}: ${line.join(', ')}`);
    }
  });

  test('every relative link of the packed Markdown leads to a file (and heading) in the package', () => {
    const paths = packInfo.files.map((f) => f.path);
    const markdown = new Map(paths.filter((p) => p.endsWith('.md')).map((p) => [p, readFileSync(join(unpacked, p), 'utf8')]));
    const { checked, dead } = deadLinks(markdown, paths);
    assert.deepEqual(dead, [], 'links to what the package does not hold');
    const inReadme = linkTargets(markdown.get('README.md')).filter((t) => !/^[a-z]+:/i.test(t)).length;
    assert.ok(inReadme > 0 && checked >= inReadme, `${checked} links checked, ${inReadme} in README.md`);
    console.log(`# ${checked} relative links in ${[...markdown.keys()].join(', ')}`);
  });

  test('the link check finds what is dead and skips code', () => {
    const files = new Map([
      ['README.md', '# Top\n[a](docs/A.md) [b](docs/B.md) [c](docs/A.md#x) [d](#top) [e](#nope) [f](../up.md)\n' +
        '[g](https://example.com/g.md) `[h](code.md)` <a href="docs/C.md">i</a>\n[j]: docs/A.md#y\n```\n[k](fenced.md)\n```\n'],
      ['docs/A.md', '## X\n## Y\n[l](../README.md#top) [m](../README.md#x)\n'],
    ]);
    assert.deepEqual(deadLinks(files, ['README.md', 'docs/A.md']), {
      checked: 10,
      dead: [
        'README.md: docs/B.md (the package has no docs/B.md)',
        'README.md: #nope (no heading in README.md makes #nope)',
        'README.md: ../up.md (outside the package)',
        'README.md: docs/C.md (the package has no docs/C.md)',
        'docs/A.md: ../README.md#x (no heading in README.md makes #x)',
      ],
    });
  });

  test(`size budget: what an engine with SIMD128 loads for the sync API is under ${BUDGET.raw} bytes, ${BUDGET.gzip} gzipped; the fallbacks and the worker form are files of their own`, () => {
    for (const kind of ['esm', 'cjs']) {
      // The fallback backends, which index.js loads only where the engine needs them (createOps in js/src/index.ts),
      // the worker form's page side, loaded only by createOps({ worker: true }), the inflater, loaded only
      // where DecompressionStream is missing or broken, and wasm-host.js, only for a compiled module or a refusal.
      const fallbacks = ['onnx-ops-wasm-scalar.js', 'backend-js.js', 'worker-client.js', 'inflate.js', 'wasm-host.js'];
      const files = reachable(join(ROOT, 'dist', kind, 'index.js'), fallbacks);
      const main = readFileSync(join(ROOT, 'dist', kind, 'index.js'), 'utf8');
      for (const f of fallbacks) {
        const at = main.indexOf(`"./${f}"`);
        assert.ok(at > 0, `${kind}: index.js names ${f}`);
        // Loaded in a promise's callback, never while index.js itself loads.
        // By a literal specifier, which every bundler splits off or inlines and every module loader resolves.
        assert.match(main.slice(Math.max(0, at - 80), at), kind === 'esm' ? /[^.\w]import\($/ : /\.then\(\(\)=>.*require\($/, `${kind}: ${f} is loaded lazily`);
        const fallback = reachable(join(ROOT, 'dist', kind, f));
        assert.equal(fallback.size, 1, `${kind}: ${f} imports nothing`);
        const [{ raw, gzip }] = fallback.values();
        console.log(`# ${kind}: ${f}, loaded only where it is chosen: ${raw} bytes, ${gzip} gzip -9`);
      }
      const raw = [...files.values()].reduce((a, f) => a + f.raw, 0);
      const gzip = [...files.values()].reduce((a, f) => a + f.gzip, 0);
      const list = [...files].map(([f, s]) => `${f.slice(ROOT.length)} ${s.raw}/${s.gzip}`).join(', ');
      console.log(`# ${kind}: ${raw} bytes, ${gzip} gzip -9 (${list})`);
      // index.js (the API and the wasm glue) and the wasm in a file of its own, which gzips apart better.
      assert.deepEqual([...files.keys()].map((f) => basename(f)), ['index.js', 'onnx-ops-wasm-data.js'], `${kind}: what index.js loads`);
      assert.match(readFileSync(join(ROOT, 'dist', kind, 'onnx-ops-wasm-data.js'), 'utf8'), /^\/\/.*\n(export default |module\.exports=)"eN/, `${kind}: the embedded wasm`);
      assert.ok(raw < BUDGET.raw, `${kind}: ${raw} bytes loaded, budget ${BUDGET.raw}`);
      assert.ok(gzip < BUDGET.gzip, `${kind}: ${gzip} bytes gzipped, budget ${BUDGET.gzip}`);
      // The worker form's worker: a file of its own (the library and its message loop), which only a worker loads.
      const worker = 'onnx-ops-wasm-worker.js';
      const starter = readFileSync(join(ROOT, 'dist', kind, kind === 'esm' ? 'index.js' : 'worker-client.js'), 'utf8');
      assert.ok(kind === 'esm' ? starter.includes(`new Worker(new URL("./${worker}",import.meta.url)`) : starter.includes(`"${worker}"`) && starter.includes('${__dirname}/'),
        `${kind}: the worker is started from its file`);
      const inWorker = reachable(join(ROOT, 'dist', kind, worker));
      assert.equal(inWorker.size, 1, `${kind}: ${worker} imports nothing (a tool that copies it as it is works)`);
      assert.doesNotMatch(readFileSync(join(ROOT, 'dist', kind, worker), 'utf8'), /\bimport\(|\brequire\(/, `${kind}: ${worker} loads nothing`);
      const [{ raw: workerRaw, gzip: workerGzip }] = inWorker.values();
      const client = reachable(join(ROOT, 'dist', kind, 'worker-client.js')).values().next().value;
      console.log(`# ${kind}: the worker form adds worker-client.js ${client.raw}/${client.gzip} on the page, ` +
        `and the worker loads ${worker} ${workerRaw}/${workerGzip} (bytes/gzip -9)`);
    }
  });
});

// ---- Node ----------------------------------------------------------------------------
describe('Node', () => {
  let dir;
  before(async () => {
    dir = await consumer('node-app', {}, {
      'check.cjs': checkCommonJs,
      'check.mjs': checkModule,
      'require.cjs': `const before = [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
const lib = require('onnx-ops-wasm');
const { check } = require('./check.cjs');
check(lib).then((result) => {
  const after = [process.listenerCount('uncaughtException'), process.listenerCount('unhandledRejection')];
  console.log(JSON.stringify({ result, listeners: [before, after], esModule: lib.__esModule === true, hasDefault: 'default' in lib }));
});
`,
      'worker.mjs': `import * as lib from 'onnx-ops-wasm';
import { checkWorker } from './check.mjs';
console.log(JSON.stringify(await checkWorker(lib)));
`,
      'worker.cjs': `const lib = require('onnx-ops-wasm');
const { checkWorker } = require('./check.cjs');
checkWorker(lib).then((result) => console.log(JSON.stringify(result)));
`,
      // A worker form left with a tensor in the worker, then closed or not (argv[2]), with nothing else to do.
      'exit.mjs': `import { createOps } from 'onnx-ops-wasm';
const ops = await createOps({ worker: true });
const t = await ops.tensor('float32', [2], new Float32Array([-1, 2]));
const r = await ops.read(await ops.relu(t));
if (process.argv[2] === 'close') await ops.close();
console.log(JSON.stringify(Array.from(r.data)));
`,
      'exit.cjs': `require('onnx-ops-wasm').createOps({ worker: true }).then(async (ops) => {
  const r = await ops.max([new Float32Array([-1, 2]), new Float32Array([0, 0])]);
  if (process.argv[2] === 'close') await ops.close();
  console.log(JSON.stringify(Array.from(r.data)));
});
`,
      'import.mjs': `import { readFileSync } from 'node:fs';
const globalsBefore = Object.keys(globalThis).sort().join();
const lib = await import('onnx-ops-wasm');
const hasDefault = 'default' in lib;
const globalsAfter = Object.keys(globalThis).sort().join();
import { check } from './check.mjs';
const result = await check(lib);
// The raw wasm, for those who load it themselves: createOps({ wasmBinary }).
const wasmBinary = readFileSync(new URL(import.meta.resolve('onnx-ops-wasm/wasm')));
const ops = await lib.createOps({ wasmBinary });
const viaBinary = Array.from(ops.relu(new Float32Array([-1, 3])).data);
const version = JSON.parse(readFileSync(new URL(import.meta.resolve('onnx-ops-wasm/package.json')), 'utf8')).version;
// Bytes that are no wasm, or not this package's: an OnnxOpsError, nothing on the console (stderr is checked).
const badBinary = [];
for (const bytes of [new Uint8Array([1, 2, 3, 4]), new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]), 'abc']) {
  await lib.createOps({ wasmBinary: bytes }).then(() => badBinary.push('resolved'),
    (e) => badBinary.push(e instanceof lib.OnnxOpsError ? e.code : String(e)));
}
// The CommonJS build beside this ES module build: separate classes, so the
// other's tensors are FOREIGN_TENSOR (not read as plain data).
const cjs = (await import('node:module')).createRequire(import.meta.url)('onnx-ops-wasm');
const cjsOps = await cjs.createOps();
const esmTensor = ops.tensor('float32', [2], new Float32Array([-1, 3]));
const foreign = [() => cjsOps.relu(esmTensor), () => cjsOps.max([new Float32Array(2), esmTensor]),
  () => cjsOps.relu(new Float32Array(2), { out: esmTensor })].map((f) => {
  try { f(); return 'no error'; } catch (e) { return e.code; }
});
// The error class keeps its name through minification; console.log shows a tensor's fields, not the module.
const names = [lib.OnnxOpsError.name, cjs.OnnxOpsError.name];
const shown = (await import('node:util')).inspect(esmTensor);
console.log(JSON.stringify({ result, sameGlobals: globalsBefore === globalsAfter, viaBinary, version, badBinary, foreign, names, shown, hasDefault }));
`,
    });
    cpSync(join(ROOT, 'examples', 'node-cjs.cjs'), join(dir, 'node-cjs.cjs'));
    cpSync(join(ROOT, 'examples', 'node-esm.mjs'), join(dir, 'node-esm.mjs'));
    cpSync(join(ROOT, 'examples', 'worker-form.mjs'), join(dir, 'worker-form.mjs'));
  });

  test('require() (CommonJS) runs Max with broadcasting and Relu, and installs no process listeners', async () => {
    const { stdout } = await sh(process.execPath, ['require.cjs'], dir);
    const out = JSON.parse(stdout);
    assert.deepEqual(out.result, EXPECTED);
    assert.deepEqual(out.listeners[1], out.listeners[0], 'createOps() added process listeners');
    assert.equal(out.esModule, true);
    assert.equal(out.hasDefault, false, 'the types declare no default export');
  });

  test('import (ES module) runs Max with broadcasting and Relu, adds no globals; onnx-ops-wasm/wasm loads, bad bytes reject quietly; the CommonJS build refuses its tensors', async () => {
    const { stdout, stderr } = await sh(process.execPath, ['import.mjs'], dir);
    const out = JSON.parse(stdout);
    assert.deepEqual(out.result, EXPECTED);
    assert.equal(out.sameGlobals, true, 'importing the package changed globalThis');
    assert.deepEqual(out.viaBinary, [0, 3]);
    assert.equal(out.version, JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    assert.deepEqual(out.badBinary, ['INVALID_ARGUMENT', 'INVALID_ARGUMENT', 'INVALID_ARGUMENT']);
    assert.equal(stderr, '', 'loading bad wasm bytes printed to the console');
    assert.deepEqual(out.foreign, ['FOREIGN_TENSOR', 'FOREIGN_TENSOR', 'FOREIGN_TENSOR']);
    assert.deepEqual(out.names, ['OnnxOpsError', 'OnnxOpsError']);
    assert.match(out.shown, /^\w+ \{ dtype: 'float32', shape: \[ 2 \], size: 2, byteLength: 8 \}$/);
    assert.equal(out.hasDefault, false, 'the types declare no default export');
  });

  test('the worker form from import and require(): the sync form\'s results byte for byte, copy or transfer, out, order, handles, misuse, close', async () => {
    for (const script of ['worker.mjs', 'worker.cjs']) {
      const { stdout, stderr } = await run(process.execPath, [script], { cwd: dir, timeout: 60_000 });
      assert.deepEqual(JSON.parse(stdout), EXPECTED_WORKER, script);
      assert.equal(stderr, '', `${script} printed to stderr`);
    }
  });

  test('a Node process using the worker form exits by itself, after `await ops.close()` and without it', async () => {
    for (const script of ['exit.mjs', 'exit.cjs']) {
      for (const close of ['close', 'no-close']) {
        let out;
        try {
          out = await run(process.execPath, [script, close], { cwd: dir, timeout: 20_000 });
        } catch (e) {
          assert.fail(`${script} ${close}: ${e.killed ? 'still running after 20 s (killed)' : `exit code ${e.code}`}\n${e.stderr}`);
        }
        assert.deepEqual(JSON.parse(out.stdout), [0, 2], `${script} ${close}`);
      }
    }
  });

  test('examples/worker-form.mjs runs against the installed package and exits', async () => {
    const { stdout } = await run(process.execPath, ['worker-form.mjs'], { cwd: dir, timeout: 20_000 });
    assert.match(stdout, /^worker: true, backend: wasm-simd$/m);
    assert.match(stdout, /^Relu \[ 2, 3 \] \[ 0, 0, 0, 1, 2, 3 \] input kept \[ -3, -1, 0, 1, 2, 3 \]$/m);
    assert.match(stdout, /^Max \[ 3 \] \[ 1, 1, 2\.5 \] transferred input length 0$/m);
    assert.match(stdout, /^Relu int8 into out \[ 0, 0, 0, 127 \]$/m);
    assert.match(stdout, /^Max in the worker, read \[ 2, 2, 7 \]$/m);
    assert.match(stdout, /^error BROADCAST_MISMATCH: Max: input 1: shape \[4\]/m);
  });

  test('examples/node-cjs.cjs and examples/node-esm.mjs run against the installed package', async () => {
    const cjs = (await sh(process.execPath, ['node-cjs.cjs'], dir)).stdout;
    assert.match(cjs, /Max float16 \[ 1\.5, 0, 65504 \]/);
    assert.match(cjs, /Relu int64 \[ '0', '4611686018427387904' \]/);
    const esm = (await sh(process.execPath, ['node-esm.mjs'], dir)).stdout;
    assert.match(esm, /Relu \[ 2, 3 \] \[ 0, 0, 0, 1, 2, 3 \]/);
    assert.match(esm, /Max \[ 2, 3 \] \[ 0\.5, -1, 2\.5, 1, 2, 3 \]/);
    assert.match(esm, /error BROADCAST_MISMATCH/);
  });

  test('the worker form without its files beside the library: a typed UNSUPPORTED_ENGINE naming the missing file, and the process exits', async () => {
    const dir = await consumer('missing-app', {}, {
      'try.mjs': `import { createOps, OnnxOpsError } from 'onnx-ops-wasm';
createOps({ worker: true }).then(() => console.log('resolved'), (e) => console.log(\`\${e instanceof OnnxOpsError} \${e.code} \${e.message}\`));
`,
      'try.cjs': `const { createOps, OnnxOpsError } = require('onnx-ops-wasm');
createOps({ worker: true }).then(() => console.log('resolved'), (e) => console.log(\`\${e instanceof OnnxOpsError} \${e.code} \${e.message}\`));
`,
    });
    const lib = join(dir, 'node_modules', 'onnx-ops-wasm', 'dist');
    for (const file of ['onnx-ops-wasm-worker.js', 'worker-client.js']) {
      for (const kind of ['esm', 'cjs']) rmSync(join(lib, kind, file));
      for (const script of ['try.mjs', 'try.cjs']) {
        const { stdout } = await run(process.execPath, [script], { cwd: dir, timeout: 20_000 });
        const named = file.replace('.', '\\.');
        assert.match(stdout, new RegExp(`^true UNSUPPORTED_ENGINE createOps: could not (start the worker from |load )${named}`), `${script} without ${file}`);
      }
    }
  });

  test('an esbuild bundle for Node (esm and cjs): the worker form once the worker\'s file is beside the bundle, a typed error naming it until then', async () => {
    const esbuild = await import('esbuild');
    const app = await consumer('esbuild-node-app', { type: 'module' }, {
      'src/main.js': `import { createOps, OnnxOpsError } from 'onnx-ops-wasm';
createOps({ worker: true }).then(async (ops) => console.log(Array.from((await ops.relu(new Float32Array([-1, 2]))).data).join()),
  (e) => console.log(\`\${e instanceof OnnxOpsError} \${e.code} \${e.message}\`));
`,
    });
    for (const format of ['esm', 'cjs']) {
      const result = await esbuild.build({
        absWorkingDir: app, entryPoints: ['src/main.js'], outfile: `out/main.${format === 'esm' ? 'mjs' : 'cjs'}`,
        bundle: true, format, platform: 'node', logLevel: 'silent',
      });
      assert.deepEqual([...result.warnings, ...result.errors], [], `esbuild (${format}) warned`);
    }
    // Run where the package is not installed: the bundle has only what sits beside it.
    const out = join(app, 'out');
    rmSync(join(app, 'node_modules'), { recursive: true });
    const runs = async (file) => (await run(process.execPath, [file], { cwd: out, timeout: 20_000 })).stdout.trim();
    // esbuild inlines the literal import() of worker-client.js; the worker's file it leaves to be copied (docs/API.md).
    const missing = /^true UNSUPPORTED_ENGINE createOps: could not start the worker from onnx-ops-wasm-worker\.js: /;
    assert.match(await runs('main.mjs'), missing);
    assert.match(await runs('main.cjs'), missing);
    cpSync(join(unpacked, 'dist', 'esm', 'onnx-ops-wasm-worker.js'), join(out, 'onnx-ops-wasm-worker.js'));
    assert.equal(await runs('main.mjs'), '0,2');
    // The CommonJS output empties import.meta: the worker's file is found by __dirname (an ES module here: "type": "module").
    assert.equal(await runs('main.cjs'), '0,2');
  });

  test('onnx-ops-wasm/wasm as esbuild\'s file asset: import and require() give its URL (as its types say), whose bytes createOps() takes', async () => {
    const esbuild = await import('esbuild');
    const app = await consumer('asset-app', { type: 'module' }, {
      'src/esm.js': `import { readFileSync } from 'node:fs';
import { createOps } from 'onnx-ops-wasm';
import wasmUrl from 'onnx-ops-wasm/wasm';
const ops = await createOps({ wasmBinary: readFileSync(new URL(wasmUrl, import.meta.url)) });
console.log(JSON.stringify({ type: typeof wasmUrl, relu: Array.from(ops.relu(new Float32Array([-1, 3])).data) }));
`,
      'src/cjs.cjs': `const wasmUrl = require('onnx-ops-wasm/wasm');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
require('onnx-ops-wasm').createOps({ wasmBinary: readFileSync(join(__dirname, wasmUrl)) }).then((ops) =>
  console.log(JSON.stringify({ type: typeof wasmUrl, relu: Array.from(ops.relu(new Float32Array([-1, 3])).data) })));
`,
    });
    for (const [entry, format, outfile] of [['src/esm.js', 'esm', 'out/esm.mjs'], ['src/cjs.cjs', 'cjs', 'out/cjs.cjs']]) {
      const result = await esbuild.build({
        absWorkingDir: app, entryPoints: [entry], outfile, bundle: true, format, platform: 'node',
        loader: { '.wasm': 'file' }, logLevel: 'silent',
      });
      assert.deepEqual([...result.warnings, ...result.errors], [], `esbuild (${format}) warned`);
      assert.deepEqual(JSON.parse((await sh(process.execPath, [outfile], app)).stdout), { type: 'string', relu: [0, 3] }, format);
    }
  });
});

// ---- TypeScript ----------------------------------------------------------------------
describe('TypeScript', () => {
  const esm = `import {
  type DType, type OrtTensorData, type Result, type TensorLike, type TransferOption, type WorkerOps, WasmTensor, OnnxOpsError,
  createOps, toOrt, toDType,
} from 'onnx-ops-wasm';

const ops = await createOps({ scratchBytes: 1 << 16 });
const a = { dtype: 'float32', shape: [2, 3], data: new Float32Array(6) } as const;
const r: Result = ops.max([a, new Float32Array(3), { type: 'float32', dims: [], data: new Float32Array(1) }], { opset: 13 });
const shape: number[] = r.shape;
const dtype: DType = r.dtype;
const w: WasmTensor = ops.tensor('int64', [2], new BigInt64Array(2));
const w2: WasmTensor = ops.relu(w);
const w3: WasmTensor = ops.max([w, w2], { out: w });
const inputs: TensorLike[] = [w, a];
const plain = ops.relu(new Int8Array(3), { opset: 14 }).data;
const ort: OrtTensorData = toOrt(r);
const d: DType = toDType(16);
try { ops.max([]); } catch (e) { if (e instanceof OnnxOpsError) { const code: string = e.code; void code; } }
// @ts-expect-error max takes an array of inputs
ops.max(a, a);
// @ts-expect-error not an option
ops.relu(a, { opset: '13' });
// @ts-expect-error a shape is an array
ops.tensor('float32', 3);
void [shape, dtype, w3, inputs, plain, ort, d];

// The worker form: the same calls, Promises; its types need no DOM library.
const wops: WorkerOps = await createOps({ worker: true });
const wr: Result = await wops.max([a, new Float32Array(3)], { transfer: true, opset: 13 });
const wt: WasmTensor = await wops.tensor('float32', [3]);
const wt2: WasmTensor = await wops.relu(wt, { out: wt });
const read: Result = await wops.read(wt2);
const transfer: TransferOption = { transfer: false };
const close: () => Promise<void> = wops[Symbol.asyncDispose];
// @ts-expect-error the worker form's ops return Promises
const notYet: Result = wops.relu(a);
await wops.close();
void [wr, read, transfer, close, notYet];
`;
  // `await using` needs TypeScript's esnext.disposable library (AsyncDisposable), as any `await using` does.
  const awaitUsing = `import { createOps } from 'onnx-ops-wasm';
{
  await using ops = await createOps({ worker: true });
  await ops.relu(new Float32Array(1));
}
`;
  const cjs = `import lib = require('onnx-ops-wasm');
import { createOps, type Result } from 'onnx-ops-wasm';
export async function main(): Promise<number[]> {
  const ops = await lib.createOps();
  const r: Result = (await createOps()).relu(new Float32Array([-1, 1]));
  return [...ops.max([new Float32Array(1)]).shape, ...r.shape];
}
`;
  // What attw calls node16 (from ESM): import gets the ES module declarations
  // (.d.mts), which, like the ES module build, have no default export.
  const fromEsm = `import * as onnxOps from 'onnx-ops-wasm';
import { createOps, type Result, WasmTensor } from 'onnx-ops-wasm';
// @ts-expect-error the package has no default export (Node's import finds none)
import missing from 'onnx-ops-wasm';
import wasmUrl from 'onnx-ops-wasm/wasm';

const ops: onnxOps.Ops = await onnxOps.createOps();
const same: typeof createOps = onnxOps.createOps;
const r: Result = ops.relu(new Float32Array(2));
const w: WasmTensor = ops.tensor('float32', [1], new Float32Array(1));
const url: string = wasmUrl;
void [same, r, w, url, missing];
`;
  // node16 (from CommonJS): require gets the CommonJS declarations (.d.ts), a
  // dynamic import() the ES module ones.
  const fromCjs = `import onnxOps = require('onnx-ops-wasm');
import * as ns from 'onnx-ops-wasm';
import { createOps, type Result } from 'onnx-ops-wasm';
// @ts-expect-error the package has no default export (require() gives __esModule and no default)
import missing from 'onnx-ops-wasm';
import wasmUrl = require('onnx-ops-wasm/wasm');
import wasmUrlToo from 'onnx-ops-wasm/wasm';

export async function main(): Promise<unknown[]> {
  const ops = await onnxOps.createOps();
  const r: Result = (await ns.createOps()).max([new Float32Array(1), new Float32Array(3)]);
  const esm = await import('onnx-ops-wasm');
  const fromEsm: Result = (await esm.createOps()).relu(new Int8Array(2));
  const urls: string[] = [wasmUrl, wasmUrlToo];
  return [ops.simd, r, fromEsm, urls, createOps, missing];
}
`;
  // onnxruntime-common's types need the DOM library: a file of their own.
  const ort = `import { type Result, createOps, toOrt } from 'onnx-ops-wasm';
import { Tensor } from 'onnxruntime-common';

const ops = await createOps();
const r: Result = ops.relu(new Float32Array(2));
const t: Tensor = toOrt(r, { Tensor });
const again = new Tensor(toOrt(r).type, toOrt(r).data, toOrt(r).dims);
const back = toOrt(t, { bfloat16: 'float32' });
void [again, back];
`;
  // An ort.Tensor as an op input (it works at run time; the Jest interop suite runs it).
  const ortInput = `import { type Result, createOps } from 'onnx-ops-wasm';
import { Tensor } from 'onnxruntime-common';

const ops = await createOps();
const r: Result = ops.max([new Tensor('float32', new Float32Array(3), [3]), new Float32Array(3)]);
const s: Result = ops.relu(new Tensor('int8', new Int8Array(2), [2]), { opset: 14 });
void [r, s];
`;
  const tsconfig = (compilerOptions, files) => JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, target: 'es2022', lib: ['es2022'], types: [], skipLibCheck: false, ...compilerOptions },
    files,
  }, null, 2);
  let dir;
  let cjsDir;
  before(async () => {
    dir = await consumer('ts-app', { type: 'module' }, {
      'esm.ts': esm,
      'cjs.cts': cjs,
      'from-esm.mts': fromEsm,
      'tsconfig.node16.json': tsconfig({ module: 'node16', moduleResolution: 'node16' }, ['esm.ts', 'cjs.cts', 'from-esm.mts']),
      'tsconfig.nodenext.json': tsconfig({ module: 'nodenext', moduleResolution: 'nodenext' }, ['esm.ts', 'cjs.cts', 'from-esm.mts']),
      'tsconfig.bundler.json': tsconfig({ module: 'esnext', moduleResolution: 'bundler' }, ['esm.ts', 'from-esm.mts']),
      'ort.ts': ort,
      'tsconfig.ort.json': tsconfig({ module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'] }, ['ort.ts']),
      'ort-input.ts': ortInput,
      'tsconfig.ort-input.json': tsconfig({ module: 'nodenext', moduleResolution: 'nodenext', lib: ['es2022', 'dom'] }, ['ort-input.ts']),
      'await-using.ts': awaitUsing,
      'tsconfig.await-using.json': tsconfig({ module: 'nodenext', moduleResolution: 'nodenext', lib: ['esnext'] }, ['await-using.ts']),
    }, ['onnxruntime-common']);
    // A package of type commonjs: its .ts files are CommonJS.
    cjsDir = await consumer('ts-cjs-app', { type: 'commonjs' }, {
      'from-cjs.ts': fromCjs,
      'tsconfig.node16.json': tsconfig({ module: 'node16', moduleResolution: 'node16' }, ['from-cjs.ts']),
      'tsconfig.nodenext.json': tsconfig({ module: 'nodenext', moduleResolution: 'nodenext' }, ['from-cjs.ts']),
      'tsconfig.node10.json': tsconfig({ module: 'commonjs', moduleResolution: 'node10', esModuleInterop: true }, ['from-cjs.ts']),
    });
  });
  for (const resolution of ['node16', 'nodenext', 'bundler']) {
    test(`tsc --noEmit, moduleResolution ${resolution}, from ES modules${resolution === 'bundler' ? '' : ' and a .cts'} (strict, no skipLibCheck, lib es2022 without DOM)`, async () => {
      await sh(process.execPath, [nodeBin('typescript/bin/tsc'), '-p', `tsconfig.${resolution}.json`], dir);
    });
  }
  for (const resolution of ['node16', 'nodenext', 'node10']) {
    test(`tsc --noEmit, moduleResolution ${resolution}, from CommonJS (a package of type commonjs)`, async () => {
      await sh(process.execPath, [nodeBin('typescript/bin/tsc'), '-p', `tsconfig.${resolution}.json`], cjsDir);
    });
  }
  test('tsc --noEmit: toOrt() with onnxruntime-common\'s Tensor class', async () => {
    await sh(process.execPath, [nodeBin('typescript/bin/tsc'), '-p', 'tsconfig.ort.json'], dir);
  });
  test('tsc --noEmit: `await using` the worker form (lib esnext)', async () => {
    await sh(process.execPath, [nodeBin('typescript/bin/tsc'), '-p', 'tsconfig.await-using.json'], dir);
  });
  test('tsc --noEmit: an onnxruntime-common Tensor as an op input', async () => {
    await sh(process.execPath, [nodeBin('typescript/bin/tsc'), '-p', 'tsconfig.ort-input.json'], dir);
  });
});

// ---- browsers ------------------------------------------------------------------------
describe('browsers (headless Chromium)', () => {
  describe('plain pages importing dist/esm (examples/ and a strict Content-Security-Policy)', () => {
    let server;
    before(async () => {
      const dir = await consumer('static-app', {}, {
        'csp/index.html': html('/csp/listen.js').replace('</script>', '</script>\n<script type="module" src="/csp/main.js"></script>'),
        'csp/listen.js': `window.violations = [];
document.addEventListener('securitypolicyviolation', (e) => window.violations.push(\`\${e.violatedDirective} \${e.blockedURI}\`));
`,
        'csp/check.js': checkModule,
        'csp/main.js': mainModule("'/dist/esm/index.js'", "'/csp/worker.js'"),
        'csp/worker.js': `const violations = [];
self.addEventListener('securitypolicyviolation', (e) => violations.push(\`\${e.violatedDirective} \${e.blockedURI}\`));
import('/dist/esm/index.js').then(async (lib) => {
  const { check } = await import('/csp/check.js');
  const result = await check(lib);
  self.postMessage(violations.length ? { error: 'CSP violations: ' + violations.join('; ') } : { result });
}).catch((e) => self.postMessage({ error: String(e && e.stack || e) }));
`,
        'csp/control.html': html('/csp/control.js'),
        'csp/control.js': `let evalBlocked = false;
try { new Function('return 1')(); } catch (e) { evalBlocked = e instanceof EvalError; }
// The smallest wasm module: instantiating it needs 'wasm-unsafe-eval'.
WebAssembly.instantiate(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0])).then(
  () => { window.control = { evalBlocked, wasm: true }; },
  () => { window.control = { evalBlocked, wasm: false }; });
`,
      });
      // The policy on the library's files too: a worker's policy is its script's (the worker form's, from /dist/).
      server = await serve([
        ['/dist/', join(dir, 'node_modules', 'onnx-ops-wasm', 'dist')],
        ['/examples/', join(ROOT, 'examples')],
        ['/csp/', join(dir, 'csp')],
      ], (path) => (path.startsWith('/csp/') || path.startsWith('/dist/') ? { 'Content-Security-Policy': CSP } : {}));
    });
    after(() => server?.close());

    test('examples/browser.html shows Max with broadcasting and Relu', async () => {
      const { value } = await openPage(`${server.url}/examples/browser.html`,
        () => !document.getElementById('out').textContent.startsWith('loading') && document.getElementById('out').textContent);
      assert.equal(value, 'Max [2,3]: 2, 5, 3, 4, 2, 6 (SIMD: true)\nRelu [4]: 0, 0, 2, 0');
    });

    test('examples/worker.html runs the ops in a module worker', async () => {
      const { value } = await openPage(`${server.url}/examples/worker.html`,
        () => !document.getElementById('out').textContent.startsWith('loading') && document.getElementById('out').textContent);
      assert.equal(value, 'Max [2,3]: 2, 5, 3, 4, 2, 6\nRelu [4]: 0, 0, 2, 0');
    });

    test('examples/worker-form.html runs the ops through createOps({ worker: true })', async () => {
      const { value, workers } = await openPage(`${server.url}/examples/worker-form.html`,
        () => !document.getElementById('out').textContent.startsWith('loading') && document.getElementById('out').textContent);
      assert.equal(value, 'Max [2,3]: 2, 5, 3, 4, 2, 6 (worker: true, backend: wasm-simd)\n' +
        'Relu [4]: 0, 0, 2, 0 (the input kept: -3, 0, 2, -1)\nRelu in the worker, read: 0, 0, 7\n' +
        'Max of [2] and [3]: BROADCAST_MISMATCH');
      assertWorkerFile(workers, server.url, /^\/dist\/esm\/onnx-ops-wasm-worker\.js$/, 'examples/worker-form.html');
    });

    test(`a plain <script type="module"> page under Content-Security-Policy: ${CSP}: page, module worker and the worker form, no violation`, async () => {
      const { value, workers } = await openPage(`${server.url}/csp/`,
        () => (window.result || window.failure) &&
          { ...(window.result ?? { failure: window.failure }), violations: window.violations });
      assert.deepEqual(value.violations, [], 'CSP violations');
      delete value.violations;
      assertChecked(value, 'CSP page');
      assertWorkerFile(workers, server.url, /^\/dist\/esm\/onnx-ops-wasm-worker\.js$/, 'CSP page');
      // The control: the policy is in force (no eval), and it allows wasm.
      const control = await openPage(`${server.url}/csp/control.html`, () => window.control, { allowProblems: true });
      assert.deepEqual(control.value, { evalBlocked: true, wasm: true });
    });
  });
});
