// The raw module's Embind surface (bindings/bindings.cpp): each entry point is
// registered with Embind as well as exported as a plain wasm function, which
// the TypeScript layer calls. The build leaves out Embind's JavaScript for the
// types no binding takes or returns (bindings/embind-slim.js); these calls
// check that every registered function still works and agrees with its plain
// export, on the module the package ships (dist/cjs/wasm/onnx-ops-wasm.js, the
// glue and wasm that createOps() loads).
import { join } from 'node:path';

type RawModule = Record<string, (...args: number[]) => number> & { HEAPU8: Uint8Array };
// eslint-disable-next-line @typescript-eslint/no-var-requires
const createModule: () => Promise<RawModule> = require(join(__dirname, '../../dist/cjs/wasm/onnx-ops-wasm.js')).default;

const FLOAT32 = 1;
const BAD_DTYPE = 1; // onnx_ops::Status::BadDtype

/** The float32 bits of count values at address, as uint32. */
function bitsAt(m: RawModule, address: number, count: number): number[] {
  return Array.from(new Uint32Array(m.HEAPU8.buffer, address, count));
}

test('every Embind function works and agrees with its plain export', async () => {
  const m = await createModule();
  for (const name of ['max', 'maxFlat', 'relu', 'alloc', 'release', 'heapInUse', 'simd']) {
    expect(typeof m[name]).toBe('function');
  }
  expect(m.simd()).toBe(m._onnx_ops_simd());
  expect(m.simd()).toBe(1);

  const before = m.heapInUse();
  expect(before).toBe(m._onnx_ops_heap_in_use());
  const n = 8;
  const [x, y, a, b, desc] = [0, 1, 2, 3, 4].map(() => m.alloc(64));
  for (const p of [x, y, a, b, desc]) expect(p % 16).toBe(0);
  expect(m.heapInUse()).toBeGreaterThan(before);
  expect(m.heapInUse()).toBe(m._onnx_ops_heap_in_use());

  new Float32Array(m.HEAPU8.buffer, x, n).set([-2, -0, 0, 3.5, NaN, -Infinity, 1e-40, 7]);
  new Float32Array(m.HEAPU8.buffer, y, n).set([1, 0, -0, 3.5, 2, 5, -1, 8]);

  // Relu: the same bits through both, and the expected values.
  expect(m.relu(FLOAT32, x, a, n)).toBe(0);
  expect(m._onnx_ops_relu(FLOAT32, x, b, n)).toBe(0);
  expect(bitsAt(m, a, n)).toEqual(bitsAt(m, b, n));
  expect(Array.from(new Float32Array(m.HEAPU8.buffer, a, n))).toEqual([0, 0, 0, 3.5, NaN, 0, 1e-40, 7].map(Math.fround));
  expect(m.relu(999, x, a, n)).toBe(BAD_DTYPE);

  // Max through the general descriptor: dtype, n, out, out rank, out dims, then (address, rank, dims) per input.
  const words = [FLOAT32, 2, a, 1, n, x, 1, n, y, 1, n];
  new Int32Array(m.HEAPU8.buffer, desc, words.length).set(words);
  expect(m.max(desc)).toBe(0);
  words[2] = b;
  new Int32Array(m.HEAPU8.buffer, desc, words.length).set(words);
  expect(m._onnx_ops_max(desc)).toBe(0);
  expect(bitsAt(m, a, n)).toEqual(bitsAt(m, b, n));
  expect(Array.from(new Float32Array(m.HEAPU8.buffer, a, n))).toEqual([1, 0, 0, 3.5, NaN, 5, 1e-40, 8].map(Math.fround));

  // Max through the flat descriptor: (address, is_scalar) per input; y's first value repeated.
  new Int32Array(m.HEAPU8.buffer, desc, 4).set([x, 0, y, 1]);
  expect(m.maxFlat(FLOAT32, 2, desc, a, n)).toBe(0);
  expect(m._onnx_ops_max_flat(FLOAT32, 2, desc, b, n)).toBe(0);
  expect(bitsAt(m, a, n)).toEqual(bitsAt(m, b, n));
  expect(Array.from(new Float32Array(m.HEAPU8.buffer, a, n))).toEqual([1, 1, 1, 3.5, NaN, 1, 1, 7]);
  expect(m.maxFlat(FLOAT32, 0, desc, a, n)).toBe(m._onnx_ops_max_flat(FLOAT32, 0, desc, a, n));

  for (const p of [x, y, a, b, desc]) m.release(p);
  expect(m.heapInUse()).toBe(before);
});
