// What the package tests share (tests/package/run.mjs, tests/package/bundlers.mjs):
// the packed tarball, throwaway consumer projects that install it offline,
// pages opened in headless Chromium that fail on any console error or failed
// request, and the checks every environment runs (serialised into the
// consumers) with their expected values.
//
// start() packs the tarball and launches Chromium (a test file's before()),
// stop() closes it and removes the consumer projects (its after(); KEEP_TMP=1
// keeps them and prints their folder).
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { closeSync, cpSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from 'playwright-core';
import { EXPECTED, check } from './check.mjs';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
];
// What the pages are served with (their workers' scripts too): no inline script, no eval, no blob: worker.
export const CSP = "script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'";
export const run = promisify(execFile);

// ---- the checks every environment runs --------------------------------------
// The worker form, createOps({ worker: true }), serialised like check(): the
// same calls awaited (their values must be EXPECTED), edge cases whose bytes
// must equal the sync form's (NaN payloads, -0, every element width), and
// what only the worker form has (copy or transfer, out, order, handles,
// misuse, close); `options` as check()'s, for both forms.
async function checkWorker(lib, options) {
  const sync = await lib.createOps(options);
  const ops = await lib.createOps({ ...options, worker: true });
  const code = (p) => p.then(() => 'resolved', (e) => `${e instanceof lib.OnnxOpsError} ${e.code}`);
  const max = await ops.max([
    { dtype: 'float32', shape: [2, 3], data: new Float32Array([1, 5, 3, 4, 2, 6]) },
    new Float32Array([2, 2, 2]),
    { type: 'float32', dims: [], data: new Float32Array([1.5]) },
  ]);
  const maxInt64 = await ops.max([{ dtype: 7, shape: [2, 1], data: new BigInt64Array([-5n, 9n]) }, new BigInt64Array([1n, 2n, 3n])]);
  const relu = await ops.relu({ dtype: 'int32', shape: [4], data: new Int32Array([-3, 0, 2, -1]) }, { opset: 14 });
  const reluF16 = await ops.relu({ dtype: 'float16', shape: [2, 2], data: lib.encodeFloat16([-1, 0.5, -0, 2]) });
  const w = await ops.tensor('float32', [3], new Float32Array([-1, 0, 7]));
  await ops.relu(w, { out: w });
  const inPlace = Array.from((await ops.read(w)).data);
  w.dispose();
  const ort = lib.toOrt(max);
  const form = {
    max: { shape: max.shape, data: Array.from(max.data) },
    maxInt64: { shape: maxInt64.shape, data: Array.from(maxInt64.data, String) },
    relu: { shape: relu.shape, data: Array.from(relu.data) },
    reluF16: { shape: reluF16.shape, data: Array.from(lib.decodeFloat16(reluF16.data)) },
    inPlace,
    error: await code(ops.max([new Float32Array(2), new Float32Array(3)])),
    ort: { type: ort.type, dims: ort.dims },
    simd: ops.simd,
    backend: ops.backend,
  };

  const nan = new Float32Array(new Uint32Array([0x7fc00001, 0xffc00002, 0x80000000, 0, 0x7f800000, 0xff800001]).buffer);
  const cases = [
    ['Max', [nan, new Float32Array([0, -0, 0, -0, 1, -1])], {}],
    ['Max', [{ dtype: 'float64', shape: [2, 1], data: new Float64Array([NaN, -0]) }, new Float64Array([0, 1, -Infinity])], { opset: 12 }],
    ['Max', [new BigUint64Array([2n ** 64n - 1n, 0n]), { dtype: 'uint64', shape: [1], data: new BigUint64Array([1n]) }], {}],
    ['Max', [{ dtype: 'bfloat16', shape: [3], data: lib.encodeBfloat16([-1, 0.5, NaN]) }, { dtype: 'bfloat16', shape: [], data: lib.encodeBfloat16([0]) }], {}],
    ['Max', [new Int16Array([-7, 3]), new Int16Array([2, -9]), new Int16Array([1, 1])], { opset: 12 }],
    ['Relu', [{ dtype: 'float16', shape: [4], data: lib.encodeFloat16([-0, NaN, -2, 65504]) }], {}],
    ['Relu', [new Int8Array([-128, -1, 0, 127])], { opset: 14 }],
    ['Relu', [nan], { opset: 6 }],
  ];
  const bytes = (a) => Array.from(new Uint8Array(a.buffer, a.byteOffset, a.byteLength)).join();
  const call = (o, [op, inputs, options]) => (op === 'Max' ? o.max(inputs, options) : o.relu(inputs[0], options));
  const nanBefore = bytes(nan);
  const differ = [];
  for (const [i, c] of cases.entries()) {
    const a = call(sync, c);
    const b = await call(ops, c);
    if (a.dtype !== b.dtype || a.shape.join() !== b.shape.join() || bytes(a.data) !== bytes(b.data)) differ.push(i);
  }

  const moved = new Float32Array([-1, 2]);
  const pending = ops.relu(moved, { transfer: true });
  const detached = moved.length;
  const out = new Float32Array(2);
  const outCall = ops.relu(new Float32Array([-3, 4]), { out });
  const outBefore = Array.from(out);
  const outResult = await outCall;
  const order = [];
  await Promise.all([1, 2, 3, 4, 5].map((n) => ops.relu(new Float32Array(n * 1000)).then((r) => order.push(r.data.length / 1000))));
  const h = await ops.tensor('float32', [2], new Float32Array([-2, 5]));
  const chained = await ops.read(await ops.max([h, await ops.relu(h)]));
  const misuse = [];
  for (const f of [() => h.data, () => h.toPlain(), () => sync.relu(h)]) {
    try { f(); misuse.push('no error'); } catch (e) { misuse.push(`${e instanceof lib.OnnxOpsError} ${e.code}`); }
  }
  let thrown = false;
  const rejected = [];
  try {
    rejected.push(code(ops.relu(sync.tensor('float32', [1]))), code(ops.max(null)),
      code(ops.relu(new Float32Array(1), { transfer: 1 })), code(ops.read(sync.tensor('float32', [1]))));
  } catch { thrown = true; }
  const facts = {
    worker: ops.worker, untouched: bytes(nan) === nanBefore,
    transfer: [detached, Array.from((await pending).data)],
    out: [outBefore, Array.from(out), outResult.data === out],
    order, chained: Array.from(chained.data), misuse, thrown, rejected: await Promise.all(rejected),
  };
  const last = ops.relu(new Float32Array([-1]));
  await ops.close();
  facts.closed = [Array.from((await last).data), await code(ops.relu(new Float32Array(1))), await code(ops.tensor('float32', [1])),
    await code(ops.read(h)), await code(ops.memoryStats()), typeof (await ops.close())];
  const other = await lib.createOps({ worker: true });
  await other[Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose')]();
  facts.asyncDispose = await code(other.max([new Float32Array(1)]));
  return { form, differ, facts };
}

export const EXPECTED_WORKER = {
  form: EXPECTED,
  differ: [],
  facts: {
    worker: true, untouched: true,
    transfer: [0, [0, 2]],
    out: [[0, 0], [0, 4], true],
    order: [1, 2, 3, 4, 5],
    chained: [0, 5],
    misuse: ['true INVALID_ARGUMENT', 'true INVALID_ARGUMENT', 'true FOREIGN_TENSOR'],
    thrown: false,
    rejected: ['true FOREIGN_TENSOR', 'true INVALID_ARGUMENT', 'true INVALID_ARGUMENT', 'true FOREIGN_TENSOR'],
    closed: [[0], 'true DISPOSED', 'true DISPOSED', 'true DISPOSED', 'true DISPOSED', 'undefined'],
    asyncDispose: 'true DISPOSED',
  },
};
export { EXPECTED, check };
/** check()'s and checkWorker()'s values on `backend`. */
export const expected = (backend = 'wasm-simd') => ({ ...EXPECTED, simd: backend === 'wasm-simd', backend });
export const expectedWorker = (backend = 'wasm-simd') => ({ ...EXPECTED_WORKER, form: expected(backend) });

export const checkModule = `// Generated by tests/package/consumers.mjs\nexport ${check}\nexport ${checkWorker}\n`;
export const checkCommonJs = `// Generated by tests/package/consumers.mjs\n${check}\n${checkWorker}\nmodule.exports = { check, checkWorker };\n`;
// A page that runs check() in the main thread and, given `workerUrl`, in a
// module worker of its own, and checkWorker() in the main thread; each
// failure as text (some setups must fail the worker form, with the error that
// says why). `fallbacks`: both also on the forced 'wasm' and 'js' backends
// (the sync form loads them beside the library, the worker form's worker its own).
export const mainModule = (importLib, workerUrl, { fallbacks = false } = {}) => `import * as lib from ${importLib};
import { check, checkWorker } from './check.js';
const fromWorker = ${workerUrl ? `new Promise((resolve, reject) => {
  const worker = new Worker(${workerUrl}, { type: 'module' });
  worker.onmessage = ({ data }) => (data.error ? reject(new Error('worker: ' + data.error)) : resolve(data.result));
  worker.onerror = (e) => reject(new Error('worker: ' + (e.message || 'failed to load')));
})` : 'undefined'};
const failed = (e) => ({ failed: \`\${e instanceof lib.OnnxOpsError} \${e.code} \${e.message}\` });
const options = ${fallbacks ? "[undefined, { backend: 'wasm' }, { backend: 'js' }]" : '[undefined]'};
const each = (f) => Promise.all(options.map((o) => f(lib, o).catch(failed)));
Promise.all([each(check), fromWorker, each(checkWorker)]).then(
  ([main, worker, workerForm]) => { window.result = { main, ...(worker && { worker }), workerForm }; },
  (e) => { window.failure = String(e && e.stack || e); });
`;
/** What mainModule()'s page shows; `workerForm`: the worker form's failure where it must fail (alike on each backend). */
export function expectedPage({ fallbacks = false, worker = true, workerForm } = {}) {
  const backends = fallbacks ? ['wasm-simd', 'wasm', 'js'] : ['wasm-simd'];
  return {
    main: backends.map((b) => expected(b)),
    ...(worker && { worker: EXPECTED }),
    workerForm: backends.map((b) => workerForm ?? expectedWorker(b)),
  };
}
export const workerModule = (importLib) => `import * as lib from ${importLib};
import { check } from './check.js';
check(lib).then((result) => self.postMessage({ result }), (e) => self.postMessage({ error: String(e && e.stack || e) }));
`;
export const html = (script) => '<!doctype html>\n<meta charset="utf-8">\n<link rel="icon" href="data:,">\n' +
  `<title>consumer</title>\n<script type="module" src="${script}"></script>\n`;

// ---- helpers -----------------------------------------------------------------------
/** The folder of the tarball and the consumer projects (set by start()). */
export let TMP;
/** The packed tarball's path, and npm pack's report on it. */
export let tarball;
export let packInfo;
/** The tarball unpacked: its package/ folder. */
export let unpacked;
let browser;
/** TMP/installed, once consumer() has installed the tarball there. */
let installed;

/** Runs `cmd` with its stdout into `file` (attw exits before a pipe drains past 64 KiB); resolves its exit code. */
export function shToFile(cmd, args, cwd, file) {
  const fd = openSync(file, 'w');
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, stdio: ['ignore', fd, 'inherit'] });
    child.on('error', reject);
    child.on('exit', (code) => resolve(code));
  }).finally(() => closeSync(fd));
}

export async function sh(cmd, args, cwd, env = {}) {
  try {
    return await run(cmd, args, { cwd, env: { ...process.env, ...env }, maxBuffer: 64 << 20 });
  } catch (e) {
    throw new Error(`${cmd} ${args.join(' ')} (in ${cwd}) failed:\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}
export const nodeBin = (rel) => join(ROOT, 'node_modules', rel);

/**
 * A consumer project: package.json, files, and the tarball installed
 * (`npm install --offline` once, in TMP/installed, whose package.json
 * dependency and node_modules each consumer copies); `copies` are packages
 * copied from the repository's node_modules.
 */
export async function consumer(name, pkg, files, copies = []) {
  installed ??= (async () => {
    const at = join(TMP, 'installed');
    mkdirSync(at);
    writeFileSync(join(at, 'package.json'), JSON.stringify({ name: 'installed', private: true, version: '0.0.0' }));
    await sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', tarball], at);
    return at;
  })();
  const from = await installed;
  const { dependencies } = JSON.parse(readFileSync(join(from, 'package.json'), 'utf8'));
  const dir = join(TMP, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, version: '0.0.0', ...pkg, dependencies }, null, 2));
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  cpSync(join(from, 'node_modules'), join(dir, 'node_modules'), { recursive: true });
  for (const c of copies) cpSync(join(ROOT, 'node_modules', c), join(dir, 'node_modules', c), { recursive: true });
  return dir;
}

/**
 * Opens `url` in a fresh page, waits for `done` (a function evaluated in the
 * page), and fails on any console error or warning, page error, failed request,
 * HTTP error or request to another origin. Returns { value, problems, workers }
 * (the URLs of the workers the page started).
 */
export async function openPage(url, done, { allowProblems = false } = {}) {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  const origin = new URL(url).origin;
  const problems = [];
  const note = (p) => problems.push(p);
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') note(`console ${m.type()}: ${m.text()}`);
  });
  page.on('pageerror', (e) => note(`page error: ${e.message}`));
  const workers = [];
  page.on('worker', (w) => {
    workers.push(w.url());
    w.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') note(`worker console ${m.type()}: ${m.text()}`);
    });
  });
  page.on('request', (r) => {
    const u = new URL(r.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.origin !== origin) note(`request off this machine: ${r.url()}`);
  });
  page.on('requestfailed', (r) => note(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  page.on('response', (r) => {
    if (r.status() >= 400) note(`HTTP ${r.status()} for ${r.url()}`);
  });
  try {
    await page.goto(url);
    const handle = await page.waitForFunction(done, undefined, { timeout: 30_000 });
    const value = await handle.jsonValue();
    if (!allowProblems) assert.deepEqual(problems, [], `the page reported problems: ${url}`);
    return { value, problems, workers };
  } catch (e) {
    if (problems.length) e.message += `\nproblems reported by the page:\n  ${problems.join('\n  ')}`;
    throw e;
  } finally {
    await context.close();
  }
}
export const resultOrFailure = () => window.result ?? (window.failure ? { failure: window.failure } : undefined);
/** The page of mainModule() shows expectedPage(options). */
export function assertChecked(value, label, options) {
  assert.equal(value.failure, undefined, `${label}: ${value.failure}`);
  assert.deepEqual(value, expectedPage(options), label);
}
/** The worker form's worker came from the library's file (`name`, as served) on the page's origin; no worker from a blob: URL. */
export function assertWorkerFile(workers, origin, name, label) {
  assert.deepEqual(workers.filter((u) => !u.startsWith(origin + '/')), [], `${label}: workers not from the page's origin`);
  assert.ok(workers.some((u) => name.test(new URL(u).pathname)), `${label}: no worker from ${name} among ${workers.join(', ')}`);
}

// ---- setup -------------------------------------------------------------------------
/** Packs the tarball (into a new TMP), unpacks it, and launches Chromium. */
export async function start() {
  assert.ok(existsSync(join(ROOT, 'dist', 'esm', 'index.js')), 'dist/ is missing: run `npm run build` first');
  assert.ok(existsSync(CHROMIUM), `Chromium not found at ${CHROMIUM}: apt-get install -y chromium, or set CHROMIUM_PATH`);
  TMP = mkdtempSync(join(tmpdir(), 'onnx-ops-wasm-package-'));
  installed = undefined;
  if (process.env.KEEP_TMP) console.log(`# consumer projects in ${TMP}`);
  const { stdout } = await sh('npm', ['pack', '--json', '--pack-destination', TMP, '--loglevel=error'], ROOT);
  [packInfo] = JSON.parse(stdout);
  tarball = join(TMP, packInfo.filename);
  mkdirSync(join(TMP, 'unpacked'));
  await sh('tar', ['-xzf', tarball, '-C', join(TMP, 'unpacked')], TMP);
  unpacked = join(TMP, 'unpacked', 'package');
  browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
}

export async function stop() {
  await browser?.close();
  if (TMP && !process.env.KEEP_TMP) rmSync(TMP, { recursive: true, force: true });
}
