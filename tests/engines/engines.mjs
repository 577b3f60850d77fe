// The engines the portable suite runs in, and what each is expected to offer
// (the suite fails where an engine has more or less than this, so that no
// case is left out unnoticed). The runtimes come from tests/engines/package.json
// (npm), the browsers from Debian (scripts/setup.sh).
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const modules = fileURLToPath(new URL('./node_modules/', import.meta.url));
/** The packages' postinstall moves their platform binary into place; before it, the binary is in the platform package. */
const binary = (...paths) => {
  const found = paths.map((p) => modules + p).find((p) => existsSync(p) && statSync(p).size > 1 << 20);
  return found ?? modules + paths[0];
};
const all = { float16Array: true, using: true, sharedArrayBuffer: true, resizableArrayBuffer: true };
const noF16 = { ...all, float16Array: false, using: false };

/**
 * Server-side runtimes: the command that runs an ES module file, and the
 * forms of the library they load. `backend`: the suite forces that backend
 * in every createOps(); `expectBackend`: the engine lacks a feature, and
 * createOps() must choose that backend by itself; `worker`: every
 * createOps() of the suite asks for the worker form (node:worker_threads).
 */
export const RUNTIMES = [
  { name: 'node20', command: ['/usr/bin/node'], forms: ['esm', 'cjs'], expect: noF16 },
  // No 4 GiB case in node20-wasm: the same Node, memory code and allocator as node20's; only the kernels differ.
  { name: 'node20-wasm', command: ['/usr/bin/node'], forms: ['esm', 'cjs'], expect: noF16, backend: 'wasm', bigMemory: false },
  { name: 'node20-js', command: ['/usr/bin/node'], forms: ['esm', 'cjs'], expect: noF16, backend: 'js' },
  // V8 needs SSE4.1 for SIMD128: without it, an x86 CPU of before 2008 or an emulator.
  // No 4 GiB case (`bigMemory: false`) here or in node20-jitless: the same Node and
  // memory code as node20 (node20-js there), and the flag changes no allocation.
  { name: 'node20-nosimd', command: ['/usr/bin/node', '--no-enable-sse4-1'], forms: ['esm'], expect: noF16, expectBackend: 'wasm', bigMemory: false },
  // No WebAssembly at all, as in interpreter-only engines and JIT-less modes.
  { name: 'node20-jitless', command: ['/usr/bin/node', '--jitless'], forms: ['esm'], expect: noF16, expectBackend: 'js', bigMemory: false },
  // onnx-ops-wasm/js, the one-file build for hosts without WebAssembly or files beside the bundle (React Native, QuickJS).
  { name: 'node20-js-entry', command: ['/usr/bin/node'], forms: ['js', 'js-cjs'], expect: noF16, expectBackend: 'js' },
  // No 4 GiB case in node22, node24 (node24-worker-form has one) and Deno: node20
  // and node26 bound their V8s, and each such case costs about 20 s of page faults here.
  { name: 'node22', command: [`${modules}node22/bin/node`], forms: ['esm', 'cjs'], expect: noF16, bigMemory: false },
  { name: 'node24', command: [`${modules}node24/bin/node`], forms: ['esm', 'cjs'], expect: all, bigMemory: false },
  { name: 'node26', command: [`${modules}node26/bin/node`], forms: ['esm', 'cjs'], expect: all },
  { name: 'deno', command: [binary('deno/deno', '@deno/linux-x64-glibc/deno'), 'run', '-A', '--node-modules-dir=manual'], forms: ['esm'], expect: all, bigMemory: false },
  { name: 'bun', command: [binary('bun/bin/bun.exe', '@oven/bun-linux-x64/bin/bun')], forms: ['esm', 'cjs'], expect: all },
  // The worker form: import in each Node, require in one; Deno; Bun both. `bigMemory`:
  // the one worker-form run that fills a 4 GiB memory (seconds of page faults each).
  { name: 'node20-worker-form', command: ['/usr/bin/node'], forms: ['esm', 'cjs'], expect: noF16, worker: true },
  // The worker's own createOps() chooses its backend: the js one where there is no WebAssembly.
  { name: 'node20-jitless-worker-form', command: ['/usr/bin/node', '--jitless'], forms: ['esm'], expect: noF16, expectBackend: 'js', worker: true },
  { name: 'node22-worker-form', command: [`${modules}node22/bin/node`], forms: ['esm'], expect: noF16, worker: true },
  { name: 'node24-worker-form', command: [`${modules}node24/bin/node`], forms: ['esm'], expect: all, worker: true, bigMemory: true },
  { name: 'node26-worker-form', command: [`${modules}node26/bin/node`], forms: ['esm'], expect: all, worker: true },
  { name: 'deno-worker-form', command: [binary('deno/deno', '@deno/linux-x64-glibc/deno'), 'run', '-A', '--node-modules-dir=manual'], forms: ['esm'], expect: all, worker: true },
  { name: 'bun-worker-form', command: [binary('bun/bin/bun.exe', '@oven/bun-linux-x64/bin/bun')], forms: ['esm', 'cjs'], expect: all, worker: true },
];

const webkitFeatures = { ...all, using: false, sharedArrayBuffer: false };
/**
 * Browsers (tests/browsers/drivers.mjs), by engine name: the driver's browser,
 * its features, the suite's runs (a page, or a module worker started by it;
 * each with the backend it forces or must choose, and `form: 'worker'` for the
 * library's worker form, which starts its own module worker) and the page's CSP.
 */
export const BROWSERS = {
  chromium: { browser: 'chromium', expect: all, runs: [{ where: 'page' }, { where: 'worker' }, { where: 'page', backend: 'wasm' }, { where: 'page', form: 'worker' }] },
  firefox: { browser: 'firefox', expect: all, runs: [{ where: 'page' }, { where: 'worker' }, { where: 'page', backend: 'js' }, { where: 'page', form: 'worker' }] },
  // WebKitGTK 2.50's MiniBrowser: no `using` yet, and no SharedArrayBuffer even on a
  // cross-origin isolated page (crossOriginIsolated is true there).
  webkit: { browser: 'webkit', expect: webkitFeatures, runs: [{ where: 'page' }, { where: 'worker' }, { where: 'page', backend: 'js' }, { where: 'page', form: 'worker' }] },
  // WPE WebKit 2.38 (Debian 12's cog): no SIMD128, no DecompressionStream, no Float16Array,
  // no resizable ArrayBuffer. A page only: its module worker sent no report in 2 of 5
  // runs here (the page's own runs all passed), with no cause found.
  wpe: {
    browser: 'wpe', expect: { ...webkitFeatures, float16Array: false, resizableArrayBuffer: false },
    runs: [{ where: 'page', expectBackend: 'wasm' }],
  },
  // A page that is not cross-origin isolated (no COOP/COEP): no SharedArrayBuffer, so the
  // worker form talks by postMessage there (worker/shared.ts), as on most sites.
  'chromium-plain': {
    browser: 'chromium', expect: { ...all, sharedArrayBuffer: false }, isolated: false,
    runs: [{ where: 'page', form: 'worker' }],
  },
  // A page whose policy lets scripts of its origin run but no wasm compile. The suite
  // compiles its `using` case with new Function, which the policy refuses too. The
  // worker form's worker, served under the same policy, chooses the js backend as well.
  'chromium-csp': {
    browser: 'chromium', expect: { ...all, using: false }, csp: "script-src 'self'",
    runs: [{ where: 'page', expectBackend: 'js' }, { where: 'worker', expectBackend: 'js' }, { where: 'page', form: 'worker', expectBackend: 'js' }],
  },
};
