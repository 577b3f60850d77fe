// A static file server on 127.0.0.1 (port 0) for the tests that load pages:
// [urlPrefix, folder] mounts, nothing outside them, no caching.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve, sep } from 'node:path';

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.json': 'application/json', '.wasm': 'application/wasm', '.map': 'application/json', '.css': 'text/css',
};
/**
 * A TypeScript module as the JavaScript a page can import (types stripped, nothing
 * bundled): how pages get the tests' reference (bench/oracle.mjs) from its one source.
 */
export async function typescriptAsJs(file) {
  const { transformSync } = await import('esbuild');
  return transformSync(readFileSync(file, 'utf8'), { loader: 'ts', format: 'esm', target: 'es2022' }).code;
}

/** A static server for [urlPrefix, folder] mounts; `headers(pathname)` adds response headers. */
export function serve(mounts, headers = () => ({})) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    for (const [prefix, dir] of mounts) {
      if (!path.startsWith(prefix)) continue;
      let file = normalize(join(dir, path.slice(prefix.length)));
      if (file !== resolve(dir) && !file.startsWith(resolve(dir) + sep)) break;
      if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
      if (!existsSync(file)) break;
      const ts = extname(file) === '.ts';
      const body = ts ? await typescriptAsJs(file) : readFileSync(file);
      res.writeHead(200, {
        'Content-Type': ts ? MIME['.js'] : MIME[extname(file)] ?? 'application/octet-stream', 'Cache-Control': 'no-store', ...headers(path),
      });
      res.end(body);
      return;
    }
    res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found\n');
  });
  const sockets = new Set();
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({
    url: `http://127.0.0.1:${server.address().port}`,
    close: () => new Promise((closed) => { server.close(() => closed()); for (const s of sockets) s.destroy(); }),
  })));
}

