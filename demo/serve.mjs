#!/usr/bin/env node
// A tiny static server for the demo:
//   /         -> demo/            (index.html, the page's modules, style.css)
//   /dist/    -> dist/            (the built library: npm run build)
//   /bench/   -> bench/           (the benchmark's modules, which the bench panel uses)
//   /tests/portable/ -> tests/portable/ (the oracle, reference.ts, served as JavaScript)
//   /examples/ -> examples/       (examples/browser.html)
//   /ort/     -> onnxruntime-web's dist/, only when it is installed (optional: the
//                folder in ORT_DIR, node_modules/onnxruntime-web/dist, or the
//                benchmark's bench/node_modules/onnxruntime-web/dist)
//
//   node demo/serve.mjs            # PORT env, default 8080; PORT=0 picks a free port
//
// Tests import it: const { url, close } = await startServer({ port: 0 });

import { createServer } from 'node:http';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { typescriptAsJs } from '../tests/support/static-server.mjs';

const DEMO_DIR = fileURLToPath(new URL('.', import.meta.url));
const ROOT_DIR = resolve(DEMO_DIR, '..');

export const MIME_TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.cjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.md': 'text/markdown; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
};

/** The folder holding onnxruntime-web's browser builds, if there is one. */
function findOrtDir() {
  const candidates = [
    process.env.ORT_DIR,
    join(ROOT_DIR, 'node_modules', 'onnxruntime-web', 'dist'),
    join(ROOT_DIR, 'bench', 'node_modules', 'onnxruntime-web', 'dist'), // npm --prefix bench ci
  ];
  for (const dir of candidates) {
    if (dir && existsSync(join(dir, 'ort.wasm.min.mjs'))) return resolve(dir);
  }
  return undefined;
}

/** URL prefix -> folder on disk; the longest matching prefix wins. */
function mounts(ortDir) {
  const list = [
    ['/dist/', join(ROOT_DIR, 'dist')],
    ['/bench/', join(ROOT_DIR, 'bench')],
    ['/tests/portable/', join(ROOT_DIR, 'tests', 'portable')],
    ['/examples/', join(ROOT_DIR, 'examples')],
    ['/', DEMO_DIR],
  ];
  if (ortDir) list.unshift(['/ort/', ortDir]);
  return list;
}

/** The file a URL path names, or undefined (outside every mount, or missing). */
function resolveFile(pathname, table) {
  let decoded;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (decoded.includes('\0')) return undefined;
  for (const [prefix, dir] of table) {
    if (!decoded.startsWith(prefix)) continue;
    const rest = decoded.slice(prefix.length);
    const base = resolve(dir);
    let file = normalize(join(base, rest));
    if (file !== base && !file.startsWith(base + sep)) return undefined; // no ../ escapes
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      if (statSync(file).isFile()) return file;
    } catch {
      return undefined;
    }
    return undefined;
  }
  return undefined;
}

/**
 * Starts the server on 127.0.0.1. `port` 0 picks a free one; `ort: false`
 * serves no /ort/ even where onnxruntime-web is installed (the e2e test of the
 * panel without it). Resolves to { url, port, close() }; close() resolves once
 * the server stopped.
 */
export function startServer({ port = 8080, host = '127.0.0.1', log = false, ort = true } = {}) {
  const ortDir = ort ? findOrtDir() : undefined; // ort: false serves no /ort/ (as when it is not installed)
  const table = mounts(ortDir);
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const send = (status, body) => {
      res.writeHead(status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' });
      res.end(req.method === 'HEAD' ? undefined : body);
    };
    if (req.method !== 'GET' && req.method !== 'HEAD') return send(405, 'method not allowed\n');
    const file = resolveFile(url.pathname, table);
    if (log) console.log(`${req.method} ${url.pathname} -> ${file ? 200 : 404}`);
    if (!file) {
      if (url.pathname.startsWith('/dist/') && !existsSync(join(ROOT_DIR, 'dist', 'esm', 'index.js'))) {
        return send(404, 'dist/ is not built: run `npm run build` in the repository root\n');
      }
      return send(404, 'not found\n');
    }
    if (extname(file) === '.ts') {
      const js = await typescriptAsJs(file);
      res.writeHead(200, { 'Content-Type': MIME_TYPES['.js'], 'Cache-Control': 'no-cache', 'X-Content-Type-Options': 'nosniff' });
      return res.end(req.method === 'HEAD' ? undefined : js);
    }
    const type = MIME_TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream';
    res.writeHead(200, {
      'Content-Type': type,
      'Content-Length': statSync(file).size,
      'Cache-Control': 'no-cache',
      'X-Content-Type-Options': 'nosniff',
    });
    if (req.method === 'HEAD') return res.end();
    const stream = createReadStream(file);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
  });
  // Let close() end idle keep-alive connections (browsers keep them open).
  const sockets = new Set();
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  return new Promise((resolvePromise, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const actual = server.address().port;
      resolvePromise({
        url: `http://${host}:${actual}/`,
        port: actual,
        ortDir,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            for (const s of sockets) s.destroy();
          }),
      });
    });
  });
}

// Run directly: node demo/serve.mjs
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const port = process.env.PORT === undefined || process.env.PORT === '' ? 8080 : Number(process.env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(`PORT must be an integer 0..65535, got ${JSON.stringify(process.env.PORT)}`);
    process.exit(1);
  }
  const server = await startServer({ port, log: process.env.DEMO_LOG === '1' });
  if (!existsSync(join(ROOT_DIR, 'dist', 'esm', 'index.js'))) {
    console.warn('Warning: dist/esm/index.js is missing: run `npm run build` first.');
  }
  console.log(`Demo: ${server.url}`);
  if (server.ortDir) {
    console.log(`onnxruntime-web found (${server.ortDir}): tick "compare with onnxruntime-web" in the benchmark panel`);
  } else {
    console.log('onnxruntime-web not found (npm --prefix bench ci installs it): the benchmark panel runs without it');
  }
  const stop = () => server.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
