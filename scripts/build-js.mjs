// Builds the package in dist/ from js/src and the wasm module in build/wasm:
//
//   dist/esm/index.js             the TypeScript API and the Emscripten glue, one minified
//                                 ES module (+ .map), which statically imports
//   dist/esm/onnx-ops-wasm-data.js  the wasm, zlib-compressed (base64), inflated at load
//                                 time with DecompressionStream('deflate')
//   dist/esm/onnx-ops-wasm-scalar.js   the module built without SIMD128 (the `wasm`
//                                 backend), its glue and its wasm (base64, not
//                                 compressed: engines without SIMD128 may lack
//                                 DecompressionStream too), loaded only where chosen
//   dist/esm/backend-js.js        the `js` backend (JavaScript kernels), likewise
//   dist/esm/worker-client.js     the worker form's page side, likewise
//   dist/esm/inflate.js           a zlib inflater, loaded only where DecompressionStream is
//                                 missing or throws, likewise
//   dist/esm/wasm-host.js         a compiled WebAssembly.Module's instantiation, and why an engine
//                                 refused to compile bytes, likewise
//   dist/esm/edge.js              the 'workerd' and 'edge-light' conditions' entry: index.js
//                                 with the wasm imported as ../onnx-ops-wasm.wasm?module (a
//                                 WebAssembly.Module there), nothing embedded; ESM only
//   dist/esm/onnx-ops-wasm-worker.js  the worker form's worker: the library with both fallbacks
//                                 inlined, importing nothing (a tool that copies it as it is works)
//   dist/esm/js.js                onnx-ops-wasm/js (and React Native's entry): the API on the js
//                                 backend alone, one file with no import(), import.meta or require()
//   dist/cjs/...                  the same as CommonJS
//   dist/types/*.d.ts             declarations (tsc; also type-checks js/src), CommonJS ones by the
//                                 root package.json's "type": "commonjs": for `require` and node10
//   dist/types/*.d.mts            the same as ES module declarations, for `import`
//   dist/types/wasm-asset.d.ts    what importing the `onnx-ops-wasm/wasm` asset gives in a bundler
//   dist/types/wasm-module.d.ts   what importing onnx-ops-wasm/onnx-ops-wasm.wasm gives where .wasm is a module
//   dist/onnx-ops-wasm.wasm       the raw wasm, for createOps({ wasmBinary }) and edge.js
//
// The glue comes from build/wasm/module/esm/onnx-ops-wasm.js, its wasm from the
// onnx-ops-wasm.wasm beside it. The wasm bytes are always passed in as
// Module.wasmBinary, which the glue uses without fetching anything (no URL, no file
// next to the script: bundlers need no configuration); its one reference to the
// file's URL (`new URL(..., import.meta.url)`, which bundlers would try to resolve
// and which throws in the CommonJS build) is replaced by the bare file name.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync, inflateSync } from 'node:zlib';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const tmp = join(root, 'build', 'js');
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
const project = join(root, 'js', 'tsconfig.build.json');
// The wasm must come as a file beside the glue, not as a data URI in it (-sSINGLE_FILE).
const DATA_URI = /"data:application\/octet-stream;base64,[A-Za-z0-9+/=]+"/;

rmSync(dist, { recursive: true, force: true });
rmSync(tmp, { recursive: true, force: true });
mkdirSync(tmp, { recursive: true });

// Declarations (and the type check of js/src).
const types = join(dist, 'types');
execFileSync(process.execPath, [tsc, '-p', project, '--module', 'es2020', '--moduleResolution', 'bundler',
  '--declaration', '--emitDeclarationOnly', '--outDir', types], { stdio: 'inherit' });
mkdirSync(join(types, 'wasm'), { recursive: true });
copyFileSync(join(root, 'js', 'src', 'wasm', 'onnx-ops-wasm.d.ts'), join(types, 'wasm', 'onnx-ops-wasm.d.ts'));

/**
 * TypeScript reads a .d.ts as the format of the JavaScript beside it would be
 * (the root package.json's "type": CommonJS), so the ES module build gets its
 * own copy as .d.mts, whose relative imports name .mjs files (declared by the
 * .d.mts beside them): every declaration file, whatever js/src holds.
 */
function esmDeclarations(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const file = join(dir, entry.name);
    if (entry.isDirectory()) {
      esmDeclarations(file);
      continue;
    }
    if (!entry.name.endsWith('.d.ts')) continue;
    const text = readFileSync(file, 'utf8');
    const relative = /((?:\bfrom|\bimport)\s*\(?\s*)(['"])(\.{1,2}\/[^'"]*)\2/g;
    const rewritten = text.replace(relative, (_, before, quote, path) => {
      // tsc keeps the specifiers of js/src, which name the emitted .js files.
      if (!path.endsWith('.js')) throw new Error(`build-js: ${file}: relative import ${path} does not end in .js`);
      return `${before}${quote}${path.slice(0, -3)}.mjs${quote}`;
    });
    writeFileSync(file.slice(0, -'.d.ts'.length) + '.d.mts', rewritten);
  }
}
esmDeclarations(types);

// The CommonJS build marks its exports __esModule (esbuild's interop), so a
// CommonJS `import x from` reads their `default`, which is undefined: declared,
// __esModule makes TypeScript reject that import instead of guessing x to be
// the whole module.
for (const entry of ['index.d.ts', 'js.d.ts']) {
  const cjsEntry = join(types, entry);
  writeFileSync(cjsEntry, readFileSync(cjsEntry, 'utf8') + `/** Set on the CommonJS build's exports: there is no default export. */
export declare const __esModule: true;
`);
}

/**
 * The declaration of an export that is the raw wasm file, no module of either
 * format: `export =` types its default import from ES modules and require()
 * alike (one declaration, no .d.mts twin).
 */
function wasmFileTypes(file, doc, name, type) {
  const out = join(types, file);
  if (existsSync(out)) throw new Error(`build-js: tsc emitted ${out}, the name of a wasm export's declaration`);
  writeFileSync(out, `/**\n${doc.map((l) => ` * ${l}`.trimEnd()).join('\n')}\n */\ndeclare const ${name}: ${type};\nexport = ${name};\n`);
}
// `onnx-ops-wasm/wasm`: to resolve (import.meta.resolve, require.resolve) or, in
// a bundler that treats .wasm as an asset, to import as its URL.
wasmFileTypes('wasm-asset.d.ts', [
  'onnx-ops-wasm/wasm is the package\'s wasm module, the file dist/onnx-ops-wasm.wasm:',
  'its bytes are createOps({ wasmBinary }). In Node, resolve it',
  '(import.meta.resolve(\'onnx-ops-wasm/wasm\'), require.resolve) and read the file.',
  'A bundler that treats .wasm files as assets (esbuild\'s file loader, for one)',
  'gives the file\'s URL as the module\'s default export: this string.',
], 'wasmUrl', 'string');
// `onnx-ops-wasm/onnx-ops-wasm.wasm`: the same file under a name ending in .wasm,
// which bundlers that import .wasm files as modules match (wrangler's CompiledWasm rule).
wasmFileTypes('wasm-module.d.ts', [
  'onnx-ops-wasm/onnx-ops-wasm.wasm is the package\'s wasm module, the file',
  'dist/onnx-ops-wasm.wasm (as onnx-ops-wasm/wasm). A bundler that imports .wasm',
  'files as modules (wrangler; Next.js and Vercel\'s edge as a ?module import)',
  'gives a WebAssembly.Module (declared as an object: these declarations need no',
  'DOM or Node types): pass it as createOps({ wasmBinary }).',
], 'wasmModule', 'object');

const moduleDir = (kind) => join(root, 'build', 'wasm', 'module', kind);
const isWasm = (b) => b.length > 8 && b.readUInt32LE(0) === 0x6d736100;

/** The ES module glue in `dir`, its URL of the wasm file replaced (see above), and the wasm bytes. */
function esmGlueAndWasm(dir = moduleDir('esm')) {
  const glue = readFileSync(join(dir, 'onnx-ops-wasm.js'), 'utf8');
  const wasm = readFileSync(join(dir, 'onnx-ops-wasm.wasm'));
  if (!isWasm(wasm)) throw new Error(`build-js: ${dir}/onnx-ops-wasm.wasm is not a wasm module`);
  const url = 'new URL("onnx-ops-wasm.wasm",import.meta.url).toString()';
  const parts = glue.split(url);
  if (parts.length !== 2) throw new Error(`build-js: expected one ${url} in the esm glue, found ${parts.length - 1}`);
  const out = parts.join('"onnx-ops-wasm.wasm"');
  if (DATA_URI.test(out)) throw new Error('build-js: the esm glue carries a data URI (built with -sSINGLE_FILE?)');
  // Its _scriptDir (import.meta.url) locates nothing, as the bytes are always
  // passed in, and webpack and rspack would write the build machine's path there.
  const scriptDir = 'var _scriptDir = import.meta.url;';
  if (out.split(scriptDir).length !== 2) throw new Error(`build-js: expected one ${scriptDir} in the esm glue`);
  const noMeta = out.replace(scriptDir, 'var _scriptDir = undefined;');
  if (noMeta.includes('import.meta')) throw new Error('build-js: the esm glue reads import.meta beyond its _scriptDir');
  return { glue: noMeta, wasm };
}

const esmGlue = esmGlueAndWasm();
const wasm = esmGlue.wasm;
writeFileSync(join(dist, 'onnx-ops-wasm.wasm'), wasm);

/**
 * The wasm as a zlib stream (deflate with its 2-byte header and Adler-32:
 * DecompressionStream's 'deflate' format, which every runtime with
 * DecompressionStream reads, where 'deflate-raw' came later, e.g. Chrome 103),
 * by Zopfli (Debian's zopfli, which scripts/setup.sh installs), smaller than
 * zlib's level 9 and inflated the same way. Without it, zlib, with a warning
 * (the package test's size budget may then fail).
 */
function deflateWasm() {
  const file = join(tmp, 'onnx-ops-wasm.wasm');
  writeFileSync(file, wasm);
  try {
    const out = execFileSync('zopfli', ['--zlib', '--i15', '-c', file], { maxBuffer: 1 << 26 });
    if (!inflateSync(out).equals(wasm)) throw new Error('zopfli output does not inflate to the wasm');
    return out;
  } catch (e) {
    console.warn(`build-js: WARNING: no Zopfli (${e.code === 'ENOENT' ? 'zopfli not installed: bash scripts/setup.sh' : e.message}); ` +
      'the embedded wasm is deflated by zlib, about 5 % larger');
    return deflateSync(wasm, { level: 9 });
  }
}
const wasmDeflated = deflateWasm();

// What js/src/index.ts imports as ./wasm/onnx-ops-wasm.js: the glue's factory, given the wasm bytes.
// What the runtime lacks to inflate them it only names (as the rejection's
// \`missing\`): createOps() turns that into its UNSUPPORTED_ENGINE error.
// Both loaders' embedded bytes, decoded from base64.
const DECODE_BASE64 = 'Uint8Array.from(atob(ONNX_OPS_WASM_BASE64), (c) => c.charCodeAt(0))';
const loader = (glueImport) => `${glueImport}
// The wasm module, zlib-compressed and base64, is ONNX_OPS_WASM_BASE64: bound
// at the very end of the bundle, from a file of its own (see below).
let bytes;

const missing = (what) => Promise.reject(Object.assign(new Error('onnx-ops-wasm: no ' + what), { missing: what }));

/**
 * The wasm bytes, inflated once per JavaScript realm: by DecompressionStream,
 * or where it is missing or throws (Next.js's edge runtime's does), by the
 * library's own inflater, a file of its own that only such runtimes load.
 */
function wasmBytes() {
  if (!bytes) {
    const deflated = ${DECODE_BASE64};
    let stream;
    try {
      stream = new Blob([deflated]).stream().pipeThrough(new DecompressionStream('deflate'));
    } catch {}
    bytes = (stream ? new Response(stream).arrayBuffer() : import("./inflate.js").then((m) => m.inflate(deflated), (e) =>
      missing("DecompressionStream('deflate') and the library's inflate.js (it did not load: " + (e && e.message || e) + ')'))
    ).catch((e) => {
      bytes = undefined;
      throw e;
    });
  }
  return bytes;
}

// No WebAssembly.Module comes with this entry (see loader-edge.mjs).
export const builtinModule = undefined;

export default function createOnnxOpsModule(options = {}) {
  if (options.wasmBinary || options.instantiateWasm) return glue(options);
  return wasmBytes().then((wasmBinary) => glue({ ...options, wasmBinary }));
}
`;

// The scalar module's loader: the bytes decoded from base64 once per realm, no inflating.
const scalarGlue = esmGlueAndWasm(join(root, 'build', 'wasm-scalar', 'module', 'esm'));
const scalarLoader = `import glue from './glue-scalar.mjs';
let bytes;
export default function createOnnxOpsModule(options = {}) {
  if (options.wasmBinary) return glue(options);
  bytes ??= ${DECODE_BASE64};
  return glue({ ...options, wasmBinary: bytes });
}
var ONNX_OPS_WASM_BASE64 = ${JSON.stringify(scalarGlue.wasm.toString('base64'))};
`;
writeFileSync(join(tmp, 'glue-scalar.mjs'), scalarGlue.glue);
writeFileSync(join(tmp, 'loader-scalar.mjs'), scalarLoader);

const INFLATE = { from: /^\.\/inflate\.js$/, file: 'inflate.js', entry: join(root, 'js', 'src', 'inflate.ts') };
// The fallbacks are files of their own beside the main file, which imports
// each only where it chooses it (how: below, where the main file is written).
const FALLBACKS = [
  { from: /^\.\/wasm\/onnx-ops-wasm-scalar\.js$/, file: 'onnx-ops-wasm-scalar.js', entry: join(tmp, 'loader-scalar.mjs') },
  { from: /^\.\/backend\/js\/backend\.js$/, file: 'backend-js.js', entry: join(root, 'js', 'src', 'backend', 'js', 'backend.ts') },
  // The worker form's page side (createOps({ worker: true })).
  { from: /^\.\/worker\/client\.js$/, file: 'worker-client.js', entry: join(root, 'js', 'src', 'worker', 'client.ts') },
  // The inflater for runtimes without a working DecompressionStream (the loader's import()).
  INFLATE,
  // A compiled WebAssembly.Module's instantiation, and why an engine refused to compile bytes.
  { from: /^\.\/backend\/wasm\/host\.js$/, file: 'wasm-host.js', entry: join(root, 'js', 'src', 'backend', 'wasm', 'host.ts') },
];
// The worker form's worker, a file beside index.js: the library (the same
// bundle as index.js) and the worker's message loop.
const WORKER = { file: 'onnx-ops-wasm-worker.js', entry: join(root, 'js', 'src', 'worker', 'host.ts') };
// The entry of the 'workerd' and 'edge-light' conditions (wrangler, Next.js's
// and Vercel's edge), whose bundlers import a .wasm?module as a
// WebAssembly.Module and whose hosts compile no wasm from bytes: the library
// with the raw wasm imported so (its builtinModule), nothing embedded, the
// fallbacks beside it as index.js's. An ES module only.
const EDGE = { file: 'edge.js', entry: join(root, 'js', 'src', 'index.ts'), loader: join(tmp, 'loader-edge.mjs') };
writeFileSync(EDGE.loader, `import glue from './glue-esm.mjs';
import wasmModule from '../onnx-ops-wasm.wasm?module';
export const builtinModule = wasmModule;
export default glue;
`);
// The embedded wasm, beside index.js (see below).
const DATA_FILE = 'onnx-ops-wasm-data.js';
const banner = '/*! onnx-ops-wasm | MIT License | the wasm glue is generated by Emscripten (MIT) */';
for (const [kind, format, type] of [['esm', 'esm', 'module'], ['cjs', 'cjs', 'commonjs']]) {
  for (const f of FALLBACKS) {
    await build({
      entryPoints: [f.entry], outfile: join(dist, kind, f.file), bundle: true, format, target: 'es2022', platform: 'neutral',
      minify: true, legalComments: 'inline', logLevel: 'warning', banner: { js: banner },
      define: kind === 'cjs' ? { 'import.meta.url': 'undefined' } : {},
    });
  }
  // Both builds start from the ES module glue (esbuild turns it into CommonJS for
  // dist/cjs): it is smaller than Emscripten's CommonJS glue, and its only
  // import.meta use (locating a wasm file) is never reached, as the bytes are
  // always passed in.
  const { glue } = esmGlue;
  const glueFile = join(tmp, `glue-${kind}.mjs`);
  const entry = join(tmp, `loader-${kind}.mjs`);
  writeFileSync(glueFile, glue);
  writeFileSync(entry, loader(`import glue from ${JSON.stringify('./' + glueFile.split('/').pop())};`));
  for (const main of [{ file: 'index.js', entry: join(root, 'js', 'src', 'index.ts') }, WORKER, ...(kind === 'esm' ? [EDGE] : [])]) {
    // One file per build, the API and the loader with its glue: one request, and
    // one gzip stream (smaller than two).
    const loaderPlugin = {
      name: 'wasm-loader',
      setup(b) {
        b.onResolve({ filter: /^\.\/wasm\/onnx-ops-wasm\.js$/ }, () => ({ path: main === EDGE ? EDGE.loader : entry }));
        // The edge entry's wasm: the bundler that reaches it makes it a WebAssembly.Module.
        b.onResolve({ filter: /\.wasm\?module$/ }, (a) => ({ path: a.path, external: true }));
        if (main === WORKER) {
          // The worker file holds both fallbacks, so that it imports nothing, and
          // starts no worker (see worker/start.ts), so it holds no worker client.
          b.onResolve({ filter: /^\.\/wasm\/onnx-ops-wasm-scalar\.js$/ }, () => ({ path: join(tmp, 'loader-scalar.mjs') }));
          b.onResolve({ filter: INFLATE.from }, () => ({ path: INFLATE.entry }));
          b.onResolve({ filter: /^\.\/worker\/(start|client)\.js$/ }, (a) => ({ path: a.path, namespace: 'no-worker' }));
          b.onLoad({ filter: /.*/, namespace: 'no-worker' }, () => ({ contents: 'export const startWebWorker = undefined, createWorkerOps = undefined;', loader: 'js' }));
        } else {
          for (const f of FALLBACKS) b.onResolve({ filter: f.from }, () => ({ path: `./${f.file}`, external: true }));
        }
      },
    };
    await build({
      entryPoints: [main.entry], outfile: join(dist, kind, main.file),
      bundle: true, format, target: 'es2022', platform: 'neutral', minify: true, legalComments: 'inline', logLevel: 'warning',
      plugins: [loaderPlugin], sourcemap: 'linked', sourcesContent: true, banner: { js: banner },
      define: kind === 'cjs' ? { 'import.meta.url': 'undefined' } : {},
    });
    // The base64 text in a file of its own, which index.js imports statically:
    // in one gzip stream with the code it shared deflate blocks and Huffman
    // tables with it, 700 bytes more than the two files gzipped apart. The
    // worker file keeps it inline, as it imports nothing. Bound at the end, so
    // that the source map's lines stay; read only once the module has run.
    const file = join(dist, kind, main.file);
    const code = readFileSync(file, 'utf8');
    const at = code.lastIndexOf('\n//# sourceMappingURL=');
    if (at < 0 || code.includes('ONNX_OPS_WASM_BASE64') !== (main !== EDGE)) throw new Error(`build-js: unexpected ${file}`);
    const base64 = JSON.stringify(wasmDeflated.toString('base64'));
    const about = `// The wasm module (${wasm.length} bytes), zlib-compressed (${wasmDeflated.length} bytes), base64.\n`;
    let data = '';
    if (main === EDGE) {
      if (!code.includes('"../onnx-ops-wasm.wasm?module"')) throw new Error(`build-js: ${file} does not import the wasm as a module`);
    } else if (main === WORKER) {
      data = `\n${about}var ONNX_OPS_WASM_BASE64=${base64};`;
    } else {
      writeFileSync(join(dist, kind, DATA_FILE), `${about}${kind === 'esm' ? 'export default ' : 'module.exports='}${base64};\n`);
      data = kind === 'esm' ? `\nimport ONNX_OPS_WASM_BASE64 from"./${DATA_FILE}";` : `\nvar ONNX_OPS_WASM_BASE64=require("./${DATA_FILE}");`;
    }
    let out = code.slice(0, at) + data + code.slice(at);
    // Each fallback by a literal import() of its file, which every bundler
    // splits off (or inlines) and every module loader resolves beside this
    // file; CommonJS requires it when needed (import() there needs an ES module
    // loader, which Jest, for one, lacks).
    for (const { file: f } of main === WORKER ? [] : main === EDGE ? FALLBACKS.filter((f) => f !== INFLATE) : FALLBACKS) {
      const literal = `import("./${f}")`;
      if (out.split(literal).length !== 2) throw new Error(`build-js: expected one ${literal} in the ${kind} ${main.file}`);
      if (kind === 'cjs') out = out.replace(literal, `Promise.resolve().then(()=>require("./${f}"))`);
    }
    if (main === WORKER && /\bimport\(|\brequire\(/.test(out)) throw new Error(`build-js: the ${kind} ${main.file} imports something`);
    writeFileSync(file, out);
  }
  // onnx-ops-wasm/js: one file, for hosts that run one script and lack web APIs (React Native's Hermes, QuickJS).
  const jsEntry = join(dist, kind, 'js.js');
  await build({
    entryPoints: [join(root, 'js', 'src', 'js.ts')], outfile: jsEntry, bundle: true, format, target: 'es2022',
    platform: 'neutral', minify: true, legalComments: 'inline', logLevel: 'warning', sourcemap: 'linked', sourcesContent: true,
    banner: { js: banner },
  });
  if (/\bimport\(|\bimport\.meta\b|\brequire\(/.test(readFileSync(jsEntry, 'utf8'))) {
    throw new Error(`build-js: the ${kind} js.js loads something (import(), import.meta or require())`);
  }
  writeFileSync(join(dist, kind, 'package.json'), JSON.stringify({ type }) + '\n');
}
console.log(`build-js: dist/esm, dist/cjs, dist/types; wasm ${wasm.length} bytes, embedded deflated ${wasmDeflated.length} bytes`);
