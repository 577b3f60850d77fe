// The packed package deployed where JavaScript runs at the edge (issue 48), as
// a new user deploys it, with nothing configured for the library:
//
//   - a Cloudflare Worker built by `wrangler deploy --dry-run --outdir` (wrangler
//     sets the 'workerd' condition: the package's entry that imports its .wasm as
//     a module) and run in workerd (the npm binary), served on 127.0.0.1;
//   - a Next.js 16 app, `next build` (its default bundler, Turbopack) and
//     `next start` on 127.0.0.1: an edge route (the 'edge-light' condition), a
//     Node route, and a client page opened in headless Chromium.
//
// Each runs deployCheck() (check.mjs) on the default backend, the forced ones
// and the worker form: results bit for bit against tests/portable/reference.ts,
// `ops.backend` the fastest the host allows (wasm-simd everywhere here), and
// what the host cannot run rejected with UNSUPPORTED_ENGINE naming the real cause.
//
//   npm run build && node --test tests/deploy/edge.mjs
//
// wrangler, workerd, next and react come from tests/deploy/node_modules (npm ci
// --prefix tests/deploy; scripts/setup.sh runs it); wrangler needs Node >= 22.12,
// so it runs on tests/engines' Node 24. The apps live in tests/deploy/.work-*
// (Next resolves `next` from the app's folder up), each with the tarball
// installed offline; KEEP_TMP=1 keeps them. The two builds run side by side:
// 19-62 s in all on the 2-core VM, as busy as it is (Next's build 11-40 s of it).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { ROOT, openPage, resultOrFailure, sh, start, stop, tarball } from '../package/consumers.mjs';
import { checkSource, deployCases } from './check.mjs';

const HERE = join(ROOT, 'tests', 'deploy');
const MODULES = join(HERE, 'node_modules');
const NODE24 = join(ROOT, 'tests', 'engines', 'node_modules', 'node24', 'bin', 'node');
const bin = (pkg, name) => {
  const { bin: bins } = JSON.parse(readFileSync(join(MODULES, pkg, 'package.json'), 'utf8'));
  return join(MODULES, pkg, typeof bins === 'string' ? bins : bins[name]);
};
const version = (pkg) => JSON.parse(readFileSync(join(MODULES, pkg, 'package.json'), 'utf8')).version;
// No telemetry, no update checks, no colours: nothing leaves this machine.
const ENV = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1', FORCE_COLOR: '0', CI: '1' };

let WORK;
/** The two apps' builds, started side by side once the tarball is packed; each test awaits its own. */
let worker;
let nextApp;
/** Each case's expected result from the reference, as deployCheck() reports it. */
let want;
/** Servers started by the tests: stopped in after(). */
const children = [];

before(async () => {
  assert.ok(existsSync(MODULES), 'tests/deploy/node_modules is missing: run `npm ci --prefix tests/deploy` (scripts/setup.sh does)');
  assert.ok(existsSync(NODE24), 'Node 24 is missing: run `npm ci --prefix tests/engines` (scripts/setup.sh does)');
  await start();
  WORK = mkdtempSync(join(HERE, '.work-'));
  if (process.env.KEEP_TMP) console.log(`# apps in ${WORK}`);
  const outfile = join(WORK, 'reference.mjs');
  await build({ entryPoints: [join(ROOT, 'tests/portable/reference.ts')], bundle: true, format: 'esm', outfile, logLevel: 'warning' });
  const { refMax, refRelu } = await import(pathToFileURL(outfile).href);
  const hex = (bytes) => Buffer.from(bytes).toString('hex');
  want = deployCases().map(([op, xs]) => {
    if (op === 'Relu') return { dtype: xs[0].dtype, shape: xs[0].shape, hex: hex(refRelu(xs[0])) };
    const { shape, bytes } = refMax(xs);
    return { dtype: xs[0].dtype, shape, hex: hex(bytes) };
  });
  worker = buildWorker();
  nextApp = buildNext();
  // A build that fails is reported by its test; this keeps its rejection from going unhandled meanwhile.
  worker.catch(() => {});
  nextApp.catch(() => {});
});

after(async () => {
  await Promise.allSettled([worker, nextApp]); // a build still writing into WORK (a test that failed early)
  for (const c of children) if (c.exitCode === null) process.kill(-c.pid);
  await stop();
  if (WORK && !process.env.KEEP_TMP) rmSync(WORK, { recursive: true, force: true });
});

/** An app folder in WORK: `files`, and the tarball installed offline. */
async function app(name, files) {
  const dir = join(WORK, name);
  mkdirSync(dir);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, version: '0.0.0', type: 'module' }));
  await sh('npm', ['install', '--offline', '--no-audit', '--no-fund', '--no-package-lock', '--loglevel=error', tarball], dir);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

/** Runs `cmd` in `dir` and resolves its output; prints how long it took. */
async function timed(label, cmd, args, dir) {
  const t = performance.now();
  const { stdout, stderr } = await sh(cmd, args, dir, ENV);
  console.log(`# ${label}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
  return stdout + stderr;
}

/** A free port on 127.0.0.1. */
const freePort = () => new Promise((resolve, reject) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address();
    s.close(() => resolve(port));
  }).on('error', reject);
});

/** Starts a server (its own process group, so that after() stops it and its children) and waits until `url` answers. */
async function serve(cmd, args, dir, url) {
  const child = spawn(cmd, args, { cwd: dir, env: ENV, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  let log = '';
  child.stdout.on('data', (d) => (log += d));
  child.stderr.on('data', (d) => (log += d));
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${cmd} ${args.join(' ')} exited with ${child.exitCode}:\n${log}`);
    try {
      await fetch(url);
      return { log: () => log };
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer in 30 s:\n${log}`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}

/** GETs `url`: its JSON. */
async function getJson(url) {
  const r = await fetch(url);
  const text = await r.text();
  assert.equal(r.status, 200, `${url}: HTTP ${r.status}\n${text.slice(0, 2000)}`);
  return JSON.parse(text);
}

const ran = (backend, worker = false) => ({ backend, fallbackReason: null, worker, cases: want });
/** deployCheck()'s rejection: UNSUPPORTED_ENGINE whose message matches `cause`. */
function assertRefused(got, cause, label) {
  assert.equal(got.failed?.code, 'UNSUPPORTED_ENGINE', `${label}: ${JSON.stringify(got).slice(0, 500)}`);
  assert.equal(got.failed.onnx, true, `${label}: an OnnxOpsError`);
  assert.match(got.failed.message, cause, label);
}
const NO_WORKER = /^createOps: could not start the worker from onnx-ops-wasm-worker\.js: this engine has neither Worker nor node:worker_threads/;

// The route handlers and the Worker run the same forms.
const FORMS = `{ default: undefined, simd: { backend: 'wasm-simd' }, js: { backend: 'js' }, wasm: { backend: 'wasm' }, worker: { worker: true } }`;

// ---- the apps ----------------------------------------------------------------------
/** Builds the Cloudflare Worker: { dir, outdir }. */
async function buildWorker() {
  const dir = await app('worker-app', {
    'check.js': checkSource,
    // The docs' Worker: nothing but the import. Also the wasm by its .wasm export, as a module, as wasmBinary.
    'src/index.js': `import * as lib from 'onnx-ops-wasm';
import wasm from 'onnx-ops-wasm/onnx-ops-wasm.wasm';
import { deployChecks } from '../check.js';
export default {
  async fetch() {
    const forms = ${FORMS};
    forms.module = { wasmBinary: wasm };
    return Response.json({ module: Object.prototype.toString.call(wasm), checks: await deployChecks(lib, forms) });
  },
};
`,
    'wrangler.toml': 'name = "worker-app"\nmain = "src/index.js"\ncompatibility_date = "2025-09-01"\n',
  });
  const out = await timed(`wrangler ${version('wrangler')} deploy --dry-run`, NODE24,
    [bin('wrangler', 'wrangler'), 'deploy', '--dry-run', '--outdir', 'dist'], dir);
  assert.match(out, /--dry-run: exiting now/, out);
  return { dir, outdir: join(dir, 'dist') };
}

/** Builds the Next.js app: its folder. */
async function buildNext() {
  const route = (runtime) => `import * as lib from 'onnx-ops-wasm';
import { deployChecks } from '../../../check.js';
${runtime === 'edge' ? "export const runtime = 'edge';\n" : ''}export const dynamic = 'force-dynamic';
export async function GET() {
  return Response.json(await deployChecks(lib, ${FORMS}));
}
`;
  const dir = await app('next-app', {
    'check.js': checkSource,
    // Next looks for its workspace root by lock files: this folder's parents hold two (the repository's, tests/deploy's).
    'next.config.mjs': `export default { turbopack: { root: ${JSON.stringify(HERE)} }, outputFileTracingRoot: ${JSON.stringify(HERE)} };\n`,
    // No favicon: the page's only requests are the app's.
    'app/layout.js': 'export default function RootLayout({ children }) {\n  return <html><head><link rel="icon" href="data:," /></head><body>{children}</body></html>;\n}\n',
    'app/page.js': `'use client';
import { useEffect } from 'react';
import * as lib from 'onnx-ops-wasm';
import { deployChecks } from '../check.js';
export default function Page() {
  useEffect(() => {
    deployChecks(lib, { default: undefined, js: { backend: 'js' }, wasm: { backend: 'wasm' }, worker: { worker: true } })
      .then((r) => { window.result = r; }, (e) => { window.failure = String(e && e.stack || e); });
  }, []);
  return <p>onnx-ops-wasm</p>;
}
`,
    'app/api/edge/route.js': route('edge'),
    'app/api/node/route.js': route('node'),
  });
  const out = await timed(`next ${version('next')} build`, process.execPath, [bin('next', 'next'), 'build'], dir);
  assert.match(out, /Compiled successfully/, out);
  return dir;
}

describe('deployed', { concurrency: true }, () => {
  test('Cloudflare Worker (wrangler deploy --dry-run, run in workerd): wasm-simd with no configuration, exact; js forced exact; wasm and the worker form refused naming the host\'s rule; the .wasm export as wasmBinary exact', async () => {
    const { outdir } = await worker;
    const files = readdirSync(outdir).filter((f) => !f.endsWith('.map') && f !== 'README.md').sort();
    // The package's wasm, imported as a module by the entry of the 'workerd' condition: a module of the upload, not bytes in the bundle.
    const wasmModules = files.filter((f) => f.endsWith('.wasm'));
    assert.deepEqual(files.filter((f) => !f.endsWith('.wasm')), ['index.js'], 'the upload: the bundle and its wasm modules');
    assert.ok(wasmModules.length >= 1 && wasmModules.every((f) => f.endsWith('-onnx-ops-wasm.wasm')), wasmModules.join());
    const bundle = readFileSync(join(outdir, 'index.js'), 'utf8');
    assert.ok(!/"eN[\w+/]{100}/.test(bundle), 'the zlib-compressed wasm of index.js is in the bundle: wrangler did not take the workerd entry');
    const port = await freePort();
    // workerd's config beside the upload (capnp embeds files by paths relative to it), the main module first.
    const capnp = join(outdir, 'workerd.capnp');
    const modules = ['index.js', ...wasmModules].map((f) => `(name = "${f}", ${f.endsWith('.wasm') ? 'wasm' : 'esModule'} = embed "${f}")`);
    writeFileSync(capnp, `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [ (name = "main", worker = (modules = [ ${modules.join(', ')} ], compatibilityDate = "2025-09-01")) ],
  sockets = [ (name = "http", address = "127.0.0.1:${port}", http = (), service = "main") ]
);
`);
    const url = `http://127.0.0.1:${port}/`;
    await serve(bin('workerd', 'workerd'), ['serve', capnp], outdir, url);
    const { module, checks } = await getJson(url);
    console.log(`# workerd ${version('workerd')}: ${Object.entries(checks).map(([k, v]) => `${k} ${v.backend ?? v.failed.code}`).join(', ')}`);
    assert.equal(module, '[object WebAssembly.Module]', 'onnx-ops-wasm/onnx-ops-wasm.wasm imports as a WebAssembly.Module');
    assert.deepEqual(checks.default, ran('wasm-simd'), 'createOps()');
    assert.deepEqual(checks.simd, ran('wasm-simd'), "backend: 'wasm-simd'");
    assert.deepEqual(checks.js, ran('js'), "backend: 'js'");
    assert.deepEqual(checks.module, ran('wasm-simd'), 'the .wasm export as wasmBinary');
    assertRefused(checks.wasm, /^createOps: this host forbids compiling WebAssembly from bytes, as Cloudflare Workers and Vercel's edge runtime do \(.*disallowed by embedder\): the default backend, wasm-simd, runs here/,
      "backend: 'wasm'");
    assertRefused(checks.worker, NO_WORKER, 'the worker form');
  });

  test('Next.js app (next build, next start): the edge route and the Node route on wasm-simd with no configuration, every form exact where the runtime has it; the client page in Chromium likewise', async () => {
    const dir = await nextApp;
    // The edge route's wasm: the package's, a module of the route (Next's edge manifest), not bytes to compile.
    const manifest = JSON.parse(readFileSync(join(dir, '.next', 'server', 'middleware-manifest.json'), 'utf8'));
    const edge = Object.values(manifest.functions).find((f) => f.page === '/api/edge/route');
    assert.equal(edge?.wasm?.length, 1, `the edge route's wasm modules: ${JSON.stringify(edge?.wasm)}`);
    assert.deepEqual(readFileSync(join(dir, '.next', edge.wasm[0].filePath)), readFileSync(join(ROOT, 'dist', 'onnx-ops-wasm.wasm')), 'the edge route\'s wasm');
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    await serve(process.execPath, [bin('next', 'next'), 'start', '-H', '127.0.0.1', '-p', String(port)], dir, `${origin}/api/node`);

    const edgeChecks = await getJson(`${origin}/api/edge`);
    assert.deepEqual(edgeChecks.default, ran('wasm-simd'), 'edge route: createOps()');
    assert.deepEqual(edgeChecks.simd, ran('wasm-simd'), "edge route: backend: 'wasm-simd'");
    assert.deepEqual(edgeChecks.js, ran('js'), "edge route: backend: 'js'");
    // `next start`'s edge sandbox compiles wasm from bytes (Vercel's edge does not): the scalar module runs.
    assert.deepEqual(edgeChecks.wasm, ran('wasm'), "edge route: backend: 'wasm'");
    assertRefused(edgeChecks.worker, NO_WORKER, 'edge route: the worker form');

    const nodeChecks = await getJson(`${origin}/api/node`);
    assert.deepEqual(nodeChecks, { default: ran('wasm-simd'), simd: ran('wasm-simd'), js: ran('js'), wasm: ran('wasm'), worker: ran('wasm-simd', true) },
      'Node route: every form');

    const { value } = await openPage(`${origin}/`, resultOrFailure);
    assert.equal(value.failure, undefined, value.failure);
    assert.deepEqual(value, { default: ran('wasm-simd'), js: ran('js'), wasm: ran('wasm'), worker: ran('wasm-simd', true) }, 'client page: every form');
  });
});
