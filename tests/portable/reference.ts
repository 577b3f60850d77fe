/**
 * A small, obviously-correct reference for the tests: numpy broadcasting by
 * index arithmetic, and Max/Relu that pick, for each output element, which
 * input element it is (a max selects an input value), so results compare
 * bit for bit, NaN payloads included. It imports nothing from the library
 * (its own dtype table and float16/bfloat16 decoding), so that it checks the
 * library rather than agreeing with it, and so that the portable suite can
 * carry it into every engine. It is the one semantics oracle outside the
 * product: the bench (bench/oracle.mjs) and the demo compare against it too.
 */
export type DType =
  | 'float32' | 'float64' | 'float16' | 'bfloat16'
  | 'int8' | 'int16' | 'int32' | 'int64'
  | 'uint8' | 'uint16' | 'uint32' | 'uint64';

export type TypedArray =
  | Float32Array | Float64Array | Int8Array | Int16Array | Int32Array | BigInt64Array
  | Uint8Array | Uint16Array | Uint32Array | BigUint64Array;

type ArrayClass = { new (n: number): TypedArray; new (b: ArrayBufferLike, offset?: number, length?: number): TypedArray };

/** Per dtype: the typed array that holds its data (raw bits for float16/bfloat16) and its element size. */
export const DTYPE_INFO: Record<DType, { array: ArrayClass; bytes: number }> = {
  float32: { array: Float32Array, bytes: 4 }, float64: { array: Float64Array, bytes: 8 },
  float16: { array: Uint16Array, bytes: 2 }, bfloat16: { array: Uint16Array, bytes: 2 },
  int8: { array: Int8Array, bytes: 1 }, int16: { array: Int16Array, bytes: 2 },
  int32: { array: Int32Array, bytes: 4 }, int64: { array: BigInt64Array, bytes: 8 },
  uint8: { array: Uint8Array, bytes: 1 }, uint16: { array: Uint16Array, bytes: 2 },
  uint32: { array: Uint32Array, bytes: 4 }, uint64: { array: BigUint64Array, bytes: 8 },
};
export const DTYPES = Object.keys(DTYPE_INFO) as DType[];

/** ONNX TensorProto.DataType numbers: the one table outside the product (tests, bench and demo share it). */
export const ONNX_DTYPE: Record<DType, number> = {
  float32: 1, uint8: 2, int8: 3, uint16: 4, int16: 5, int32: 6, int64: 7,
  float16: 10, float64: 11, uint32: 12, uint64: 13, bfloat16: 16,
};

/** The number a float16 bit pattern encodes. */
export function float16ToNumber(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exp = (bits >> 10) & 0x1f;
  const mant = bits & 0x3ff;
  if (exp === 0x1f) return mant ? NaN : sign * Infinity;
  return sign * (exp === 0 ? mant * 2 ** -24 : (1 + mant / 1024) * 2 ** (exp - 15));
}

const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
/** The number a bfloat16 bit pattern encodes (the high half of a float32). */
export function bfloat16ToNumber(bits: number): number {
  u32[0] = (bits & 0xffff) << 16;
  return f32[0];
}

export interface PlainTensor {
  dtype: DType;
  shape: number[];
  data: TypedArray;
}

export const bytesOf = (a: ArrayBufferView): Uint8Array => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);

/** The value element i stands for (float16/bfloat16 decoded, 64-bit ints as BigInt). */
export function valueAt(dtype: DType, data: TypedArray, i: number): number | bigint {
  const raw = data[i];
  if (dtype === 'float16') return float16ToNumber(raw as number);
  if (dtype === 'bfloat16') return bfloat16ToNumber(raw as number);
  return raw;
}

const isNaNValue = (v: number | bigint): boolean => typeof v === 'number' && Number.isNaN(v);

/** Does b replace a as the running max? (README "Semantics") */
function beats(b: number | bigint, a: number | bigint): boolean {
  if (isNaNValue(a)) return false; // the first NaN stays
  if (isNaNValue(b)) return true;
  if (b > a) return true;
  return b === 0 && a === 0 && Object.is(a, -0) && !Object.is(b, -0); // +0 beats -0
}

export function refBroadcast(shapes: number[][]): number[] | null {
  const rank = Math.max(0, ...shapes.map((s) => s.length));
  const out = new Array<number>(rank).fill(1);
  for (const s of shapes) {
    for (let k = 0; k < s.length; k++) {
      const o = rank - s.length + k;
      if (s[k] === out[o] || s[k] === 1) continue;
      if (out[o] !== 1) return null;
      out[o] = s[k];
    }
  }
  return out;
}

export const count = (shape: readonly number[]): number => shape.reduce((a, b) => a * b, 1);

/** Flat index into `shape` of output position `idx` (numpy broadcasting). */
function sourceIndex(shape: number[], outShape: number[], idx: number[]): number {
  let flat = 0;
  for (let k = 0; k < shape.length; k++) {
    const d = shape[k];
    const j = d === 1 ? 0 : idx[outShape.length - shape.length + k];
    flat = flat * d + j;
  }
  return flat;
}

/** Copies element `from` of `src` to element `to` of `dst` (byte by byte: no view made per element). */
function copyElement(dst: Uint8Array, to: number, src: Uint8Array, from: number, size: number): void {
  for (let b = 0; b < size; b++) dst[to * size + b] = src[from * size + b];
}

/** Expected bytes of Max(inputs) (inputs already broadcast-compatible). */
export function refMax(inputs: PlainTensor[]): { shape: number[]; bytes: Uint8Array } {
  const dtype = inputs[0].dtype;
  const size = DTYPE_INFO[dtype].bytes;
  const shape = refBroadcast(inputs.map((t) => t.shape));
  if (!shape) throw new Error('reference: shapes do not broadcast');
  const n = count(shape);
  const bytes = new Uint8Array(n * size);
  const sources = inputs.map((t) => bytesOf(t.data));
  const idx = new Array<number>(shape.length).fill(0);
  for (let flat = 0; flat < n; flat++) {
    let rem = flat;
    for (let k = shape.length - 1; k >= 0; k--) {
      idx[k] = rem % shape[k];
      rem = Math.floor(rem / shape[k]);
    }
    let best = 0;
    let bestAt = sourceIndex(inputs[0].shape, shape, idx);
    let bestValue = valueAt(dtype, inputs[0].data, bestAt);
    for (let i = 1; i < inputs.length; i++) {
      const at = sourceIndex(inputs[i].shape, shape, idx);
      const v = valueAt(dtype, inputs[i].data, at);
      if (beats(v, bestValue)) {
        best = i;
        bestAt = at;
        bestValue = v;
      }
    }
    copyElement(bytes, flat, sources[best], bestAt, size);
  }
  return { shape, bytes };
}

/** Expected bytes of Relu(x): x where x > 0 or x is NaN, else +0. */
export function refRelu(x: PlainTensor): Uint8Array {
  const size = DTYPE_INFO[x.dtype].bytes;
  const src = bytesOf(x.data);
  const bytes = new Uint8Array(x.data.length * size);
  for (let i = 0; i < x.data.length; i++) {
    const v = valueAt(x.dtype, x.data, i);
    if (isNaNValue(v) || v > 0) copyElement(bytes, i, src, i, size);
  }
  return bytes;
}

/** First differing element, for readable failures; -1 when equal. */
export function firstDifference(actual: ArrayBufferView, expected: Uint8Array, elementBytes: number): number {
  const a = bytesOf(actual);
  if (a.length !== expected.length) return 0;
  for (let i = 0; i < a.length; i++) if (a[i] !== expected[i]) return Math.floor(i / elementBytes);
  return -1;
}

// ---- data generation ---------------------------------------------------------

/** Raw bit patterns / values that break naive kernels, per dtype. */
export function specials(dtype: DType): (number | bigint)[] {
  switch (dtype) {
    case 'float16':
      return [0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01, 0x0001, 0x8001, 0x03ff, 0x7bff, 0xfbff];
    case 'bfloat16':
      return [0x0000, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc1, 0x0001, 0x8001, 0x007f, 0x7f7f, 0xff7f];
    case 'float32':
    case 'float64':
      return [0, -0, 1, -1, Infinity, -Infinity, NaN, 5e-324, -5e-324, 1.4e-45, 3.4e38, -3.4e38, 0.5];
    case 'int64':
      return [0n, 1n, -1n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 53n + 1n, -(2n ** 53n) - 1n];
    case 'uint64':
      return [0n, 1n, 2n ** 64n - 1n, 2n ** 63n, 2n ** 63n - 1n, 2n ** 53n + 1n];
    default: {
      const bits = DTYPE_INFO[dtype].bytes * 8;
      const signed = dtype.startsWith('int');
      const max = signed ? 2 ** (bits - 1) - 1 : 2 ** bits - 1;
      const min = signed ? -(2 ** (bits - 1)) : 0;
      return [0, 1, max, min, max - 1, min + 1, signed ? -1 : 2];
    }
  }
}

/** Deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Random data of a dtype: specials, small values (ties), and random bit patterns. */
export function randomData(dtype: DType, n: number, rand: () => number): TypedArray {
  const a = new DTYPE_INFO[dtype].array(n);
  const bytes = bytesOf(a);
  const sp = specials(dtype);
  const size = DTYPE_INFO[dtype].bytes;
  for (let i = 0; i < n; i++) {
    const r = rand();
    if (r < 0.3) {
      (a as unknown as (number | bigint)[])[i] = sp[Math.floor(rand() * sp.length)];
    } else if (r < 0.7) {
      const small = Math.floor(rand() * 7) - 3;
      const v = dtype.startsWith('uint') ? small + 3 : small;
      if (dtype === 'float16' || dtype === 'bfloat16') {
        (a as Uint16Array)[i] = dtype === 'float16' ? [0xc200, 0xc000, 0xbc00, 0, 0x3c00, 0x4000, 0x4200][small + 3]
          : [0xc040, 0xc000, 0xbf80, 0, 0x3f80, 0x4000, 0x4040][small + 3];
      } else if (dtype === 'int64' || dtype === 'uint64') {
        (a as BigInt64Array)[i] = BigInt(v);
      } else {
        (a as Float64Array)[i] = v;
      }
    } else {
      for (let b = 0; b < size; b++) bytes[i * size + b] = Math.floor(rand() * 256);
    }
  }
  return a;
}

/** The float16 bits of a number that float16 represents exactly (throws otherwise: test data only). */
export function exactFloat16(x: number): number {
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  if (a === 0) return sign;
  if (a === Infinity) return sign | 0x7c00;
  const e = Math.max(Math.floor(Math.log2(a)), -14);
  const mant = e === -14 && a < 2 ** -14 ? a / 2 ** -24 : (a / 2 ** e - 1) * 1024;
  if (!Number.isInteger(mant) || e > 15) throw new Error(`reference: ${x} is not a float16`);
  return sign | ((a < 2 ** -14 ? 0 : e + 15) << 10) | mant;
}

/** The bfloat16 bits of a number that bfloat16 represents exactly (throws otherwise). */
export function exactBfloat16(x: number): number {
  f32[0] = x;
  if (f32[0] !== x || (u32[0] & 0xffff) !== 0) throw new Error(`reference: ${x} is not a bfloat16`);
  return u32[0] >>> 16;
}

/** A typed array of `dtype` holding exactly `values` (float16/bfloat16 as bits, 64-bit ints as BigInt). */
export function arrayOf(dtype: DType, values: readonly (number | bigint)[]): TypedArray {
  const a = new DTYPE_INFO[dtype].array(values.length);
  values.forEach((v, i) => {
    (a as unknown as (number | bigint)[])[i] = dtype === 'float16' ? exactFloat16(Number(v)) : dtype === 'bfloat16'
      ? exactBfloat16(Number(v)) : dtype === 'int64' || dtype === 'uint64' ? BigInt(v) : Number(v);
  });
  return a;
}
