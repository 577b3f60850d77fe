/**
 * The twelve element types: names, ONNX TensorProto numbers, typed arrays,
 * and float16/bfloat16 conversions.
 */
import { OnnxOpsError } from './errors.js';

export type DType =
  | 'float32' | 'float64' | 'float16' | 'bfloat16'
  | 'int8' | 'int16' | 'int32' | 'int64'
  | 'uint8' | 'uint16' | 'uint32' | 'uint64';

export type TypedArray =
  | Float32Array | Float64Array
  | Int8Array | Int16Array | Int32Array | BigInt64Array
  | Uint8Array | Uint16Array | Uint32Array | BigUint64Array;

export const FLOAT_DTYPES: readonly DType[] = ['float16', 'float32', 'float64'];
export const INT_DTYPES: readonly DType[] = ['int8', 'int16', 'int32', 'int64'];
export const UINT_DTYPES: readonly DType[] = ['uint8', 'uint16', 'uint32', 'uint64'];

type TypedArrayConstructor = {
  new (length: number): TypedArray;
  new (buffer: ArrayBufferLike, byteOffset: number, length: number): TypedArray;
  readonly BYTES_PER_ELEMENT: number;
  readonly name: string;
};

export interface DTypeInfo {
  readonly name: DType;
  /** ONNX TensorProto.DataType number. */
  readonly onnx: number;
  readonly bytes: number;
  /** The typed array that holds this dtype's data (raw bits for float16/bfloat16). */
  readonly array: TypedArrayConstructor;
}

const info = (name: DType, onnx: number, array: TypedArrayConstructor): DTypeInfo =>
  ({ name, onnx, bytes: array.BYTES_PER_ELEMENT, array });

export const DTYPE_INFO: Readonly<Record<DType, DTypeInfo>> = {
  float32: info('float32', 1, Float32Array),
  uint8: info('uint8', 2, Uint8Array),
  int8: info('int8', 3, Int8Array),
  uint16: info('uint16', 4, Uint16Array),
  int16: info('int16', 5, Int16Array),
  int32: info('int32', 6, Int32Array),
  int64: info('int64', 7, BigInt64Array),
  float16: info('float16', 10, Uint16Array),
  float64: info('float64', 11, Float64Array),
  uint32: info('uint32', 12, Uint32Array),
  uint64: info('uint64', 13, BigUint64Array),
  bfloat16: info('bfloat16', 16, Uint16Array),
};

export const DTYPES: readonly DType[] = [
  'float32', 'float64', 'float16', 'bfloat16', 'int8', 'int16', 'int32', 'int64',
  'uint8', 'uint16', 'uint32', 'uint64',
];

const BY_NAME = new Map<string, DType>();
for (const d of DTYPES) {
  BY_NAME.set(d, d);
  BY_NAME.set(d.toUpperCase(), d); // TensorProto names: FLOAT16, INT8, ...
}
BY_NAME.set('float', 'float32');
BY_NAME.set('FLOAT', 'float32');
BY_NAME.set('double', 'float64');
BY_NAME.set('DOUBLE', 'float64');
const BY_ONNX = new Map<number, DType>(DTYPES.map((d) => [DTYPE_INFO[d].onnx, d]));

/**
 * A dtype from its name (`'float32'`), ONNX name (`'float'`, `'double'`,
 * `'FLOAT16'`) or TensorProto number (1, 10, 16, ...).
 */
export function toDType(x: unknown, op = 'dtype', input?: number | 'out'): DType {
  const d = typeof x === 'string' ? BY_NAME.get(x) : typeof x === 'number' ? BY_ONNX.get(x) : undefined;
  if (d === undefined) {
    throw new OnnxOpsError('UNKNOWN_DTYPE', op, input,
      `unknown dtype ${typeof x === 'string' ? JSON.stringify(x) : String(x)} (use one of ${DTYPES.join(', ')}, ` +
      'an ONNX name such as "float", or a TensorProto number)');
  }
  return d;
}

/** The runtime's Float16Array, where it has one. */
export const Float16ArrayCtor: (new (...a: never[]) => ArrayBufferView) | undefined =
  (globalThis as { Float16Array?: new (...a: never[]) => ArrayBufferView }).Float16Array;

/** The dtype a bare typed array stands for (Uint16Array is uint16; Float16Array is float16). */
export function dtypeOfArray(a: ArrayBufferView): DType | undefined {
  if (Float16ArrayCtor && a instanceof Float16ArrayCtor) return 'float16';
  for (const d of DTYPES) {
    if (d === 'float16' || d === 'bfloat16') continue;
    if (a instanceof DTYPE_INFO[d].array) return d;
  }
  if (a instanceof Uint8ClampedArray) return 'uint8';
  return undefined;
}

// ---- float16 / bfloat16 <-> number ------------------------------------------

function decode(bits: number, mantBits: number): number {
  const expBits = 15 - mantBits;
  const expMax = (1 << expBits) - 1;
  const bias = expMax >> 1;
  const sign = bits & 0x8000 ? -1 : 1;
  const e = (bits >> mantBits) & expMax;
  const m = bits & ((1 << mantBits) - 1);
  if (e === expMax) return m ? NaN : sign * Infinity;
  if (e === 0) return sign * m * 2 ** (1 - bias - mantBits);
  return sign * (1 + m / 2 ** mantBits) * 2 ** (e - bias);
}

function roundHalfEven(v: number): number {
  const f = Math.floor(v);
  const d = v - f;
  if (d > 0.5) return f + 1;
  if (d < 0.5) return f;
  return f % 2 === 0 ? f : f + 1;
}

// Round to nearest, ties to even, straight from the double (no double rounding).
function encode(x: number, mantBits: number, nanBits: number): number {
  const expBits = 15 - mantBits;
  const expMax = (1 << expBits) - 1;
  const bias = expMax >> 1;
  if (Number.isNaN(x)) return nanBits;
  const sign = x < 0 || Object.is(x, -0) ? 0x8000 : 0;
  const a = Math.abs(x);
  const inf = sign | (expMax << mantBits);
  if (a === Infinity) return inf;
  const minExp = 1 - bias;
  if (a < 2 ** minExp) {
    // Subnormal range: units of 2^(minExp - mantBits). A carry into the
    // exponent field gives the smallest normal, which is right.
    return sign | roundHalfEven(a * 2 ** (mantBits - minExp));
  }
  let e = Math.floor(Math.log2(a));
  while (2 ** e > a) e--;
  while (2 ** (e + 1) <= a) e++;
  let m = roundHalfEven((a / 2 ** e - 1) * 2 ** mantBits);
  if (m === 2 ** mantBits) {
    m = 0;
    e++;
  }
  if (e + bias >= expMax) return inf;
  return sign | ((e + bias) << mantBits) | m;
}

/** The number a float16 bit pattern encodes. */
export const float16ToNumber = (bits: number): number => decode(bits & 0xffff, 10);
/** The float16 bit pattern nearest to a number (ties to even; NaN is 0x7e00). */
export const numberToFloat16 = (x: number): number => encode(x, 10, 0x7e00);
/** The number a bfloat16 bit pattern encodes. */
export const bfloat16ToNumber = (bits: number): number => decode(bits & 0xffff, 7);
/** The bfloat16 bit pattern nearest to a number (ties to even; NaN is 0x7fc0). */
export const numberToBfloat16 = (x: number): number => encode(x, 7, 0x7fc0);

/** Numbers to float16 bits. */
export function encodeFloat16(values: ArrayLike<number>): Uint16Array {
  return Uint16Array.from({ length: values.length }, (_, i) => numberToFloat16(values[i]));
}
/** float16 bits to numbers. */
export function decodeFloat16(bits: ArrayLike<number>): Float64Array {
  return Float64Array.from({ length: bits.length }, (_, i) => float16ToNumber(bits[i]));
}
/** Numbers to bfloat16 bits. */
export function encodeBfloat16(values: ArrayLike<number>): Uint16Array {
  return Uint16Array.from({ length: values.length }, (_, i) => numberToBfloat16(values[i]));
}
/** bfloat16 bits to numbers. */
export function decodeBfloat16(bits: ArrayLike<number>): Float64Array {
  return Float64Array.from({ length: bits.length }, (_, i) => bfloat16ToNumber(bits[i]));
}
