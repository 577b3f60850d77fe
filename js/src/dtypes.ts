/**
 * The twelve element types: names, ONNX TensorProto numbers, typed arrays,
 * and float16/bfloat16 conversions.
 */
import { OnnxOpsError, describe } from './errors.js';

export type DType =
  | 'float32' | 'float64' | 'float16' | 'bfloat16'
  | 'int8' | 'int16' | 'int32' | 'int64'
  | 'uint8' | 'uint16' | 'uint32' | 'uint64';

export type TypedArray =
  | Float32Array | Float64Array
  | Int8Array | Int16Array | Int32Array | BigInt64Array
  | Uint8Array | Uint16Array | Uint32Array | BigUint64Array;

export type TypedArrayConstructor = {
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
  /** Its name ("Float32Array"), read once: checked on every input. */
  readonly arrayName: string;
}

const info = (name: DType, onnx: number, array: TypedArrayConstructor): DTypeInfo =>
  ({ name, onnx, bytes: array.BYTES_PER_ELEMENT, array, arrayName: array.name });

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

// Name and number to the dtype's info: the call path carries the info object,
// whose fields are read at one fixed shape (`DTYPE_INFO[dtype]`, with a dtype
// that varies, becomes a slow keyed lookup once a caller has used several).
const BY_NAME = new Map<string, DTypeInfo>();
for (const d of DTYPES) {
  BY_NAME.set(d, DTYPE_INFO[d]);
  BY_NAME.set(d.toUpperCase(), DTYPE_INFO[d]); // TensorProto names: FLOAT16, INT8, ...
}
BY_NAME.set('float', DTYPE_INFO.float32);
BY_NAME.set('FLOAT', DTYPE_INFO.float32);
BY_NAME.set('double', DTYPE_INFO.float64);
BY_NAME.set('DOUBLE', DTYPE_INFO.float64);
const BY_ONNX = new Map<number, DTypeInfo>(DTYPES.map((d) => [DTYPE_INFO[d].onnx, DTYPE_INFO[d]]));

/**
 * A dtype from its name (`'float32'`), ONNX name (`'float'`, `'double'`,
 * `'FLOAT16'`) or TensorProto number (1, 10, 16, ...).
 */
export function toDType(x: unknown, op = 'dtype', input?: number | 'out'): DType {
  return dtypeInfo(x, op, input).name;
}

// The last name looked up: calls in a row mostly name one dtype, and a
// compare is cheaper than the map lookup.
let lastName = 'float32';
let lastInfo = DTYPE_INFO.float32;

/** toDType's info object. */
export function dtypeInfo(x: unknown, op = 'dtype', input?: number | 'out'): DTypeInfo {
  if (x === lastName) return lastInfo;
  if (x instanceof String || x instanceof Number) x = x.valueOf();
  const d = typeof x === 'string' ? BY_NAME.get(x) : typeof x === 'number' ? BY_ONNX.get(x) : undefined;
  if (typeof x === 'string' && d !== undefined) {
    lastName = x;
    lastInfo = d;
  }
  if (d === undefined) {
    throw new OnnxOpsError('UNKNOWN_DTYPE', op, input,
      `unknown dtype ${typeof x === 'string' ? JSON.stringify(x) : typeof x === 'number' ? String(x) : describe(x)} (use one of ${DTYPES.join(', ')}, ` +
      'an ONNX name such as "float", or a TensorProto number)');
  }
  return d;
}

// The engine's own accessors of typed arrays: they read internal slots, so a
// subclass overriding `length`, a null prototype, or an array from another
// realm (iframe, vm context) cannot mislead them.
const TYPED_ARRAY_PROTO = Object.getPrototypeOf(Int8Array.prototype) as object;
const intrinsic = (key: PropertyKey) => Object.getOwnPropertyDescriptor(TYPED_ARRAY_PROTO, key)!.get!;
const getTag = intrinsic(Symbol.toStringTag);
const getBuffer = intrinsic('buffer');
const getByteOffset = intrinsic('byteOffset');
const getLength = intrinsic('length');
const setFrom = (TYPED_ARRAY_PROTO as { set: (source: TypedArray, offset?: number) => void }).set;
// includes(), not at(): both validate their receiver, and includes() runs on older engines.
const includesFrom = (TYPED_ARRAY_PROTO as { includes: (x: unknown) => boolean }).includes;

/** Throws a TypeError when x's buffer is detached, or was shrunk below a fixed-length x (both read as length 0). */
export function assertInBounds(x: ArrayBufferView): void {
  includesFrom.call(x, 0);
}

/** x's buffer, byte offset and element count, from its internal slots. */
export const bufferOf = (x: TypedArray): ArrayBufferLike => getBuffer.call(x) as ArrayBufferLike;
export const byteOffsetOf = (x: TypedArray): number => getByteOffset.call(x) as number;
export const lengthOf = (x: TypedArray): number => getLength.call(x) as number;

/** Copies typed array `source` into typed array `target` from element `offset` on (TypedArray.prototype.set on internal slots). */
export function copyInto(target: TypedArray, source: TypedArray, offset = 0): void {
  setFrom.call(target, source, offset);
}

/** 'Float32Array', 'Uint8ClampedArray', ... for a typed array of any realm; undefined otherwise. */
export function typedArrayKind(x: unknown): string | undefined {
  return typeof x === 'object' && x !== null ? (getTag.call(x) as string | undefined) : undefined;
}

/**
 * Typed array `x` as an `array`: x itself when `same` (its class holds the
 * same elements: then it must be read only through the functions above,
 * never through its own properties, which a subclass or the caller may have
 * changed), else a view of this realm's `array` class over exactly its memory
 * (same buffer, offset and element count, read from internal slots); a copy
 * when that memory lies in `copyFrom` (wasm memory, which a call may grow,
 * detaching any view). Throws a TypeError when x's buffer is detached or too short for x.
 * `buffer`, `length`: x's, when the caller has read them (each read is a call into the engine; the length reads 0 when detached).
 */
export function standardView(x: ArrayBufferView, array: TypedArrayConstructor, copyFrom?: ArrayBufferLike,
  same = false, buffer = getBuffer.call(x) as ArrayBufferLike, length = getLength.call(x) as number): TypedArray {
  if (length === 0) assertInBounds(x);
  if (same && buffer !== copyFrom) return x as TypedArray;
  const view = new array(buffer, getByteOffset.call(x) as number, length);
  return buffer === copyFrom ? view.slice() : view;
}

// Each dtype's storage class stands for it; DTYPES lists uint16 after
// float16 and bfloat16, so a Uint16Array is uint16.
const KIND_DTYPE = new Map<string, DTypeInfo>(DTYPES.map((d) => [DTYPE_INFO[d].arrayName, DTYPE_INFO[d]]));
KIND_DTYPE.set('Float16Array', DTYPE_INFO.float16);
KIND_DTYPE.set('Uint8ClampedArray', DTYPE_INFO.uint8);

// The last kind looked up, as for dtypeInfo's last name.
let lastKind = 'Float32Array';
let lastKindInfo = DTYPE_INFO.float32;

/** The dtype a bare typed array of a kind (typedArrayKind) stands for (Uint16Array is uint16; Float16Array is float16). */
export function dtypeOfKind(kind: string | undefined): DTypeInfo | undefined {
  if (kind === lastKind) return lastKindInfo;
  const info = kind === undefined ? undefined : KIND_DTYPE.get(kind);
  if (info !== undefined) {
    lastKind = kind!;
    lastKindInfo = info;
  }
  return info;
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
