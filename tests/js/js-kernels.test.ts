// The JavaScript kernels (js/src/backend/js/kernels.ts) against the
// reference, bit for bit: random broadcasts of every dtype with NaN payloads,
// signed zeros and extremes; runs longer than the fold's tile; in place.
import fc from 'fast-check';
import { type KernelDType, type KernelOperand, type Storage, opInto } from '../../js/src/backend/js/kernels';
import {
  DTYPE_INFO, DTYPES, type PlainTensor, type TypedArray, bytesOf, count, firstDifference, randomData, refBroadcast, refMax,
  refRelu, rng, specials,
} from './reference';
import { broadcastFields, shapesOf } from './broadcast-cases';

const broadcastCase = fc.record({
  ...broadcastFields(40, 5),
  dtype: fc.constantFrom(...DTYPES),
  seed: fc.nat(),
}).filter((c) => count(c.out) <= 3000);

const maxInto = (dtype: KernelDType, inputs: KernelOperand[], shape: number[], out: Storage) => opInto('Max', dtype, inputs, shape, out);
const reluInto = (dtype: KernelDType, n: number, x: Storage, out: Storage) => opInto('Relu', dtype, [{ ...x, shape: [n] }], [n], out);
const fresh = (dtype: KernelDType, n: number): TypedArray => new DTYPE_INFO[dtype].array(n);
/** A typed array's storage, as the backend reads it. */
const at = (a: TypedArray) => ({ buffer: a.buffer, byteOffset: a.byteOffset, length: a.length });
const operands = (inputs: PlainTensor[]) => inputs.map((t) => ({ ...at(t.data), shape: t.shape }));

function expectMax(inputs: PlainTensor[], out?: TypedArray): void {
  const dtype = inputs[0].dtype;
  const expected = refMax(inputs.map((t) => ({ ...t, data: t.data.slice() })));
  const result = out ?? fresh(dtype, count(expected.shape));
  maxInto(dtype, operands(inputs), expected.shape, at(result));
  expect(firstDifference(result, expected.bytes, DTYPE_INFO[dtype].bytes)).toBe(-1);
}

describe('JavaScript kernels: Max', () => {
  test('random broadcasts of every dtype match the reference', () => {
    fc.assert(fc.property(broadcastCase, (c) => {
      const shapes = shapesOf(c);
      if (!refBroadcast(shapes)) return;
      const rand = rng(c.seed);
      const inputs = shapes.map((shape) => ({ dtype: c.dtype, shape, data: randomData(c.dtype, count(shape), rand) }));
      const copies = inputs.map((t) => bytesOf(t.data).slice());
      expectMax(inputs);
      inputs.forEach((t, i) => expect(bytesOf(t.data)).toEqual(copies[i])); // inputs untouched
    }), { numRuns: 600 });
  });

  test.each(DTYPES)('every pair of special values, both orders: %s', (dtype) => {
    const sp = specials(dtype);
    const a = new DTYPE_INFO[dtype].array(sp.length * sp.length);
    const b = new DTYPE_INFO[dtype].array(sp.length * sp.length);
    sp.forEach((x, i) => sp.forEach((y, j) => {
      (a as unknown as (number | bigint)[])[i * sp.length + j] = x;
      (b as unknown as (number | bigint)[])[i * sp.length + j] = y;
    }));
    const shape = [a.length];
    expectMax([{ dtype, shape, data: a }, { dtype, shape, data: b }]);
    expectMax([{ dtype, shape, data: b }, { dtype, shape, data: a }]);
  });

  test.each(DTYPES)('three to six inputs over runs longer than the tile, and in place: %s', (dtype) => {
    const rand = rng(DTYPES.indexOf(dtype) + 1);
    for (const n of [2, 3, 4, 6]) {
      const shapes = [[5000], [1], [5000], [2, 5000], [1, 1], [5000]].slice(0, n);
      const inputs = shapes.map((shape) => ({ dtype, shape, data: randomData(dtype, count(shape), rand) }));
      expectMax(inputs);
      // In place: out is an input of the output's size, first or later in the fold.
      for (const k of [0, 2].filter((i) => i < n)) {
        const same = inputs.map((t) => ({ ...t, shape: t.shape[0] === 2 ? [5000] : t.shape }))
          .filter((t) => count(t.shape) <= 5000);
        const copy = same.map((t) => ({ ...t, data: t.data.slice() }));
        const expected = refMax(copy);
        maxInto(dtype, operands(same), expected.shape, at(same[k].data));
        expect(firstDifference(same[k].data, expected.bytes, DTYPE_INFO[dtype].bytes)).toBe(-1);
      }
    }
  });

  test('64-bit values that differ in one word only: low words compare unsigned', () => {
    // Equal high words, low words on either side of 2^31; a NaN whose high word is -inf's.
    const ints = [0n, 1n, 2n ** 31n, 2n ** 32n - 1n, 2n ** 32n, -1n, -(2n ** 31n), -(2n ** 32n), -(2n ** 32n) + 1n];
    const pairs = (values: bigint[]) => ({
      a: values.flatMap((x) => values.map(() => x)), b: values.flatMap(() => values),
    });
    for (const dtype of ['int64', 'uint64'] as const) {
      const wrap = dtype === 'uint64' ? (x: bigint) => BigInt.asUintN(64, x) : (x: bigint) => x;
      const { a, b } = pairs(ints.map(wrap));
      const A = DTYPE_INFO[dtype].array === BigInt64Array ? BigInt64Array.from(a) : BigUint64Array.from(a);
      const B = DTYPE_INFO[dtype].array === BigInt64Array ? BigInt64Array.from(b) : BigUint64Array.from(b);
      expectMax([{ dtype, shape: [A.length], data: A }, { dtype, shape: [B.length], data: B }]);
      const expected = refRelu({ dtype, shape: [A.length], data: A });
      const out = fresh(dtype, A.length);
      reluInto(dtype, A.length, at(A), at(out));
      expect(firstDifference(out, expected, 8)).toBe(-1);
    }
    const f = new Float64Array(4);
    new BigUint64Array(f.buffer).set([0xfff0000000000001n, 0xfff0000000000000n, 0x7ff0000000000001n, 0x8000000000000001n]);
    const out = new Float64Array(4);
    reluInto('float64', 4, at(f), at(out));
    expect(firstDifference(out, refRelu({ dtype: 'float64', shape: [4], data: f }), 8)).toBe(-1);
  });

  test('one input is a copy; a zero-size output writes nothing', () => {
    const x = new Float32Array([NaN, -0, 3]);
    new Uint32Array(x.buffer)[0] = 0xffc01234; // a negative NaN with a payload
    const out = new Float32Array(3);
    maxInto('float32', [{ ...at(x), shape: [3] }], [3], at(out));
    expect(new Uint32Array(out.buffer)).toEqual(new Uint32Array(x.buffer));
    const untouched = new Float32Array([7]);
    maxInto('float32', [{ ...at(new Float32Array(0)), shape: [0] }, { ...at(x), shape: [1, 3] }], [0, 3], { ...at(untouched), length: 0 });
    expect(untouched[0]).toBe(7);
  });

  test('subarray views at an offset are read and written where they are', () => {
    const buf = new Float64Array(10).fill(-1);
    const a = buf.subarray(2, 5);
    a.set([1, -0, NaN]);
    const b = new Float64Array([0, 0, 0]);
    const out = buf.subarray(6, 9);
    maxInto('float64', [{ ...at(a), shape: [3] }, { ...at(b), shape: [3] }], [3], at(out));
    expect(Array.from(out)).toEqual([1, 0, NaN]);
    expect(Object.is(out[1], 0)).toBe(true);
    expect([buf[5], buf[9]]).toEqual([-1, -1]);
  });
});

describe('JavaScript kernels: Relu', () => {
  test.each(DTYPES)('random data and every special value, and in place: %s', (dtype) => {
    const rand = rng(100 + DTYPES.indexOf(dtype));
    const x = randomData(dtype, 3000, rand);
    specials(dtype).forEach((v, i) => ((x as unknown as (number | bigint)[])[i] = v));
    const expected = refRelu({ dtype, shape: [x.length], data: x });
    const out = fresh(dtype, x.length);
    reluInto(dtype, x.length, at(x), at(out));
    expect(firstDifference(out, expected, DTYPE_INFO[dtype].bytes)).toBe(-1);
    reluInto(dtype, x.length, at(x), at(x));
    expect(firstDifference(x, expected, DTYPE_INFO[dtype].bytes)).toBe(-1);
  });
});
