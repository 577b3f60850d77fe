// The raw module's Embind surface (bindings/bindings.cpp): each entry point is
// registered with Embind as well as exported as a plain wasm function, which
// the TypeScript layer calls. The build leaves out Embind's JavaScript for the
// types no binding takes or returns (bindings/embind-slim.js); these calls
// check that every registered function still works and agrees with its plain
// export, on the module createOps() loads from the shipped dist/. run() (the
// entry of ops without one of their own) runs the op the descriptor names.
import { createOps } from 'onnx-ops-wasm';
import { Ops } from '../../js/src/api/ops';
import { WasmBackend } from '../../js/src/backend/wasm/backend';

type RawModule = Record<string, (...args: number[]) => number> & { HEAPU8: Uint8Array };
const createModule = async (): Promise<RawModule> =>
  ((await createOps()) as unknown as { impl: { module: RawModule } }).impl.module;

const FLOAT32 = 1;
const BAD_DTYPE = 1; // onnx_ops::Status::BadDtype
const BAD_OP = 7; // onnx_ops::Status::BadOp
const [MAX, RELU] = [0, 1]; // onnx_ops::OpId

/** The float32 bits of count values at address, as uint32. */
function bitsAt(m: RawModule, address: number, count: number): number[] {
  return Array.from(new Uint32Array(m.HEAPU8.buffer, address, count));
}

test('every Embind function works and agrees with its plain export', async () => {
  const m = await createModule();
  for (const name of ['max', 'relu', 'run', 'alloc', 'release', 'heapInUse', 'simd']) {
    expect(typeof m[name]).toBe('function');
  }
  expect(m.simd()).toBe(m._onnx_ops_simd());
  expect(m.simd()).toBe(1);

  const before = m.heapInUse();
  expect(before).toBe(m._onnx_ops_heap_in_use());
  const n = 8;
  const [x, y, a, b, desc] = [64, 64, 64, 64, 256].map((bytes) => m.alloc(bytes));
  for (const p of [x, y, a, b, desc]) expect(p % 16).toBe(0);
  expect(m.heapInUse()).toBeGreaterThan(before);
  expect(m.heapInUse()).toBe(m._onnx_ops_heap_in_use());

  new Float32Array(m.HEAPU8.buffer, x, n).set([-2, -0, 0, 3.5, NaN, -Infinity, 1e-40, 7]);
  new Float32Array(m.HEAPU8.buffer, y, n).set([1, 0, -0, 3.5, 2, 5, -1, 8]);

  // One descriptor for both ops, the C++ Call as wasm32 lays it out (bindings/bindings.cpp), in int32
  // words: dtype, n, inputs' address, shapes' address, out, out's dims' address, out's rank, op id
  // (src/ops.h: Max 0, Relu 1; read by run() only);
  // the input addresses; a (dims' address, rank) pair per input; the dims as int64 (low word, high word).
  const call = (dtype: number, out: number, outDims: number[], inputs: [number, number[]][], f: (d: number) => number, op = 0): number => {
    const n = inputs.length;
    const words: number[] = [dtype, n, desc + 32, desc + 4 * (8 + n), out, 0, outDims.length, op];
    for (const [address] of inputs) words.push(address);
    const shapes = words.length;
    for (let i = 0; i < n; i++) words.push(0, inputs[i][1].length);
    if (words.length % 2) words.push(0);
    const dims = (d: number[]): number => {
      const at = desc + 4 * words.length;
      for (const k of d) words.push(k, 0);
      return at;
    };
    words[5] = dims(outDims);
    for (let i = 0; i < n; i++) words[shapes + 2 * i] = dims(inputs[i][1]);
    expect(words.length * 4).toBeLessThanOrEqual(256);
    new Int32Array(m.HEAPU8.buffer, desc, words.length).set(words);
    return f(desc);
  };

  // Relu: the same bits through both, and the expected values.
  expect(call(FLOAT32, a, [n], [[x, [n]]], m.relu)).toBe(0);
  expect(call(FLOAT32, b, [n], [[x, [n]]], m._onnx_ops_relu)).toBe(0);
  expect(bitsAt(m, a, n)).toEqual(bitsAt(m, b, n));
  expect(Array.from(new Float32Array(m.HEAPU8.buffer, a, n))).toEqual([0, 0, 0, 3.5, NaN, 0, 1e-40, 7].map(Math.fround));
  expect(call(999, a, [n], [[x, [n]]], m.relu)).toBe(BAD_DTYPE);
  for (const run of [m.run, m._onnx_ops_run]) {
    new Uint32Array(m.HEAPU8.buffer, b, n).fill(0xdeadbeef);
    expect(call(FLOAT32, b, [n], [[x, [n]]], run, RELU)).toBe(0);
    expect(bitsAt(m, b, n)).toEqual(bitsAt(m, a, n));
  }

  // Max of two inputs of one shape.
  expect(call(FLOAT32, a, [n], [[x, [n]], [y, [n]]], m.max)).toBe(0);
  expect(call(FLOAT32, b, [n], [[x, [n]], [y, [n]]], m._onnx_ops_max)).toBe(0);
  expect(bitsAt(m, a, n)).toEqual(bitsAt(m, b, n));
  expect(Array.from(new Float32Array(m.HEAPU8.buffer, a, n))).toEqual([1, 0, 0, 3.5, NaN, 5, 1e-40, 8].map(Math.fround));
  for (const run of [m.run, m._onnx_ops_run]) {
    new Uint32Array(m.HEAPU8.buffer, b, n).fill(0xdeadbeef);
    expect(call(FLOAT32, b, [n], [[x, [n]], [y, [n]]], run, MAX)).toBe(0);
    expect(bitsAt(m, b, n)).toEqual(bitsAt(m, a, n));
    expect(call(FLOAT32, b, [n], [[x, [n]], [y, [n]]], run, 99)).toBe(BAD_OP);
  }

  // Max with a broadcast [1] (y's first value repeated), and of no inputs.
  expect(call(FLOAT32, a, [n], [[x, [n]], [y, [1]]], m.max)).toBe(0);
  expect(call(FLOAT32, b, [n], [[x, [n]], [y, [1]]], m._onnx_ops_max)).toBe(0);
  expect(bitsAt(m, a, n)).toEqual(bitsAt(m, b, n));
  expect(Array.from(new Float32Array(m.HEAPU8.buffer, a, n))).toEqual([1, 1, 1, 3.5, NaN, 1, 1, 7]);
  expect(call(FLOAT32, a, [n], [], m.max)).toBe(2); // BadArity
  // A broadcast that does not fit out's shape: refused, nothing written.
  expect(call(FLOAT32, a, [n], [[x, [2, 4]], [y, [3, 1]]], m.max)).toBe(4); // Incompatible

  for (const p of [x, y, a, b, desc]) m.release(p);
  expect(m.heapInUse()).toBe(before);
});

test('an op without an entry of its own runs through run(), which reads the op the descriptor names', async () => {
  const m = await createModule();
  // The module as it would be for ops with no entry of their own: exports.ts falls back to _onnx_ops_run.
  const bare = Object.create(m) as RawModule;
  Object.assign(bare, { _onnx_ops_max: undefined, _onnx_ops_relu: undefined });
  const viaRun = new Ops(new WasmBackend(bare as never, 1 << 20));
  const own = await createOps();
  const x = { dtype: 'float32', shape: [2, 4], data: new Float32Array([-2, -0, 0, 3.5, NaN, -Infinity, 1e-40, 7]) } as const;
  const y = { dtype: 'float32', shape: [4], data: new Float32Array([1, 0, -0, 9]) } as const;
  const bits = (r: { data: ArrayBufferView }): number[] => Array.from(new Uint32Array(r.data.buffer, r.data.byteOffset, 8));
  // Relu after Max and Max after Relu: each call names its op (a descriptor left from the other op would run it).
  for (let round = 0; round < 2; round++) {
    expect(bits(viaRun.relu(x))).toEqual(bits(own.relu(x)));
    expect(bits(viaRun.max([x, y]))).toEqual(bits(own.max([x, y])));
  }
  expect(bits(viaRun.relu(x))).not.toEqual(bits(viaRun.max([x, y])));
  // Zero-copy calls repeated (the descriptor is written once, then reused).
  const [tx, ty, out] = [viaRun.tensor('float32', [2, 4], x.data), viaRun.tensor('float32', [4], y.data), viaRun.tensor('float32', [2, 4])];
  for (let i = 0; i < 3; i++) {
    viaRun.max([tx, ty], { out });
    expect(bits(out.toPlain())).toEqual(bits(own.max([x, y])));
    viaRun.relu(tx, { out });
    expect(bits(out.toPlain())).toEqual(bits(own.relu(x)));
  }
  for (const t of [tx, ty, out]) t.dispose();
});
