// createOps({ wasmBinary }) given a compiled WebAssembly.Module (issue 48), as
// hosts that compile no wasm from bytes hand it over (Cloudflare Workers,
// Vercel's edge): instantiated as it is, never compiled again; checked to be
// this package's module, with the bytes' typed errors. And the inflater
// (dist/cjs/inflate.js) that runtimes without a working DecompressionStream load.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync, deflateSync } from 'node:zlib';
import { OnnxOpsError, type Ops, createOps } from 'onnx-ops-wasm';
import { refMax, refRelu } from '../portable/reference';

const ROOT = join(__dirname, '..', '..');
const bytes = readFileSync(join(ROOT, 'dist', 'onnx-ops-wasm.wasm'));
const compiled = new WebAssembly.Module(bytes);
const f32 = (bits: number[]) => new Float32Array(new Uint32Array(bits).buffer);
const hex = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('hex');
const rejection = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e);

/** Relu and a broadcasting Max on `ops`, bit for bit against the reference. */
function expectExact(ops: Ops): void {
  const x = { dtype: 'float32' as const, shape: [2, 1], data: f32([0x80000000, 0x7fc00001]) };
  const y = { dtype: 'float32' as const, shape: [3], data: f32([0, 0x80000000, 0xbf800000]) };
  const max = ops.max([x, y]);
  const want = refMax([x, y]);
  expect(max.shape).toEqual(want.shape);
  expect(hex(max.data)).toBe(Buffer.from(want.bytes).toString('hex'));
  const i = { dtype: 'int32' as const, shape: [4], data: new Int32Array([-3, 0, 7, -2147483648]) };
  expect(hex(ops.relu(i).data)).toBe(Buffer.from(refRelu(i)).toString('hex'));
}

describe('a WebAssembly.Module as wasmBinary', () => {
  test('runs wasm-simd, exact, on the default and the forced backend; no fallbackReason', async () => {
    for (const backend of [undefined, 'wasm-simd' as const]) {
      const ops = await createOps({ wasmBinary: compiled, backend });
      expect([ops.backend, ops.simd, ops.fallbackReason]).toEqual(['wasm-simd', true, undefined]);
      expectExact(ops);
    }
  });

  test('is instantiated as it is: nothing is compiled from bytes, nothing inflated', async () => {
    const { Module, compile, instantiate, instantiateStreaming } = WebAssembly;
    const fromBytes: string[] = [];
    const isModule = (x: unknown) => Object.prototype.toString.call(x) === '[object WebAssembly.Module]';
    const w = WebAssembly as unknown as Record<string, unknown>;
    w.Module = Object.assign(function (b: BufferSource) { fromBytes.push('new Module'); return new Module(b); },
      { imports: Module.imports, exports: Module.exports, customSections: Module.customSections });
    w.compile = (b: BufferSource) => { fromBytes.push('compile'); return compile(b); };
    w.instantiate = (b: BufferSource | WebAssembly.Module, imports?: WebAssembly.Imports) => {
      if (!isModule(b)) fromBytes.push('instantiate from bytes');
      return instantiate(b as WebAssembly.Module, imports);
    };
    w.instantiateStreaming = () => { fromBytes.push('instantiateStreaming'); return Promise.reject(new Error('no')); };
    const { DecompressionStream: Real } = globalThis;
    (globalThis as Record<string, unknown>).DecompressionStream = class { constructor() { fromBytes.push('inflate'); } };
    try {
      const ops = await createOps({ wasmBinary: compiled });
      expect(ops.backend).toBe('wasm-simd');
      expectExact(ops);
    } finally {
      Object.assign(w, { Module, compile, instantiate, instantiateStreaming });
      globalThis.DecompressionStream = Real;
    }
    expect(fromBytes).toEqual([]);
  });

  test('one that is not this package\'s, or not a module, is INVALID_ARGUMENT naming wasmBinary, quietly; the library stays usable', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => {});
    const error = jest.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // A module with nothing in it; one with an import the glue does not give; one with the glue's imports and no exports.
      const empty = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
      const foreignImport = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 2, 9, 1, 3, 101, 110, 118, 1, 102, 0, 0]));
      const gluesImport = new WebAssembly.Module(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 2, 7, 1, 1, 97, 1, 97, 0, 0]));
      const notOurs = 'createOps: wasmBinary is not this package\'s wasm (onnx-ops-wasm/wasm) [INVALID_ARGUMENT]';
      for (const m of [empty, foreignImport, gluesImport]) {
        const e = await rejection(createOps({ wasmBinary: m }));
        expect(e).toBeInstanceOf(OnnxOpsError);
        expect(e).toMatchObject({ code: 'INVALID_ARGUMENT', op: 'createOps', message: notOurs });
      }
      // A lookalike: the tag of a Module, no module behind it.
      const lookalike = await rejection(createOps({ wasmBinary: { [Symbol.toStringTag]: 'WebAssembly.Module' } }));
      expect(lookalike).toMatchObject({ code: 'INVALID_ARGUMENT', op: 'createOps' });
      expect((lookalike as Error).message).toMatch(/^createOps: wasmBinary did not load: /);
      const plainObject = await rejection(createOps({ wasmBinary: {} }));
      expect(plainObject).toMatchObject({
        code: 'INVALID_ARGUMENT', message: 'createOps: wasmBinary must be an ArrayBuffer, a typed array or a WebAssembly.Module, got an object [INVALID_ARGUMENT]',
      });
      expect(await rejection(createOps({ wasmBinary: compiled, backend: 'js' }))).toMatchObject({ code: 'INVALID_ARGUMENT', message: 'createOps: wasmBinary is for the wasm backends [INVALID_ARGUMENT]' });
      expect(warn).not.toHaveBeenCalled();
      expect(error).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
      error.mockRestore();
    }
    expectExact(await createOps({ wasmBinary: compiled }));
  });

  test('the scalar module, compiled, runs the wasm backend', async () => {
    const scalar = new WebAssembly.Module(readFileSync(join(ROOT, 'build', 'wasm-scalar', 'module', 'esm', 'onnx-ops-wasm.wasm')));
    const ops = await createOps({ wasmBinary: scalar });
    expect([ops.backend, ops.simd]).toEqual(['wasm', false]);
    expectExact(ops);
  });

  test('the worker form takes it too (a Module crosses to the worker by postMessage)', async () => {
    const ops = await createOps({ wasmBinary: compiled, worker: true });
    try {
      expect(ops.backend).toBe('wasm-simd');
      const r = await ops.relu({ dtype: 'float32', shape: [3], data: f32([0x80000000, 0xffc00002, 0x3f800000]) });
      expect(hex(r.data)).toBe(Buffer.from(refRelu({ dtype: 'float32', shape: [3], data: f32([0x80000000, 0xffc00002, 0x3f800000]) })).toString('hex'));
    } finally {
      await ops.close();
    }
  });
});

describe('the inflater for runtimes without a working DecompressionStream (inflate.js)', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { inflate } = require(join(ROOT, 'dist', 'cjs', 'inflate.js')) as { inflate: (z: Uint8Array) => Uint8Array };
  const random = (n: number, seed: number) => {
    let s = seed;
    return Uint8Array.from({ length: n }, () => ((s = (s * 1103515245 + 12345) >>> 0) >>> 24));
  };

  test('inflates zlib streams of every block type and level to the bytes deflated', () => {
    const texts = [bytes, new Uint8Array(0), new Uint8Array(70_000).fill(7), random(70_000, 1), random(300, 2), Buffer.from('abc'.repeat(5000))];
    for (const data of texts) {
      for (const level of [0, 1, 6, 9]) {
        for (const strategy of [0, 1, 2, 3, 4]) { // default, filtered, Huffman only, RLE, fixed codes
          expect(Buffer.from(inflate(deflateSync(data, { level, strategy }))).equals(Buffer.from(data))).toBe(true);
        }
      }
    }
  });

  test('the embedded wasm inflates to dist/onnx-ops-wasm.wasm', () => {
    const data = readFileSync(join(ROOT, 'dist', 'cjs', 'onnx-ops-wasm-data.js'), 'utf8');
    const base64 = /module\.exports="([\w+/=]+)"/.exec(data)![1];
    expect(Buffer.from(inflate(Buffer.from(base64, 'base64'))).equals(bytes)).toBe(true);
  });

  test('a damaged or foreign stream throws, never returns wrong bytes', () => {
    const z = deflateSync(bytes);
    const flipped = Buffer.from(z);
    flipped[flipped.length - 1] ^= 1; // the Adler-32
    const cases = [flipped, z.subarray(0, 1000), deflateRawSync(bytes), new Uint8Array([0x78, 0x9c, 0xff]), new Uint8Array(0)];
    for (const c of cases) expect(() => inflate(c)).toThrow(/onnx-ops-wasm: the built-in wasm does not inflate/);
  });
});
