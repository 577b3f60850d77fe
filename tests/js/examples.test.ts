// The README's Node examples run against the built package (dist/, made by
// `npm run build`, which `npm test` runs first) and print the right values.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const run = (file: string) => execFileSync(process.execPath, [join(root, 'examples', file)], { encoding: 'utf8' });

beforeAll(() => {
  if (!existsSync(join(root, 'dist', 'esm', 'index.js')) || !existsSync(join(root, 'dist', 'cjs', 'index.js'))) {
    throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
  }
});

test('Node ESM example', () => {
  const out = run('node-esm.mjs');
  expect(out).toContain('wasm SIMD: true');
  expect(out).toContain('Relu [ 2, 3 ] [ 0, 0, 0, 1, 2, 3 ]');
  expect(out).toContain('Max [ 2, 3 ] [ 0.5, -1, 2.5, 1, 2, 3 ]');
  expect(out).toContain('Relu int8 in place [ 0, 0, 0, 127 ]');
  expect(out).toContain('error BROADCAST_MISMATCH: Max: input 1: shape [4]');
});

test('Node CommonJS example', () => {
  const out = run('node-cjs.cjs');
  expect(out).toContain('Max float16 [ 1.5, 0, 65504 ]');
  expect(out).toContain("Relu int64 [ '0', '4611686018427387904' ]");
});

test('Node worker-form example (createOps({ worker: true }))', () => {
  const out = run('worker-form.mjs');
  expect(out).toContain('worker: true, backend: wasm-simd');
  expect(out).toContain('Relu [ 2, 3 ] [ 0, 0, 0, 1, 2, 3 ] input kept [ -3, -1, 0, 1, 2, 3 ]');
  expect(out).toContain('Max [ 3 ] [ 1, 1, 2.5 ] transferred input length 0');
  expect(out).toContain('Relu int8 into out [ 0, 0, 0, 127 ]');
  expect(out).toContain('Max in the worker, read [ 2, 2, 7 ]');
  expect(out).toContain('error BROADCAST_MISMATCH: Max: input 1: shape [4]');
});

test('the shipped JavaScript never evaluates code (no eval, no Function constructor)', () => {
  const { readdirSync, readFileSync, statSync } = require('node:fs') as typeof import('node:fs');
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const f of readdirSync(dir)) {
      const p = join(dir, f);
      if (statSync(p).isDirectory()) walk(p);
      else if (f.endsWith('.js')) files.push(p);
    }
  };
  walk(join(root, 'dist'));
  const shipped = ['index.js', 'onnx-ops-wasm-data.js', 'js.js', 'onnx-ops-wasm-scalar.js', 'backend-js.js', 'worker-client.js', 'onnx-ops-wasm-worker.js', 'inflate.js', 'wasm-host.js'];
  // edge.js, the entry of the 'workerd' and 'edge-light' conditions, is an ES module only.
  expect(files.sort()).toEqual([...['cjs', 'esm'].flatMap((kind) => shipped.map((f) => join(root, 'dist', kind, f))), join(root, 'dist', 'esm', 'edge.js')].sort());
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    expect({ file: f, eval: /\beval\s*\(/.test(text), fn: /\bnew\s+Function\b|\bFunction\s*\(/.test(text) })
      .toEqual({ file: f, eval: false, fn: false });
  }
});
