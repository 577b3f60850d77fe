/**
 * The hostile-input suite for the TypeScript API (tests/js/hostile-*.test.ts)
 * shares these helpers.
 *
 * The contract under test: every call either returns the correct result or
 * throws an OnnxOpsError (never a TypeError, RangeError or anything else);
 * the library stays usable afterwards; the caller's input data is never
 * modified; nothing leaks (heapInUse / liveAllocations return to baseline);
 * size errors come before any allocation (no heap use, no memory growth).
 * Where random calls mix valid and invalid ones, `expected*` (below) says
 * which outcome each call must have: a result of which dtype and shape, or
 * which error code.
 *
 * Property tests use fast-check with a fixed seed (reproducible runs). Values
 * are checked against the one reference (./reference.ts), bit for bit.
 *
 * Run: npm run build && npx jest tests/js/hostile-
 */
import {
  createOps, DTYPE_INFO, DTYPES, ERROR_CODES, OnnxOpsError, Ops, WasmTensor, type DType, type ErrorCode,
} from 'onnx-ops-wasm';
import { type PlainTensor, type TypedArray, DTYPE_INFO as REF_INFO, ONNX_DTYPE, count, refBroadcast, rng } from './reference';
import { allowed, broadcasts } from '../portable/rules';

export const SEED = 20240611;

/* eslint-disable @typescript-eslint/no-explicit-any */
export type Any = any;

function describeValue(e: unknown): string {
  if (e instanceof Error) return `${e.constructor.name}: ${e.message}`;
  try {
    return String(e);
  } catch {
    return typeof e;
  }
}

/** Runs fn; it must throw an OnnxOpsError with this code. */
export function expectOnnxError(fn: () => unknown, code: ErrorCode): OnnxOpsError {
  let err: unknown;
  let threw = false;
  try {
    fn();
  } catch (e) {
    err = e;
    threw = true;
  }
  if (!threw) throw new Error(`expected an OnnxOpsError (${code}), got a result`);
  if (!(err instanceof OnnxOpsError)) {
    throw new Error(`expected an OnnxOpsError, got ${describeValue(err)}`);
  }
  expect(ERROR_CODES).toContain(err.code);
  if (err.code !== code) throw new Error(`expected code ${code}, got ${err.code}: ${err.message}`);
  return err;
}

export type Called<T> = { ok: true; value: T } | { ok: false; error: OnnxOpsError };

/** Runs fn; it may return or throw, but a throw must be an OnnxOpsError. */
export function callContract<T>(fn: () => T): Called<T> {
  try {
    return { ok: true, value: fn() };
  } catch (e) {
    if (!(e instanceof OnnxOpsError)) throw new Error(`contract broken: threw ${describeValue(e)}`);
    expect(ERROR_CODES).toContain(e.code);
    return { ok: false, error: e };
  }
}

export interface Stats { heapInUse: number; liveAllocations: number; liveBytes: number; memoryBytes: number }

export function expectStatsBack(ops: Ops, base: Stats, what = ''): void {
  const now = ops.memoryStats();
  if (now.heapInUse !== base.heapInUse || now.liveAllocations !== base.liveAllocations) {
    throw new Error(`leak${what ? ` after ${what}` : ''}: heapInUse ${base.heapInUse} -> ${now.heapInUse}, ` +
      `liveAllocations ${base.liveAllocations} -> ${now.liveAllocations}`);
  }
}

/**
 * An instance keeps a few blocks for later calls, not counted in
 * liveAllocations: a call-descriptor block sized for the largest Max so far,
 * and (plain path) a scratch block of up to `scratchBytes`. Warming sizes
 * them above anything the suite sends later (a broadcasting Max of 64 inputs
 * of rank 64, plain calls of 4 MB), so heapInUse baselines taken afterwards
 * are stable and any growth is a leak.
 */
function warm(o: Ops): void {
  const inputs = [
    { dtype: 'float32', shape: [2, ...new Array(63).fill(1)], data: new Float32Array(2) },
    ...Array.from({ length: 63 }, () => ({ dtype: 'float32', shape: [...new Array(63).fill(1), 3], data: new Float32Array(3) })),
  ];
  const r = o.max(inputs) as Any;
  expect(r.data.length).toBe(6);
  o.relu(new Float32Array(2 ** 20));
  o.max([new Float64Array(2 ** 19), new Float64Array(1)]);
  o.max([{ dtype: 'int8', shape: [2 ** 11, 1], data: new Int8Array(2 ** 11) }, new Int8Array(2 ** 11)]);
}

export async function createWarmOps(options?: { scratchBytes?: number }): Promise<Ops> {
  const o = await createOps(options);
  warm(o);
  return o;
}

/** The shared instances of a test file (useSharedInstances). */
export let ops: Ops;
/** A second instance, for foreign-tensor cases. */
export let other: Ops;
/** The smallest plain-path scratch block: plain calls stream in chunks. */
export let tiny: Ops;

/**
 * Makes `ops`, `other` and `tiny` (warmed) before the file's tests, and checks
 * after each test that it cleaned up after itself: the shared instances hold nothing.
 */
export function useSharedInstances(): void {
  beforeAll(async () => {
    ops = await createWarmOps();
    other = await createWarmOps();
    tiny = await createWarmOps({ scratchBytes: 4096 });
  });
  afterEach(() => {
    expect(ops.memoryStats().liveAllocations).toBe(0);
    expect(tiny.memoryStats().liveAllocations).toBe(0);
  });
}

/** A quick call that must work: the library is still usable. */
export function expectUsable(o: Ops): void {
  const r = o.relu({ dtype: 'float32', shape: [3], data: new Float32Array([-1, 0.5, 2]) }) as Any;
  expect(Array.from(r.data as Float32Array)).toEqual([0, 0.5, 2]);
  const m = o.max([new Int16Array([1, -5]), { dtype: 'int16', shape: [2, 1], data: new Int16Array([0, 3]) }]) as Any;
  expect(m.shape).toEqual([2, 2]);
  expect(Array.from(m.data as Int16Array)).toEqual([1, 0, 3, 3]);
}

function bytesOf(x: ArrayBufferView): Uint8Array {
  return new Uint8Array(x.buffer, x.byteOffset, x.byteLength);
}

export function copyBytes(x: ArrayBufferView): Uint8Array {
  return Uint8Array.from(bytesOf(x));
}

function sameBytes(a: Uint8Array, b: Uint8Array): number {
  // -1 when equal, else the first differing index
  if (a.length !== b.length) return Math.min(a.length, b.length);
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return i;
  return -1;
}

export function expectBytes(got: Uint8Array, want: Uint8Array, what: string): void {
  const at = sameBytes(got, want);
  if (at >= 0) {
    throw new Error(`${what}: bytes differ at ${at} (got ${Array.from(got.subarray(at, at + 8))}, ` +
      `want ${Array.from(want.subarray(at, at + 8))}; lengths ${got.length}/${want.length})`);
  }
}

export function resultBytes(r: Any): Uint8Array {
  if (r instanceof WasmTensor) return copyBytes(r.toPlain().data);
  return copyBytes(r.data);
}

export function checkResultShape(r: Any, dtype: DType, shape: readonly number[]): void {
  expect(r.dtype).toBe(dtype);
  expect([...r.shape]).toEqual([...shape]);
  const data = r instanceof WasmTensor ? r.toPlain().data : r.data;
  expect(data).toBeInstanceOf(DTYPE_INFO[dtype].array);
  expect(data.length).toBe(count(shape));
}

// ---- data generation -----------------------------------------------------------

export const RELU_DTYPES: DType[] = ['float32', 'float64', 'float16', 'bfloat16', 'int8', 'int16', 'int32', 'int64'];

const SPECIAL_BITS: Record<DType, bigint[]> = {
  float32: [0x0n, 0x80000000n, 0x3f800000n, 0xbf800000n, 0x7f800000n, 0xff800000n, 0x7fc00000n, 0x7fc01234n,
    0xffc00007n, 0x7f800001n, 0x1n, 0x80000001n, 0x00800000n, 0x7f7fffffn, 0xff7fffffn, 0x3f000000n],
  float64: [0x0n, 0x8000000000000000n, 0x3ff0000000000000n, 0xbff0000000000000n, 0x7ff0000000000000n,
    0xfff0000000000000n, 0x7ff8000000000000n, 0x7ff8000000001234n, 0xfff8000000000007n, 0x7ff0000000000001n,
    0x1n, 0x8000000000000001n, 0x7fefffffffffffffn, 0xffefffffffffffffn, 0x3fe0000000000000n],
  float16: [0x0000n, 0x8000n, 0x3c00n, 0xbc00n, 0x7c00n, 0xfc00n, 0x7e00n, 0x7c01n, 0xfe01n, 0x7fffn, 0x0001n,
    0x8001n, 0x03ffn, 0x83ffn, 0x0400n, 0x7bffn, 0xfbffn],
  bfloat16: [0x0000n, 0x8000n, 0x3f80n, 0xbf80n, 0x7f80n, 0xff80n, 0x7fc0n, 0x7f81n, 0xffc1n, 0x7fffn, 0x0001n,
    0x8001n, 0x007fn, 0x807fn, 0x0080n, 0x7f7fn, 0xff7fn],
  int8: [0x00n, 0x01n, 0x7fn, 0x80n, 0xffn, 0x7en, 0x81n],
  uint8: [0x00n, 0x01n, 0x7fn, 0x80n, 0xffn, 0xfen],
  int16: [0x0n, 0x1n, 0x7fffn, 0x8000n, 0xffffn, 0x8001n],
  uint16: [0x0n, 0x1n, 0x7fffn, 0x8000n, 0xffffn],
  int32: [0x0n, 0x1n, 0x7fffffffn, 0x80000000n, 0xffffffffn, 0x80000001n],
  uint32: [0x0n, 0x1n, 0x7fffffffn, 0x80000000n, 0xffffffffn],
  int64: [0x0n, 0x1n, 0x7fffffffffffffffn, 0x8000000000000000n, 0xffffffffffffffffn, 0x8000000000000001n,
    0x100000000n, 0xffffffff00000000n],
  uint64: [0x0n, 0x1n, 0x7fffffffffffffffn, 0x8000000000000000n, 0xffffffffffffffffn, 0x100000000n],
};
const SMALL_HALF: Record<'float16' | 'bfloat16', number[]> = {
  float16: [0xc000, 0xbc00, 0x0000, 0x8000, 0x3c00, 0x4000],
  bfloat16: [0xc000, 0xbf80, 0x0000, 0x8000, 0x3f80, 0x4000],
};

function writeBits(view: DataView, at: number, size: number, bits: bigint): void {
  if (size === 1) view.setUint8(at, Number(bits & 0xffn));
  else if (size === 2) view.setUint16(at, Number(bits & 0xffffn), true);
  else if (size === 4) view.setUint32(at, Number(bits & 0xffffffffn), true);
  else view.setBigUint64(at, bits & 0xffffffffffffffffn, true);
}

/** `n` elements of `dtype` as raw little-endian bytes: specials, small values (ties), random bits. */
export function makeBytes(dtype: DType, n: number, seed: number): Uint8Array {
  const rnd = rng(seed);
  const size = DTYPE_INFO[dtype].bytes;
  const out = new Uint8Array(n * size);
  const view = new DataView(out.buffer);
  const sp = SPECIAL_BITS[dtype];
  for (let i = 0; i < n; i++) {
    const r = rnd();
    const at = i * size;
    if (r < 0.35) {
      writeBits(view, at, size, sp[Math.floor(rnd() * sp.length)]);
    } else if (r < 0.7) {
      const small = Math.floor(rnd() * 5) - 2; // -2..2
      if (dtype === 'float32') view.setFloat32(at, small, true);
      else if (dtype === 'float64') view.setFloat64(at, small, true);
      else if (dtype === 'float16' || dtype === 'bfloat16') view.setUint16(at, SMALL_HALF[dtype][small + 2], true);
      else if (dtype.startsWith('uint')) writeBits(view, at, size, BigInt(small + 2));
      else writeBits(view, at, size, BigInt.asUintN(size * 8, BigInt(small)));
    } else {
      for (let k = 0; k < size; k++) out[at + k] = Math.floor(rnd() * 256);
    }
  }
  return out;
}

export function typedOf(dtype: DType, bytes: Uint8Array): Any {
  const c = Uint8Array.from(bytes);
  return new DTYPE_INFO[dtype].array(c.buffer, 0, c.length / DTYPE_INFO[dtype].bytes);
}

/** Raw bytes of a dtype as the reference's input. */
export const plainOf = (dtype: DType, shape: readonly number[], bytes: Uint8Array): PlainTensor =>
  ({ dtype, shape: [...shape], data: typedOf(dtype, bytes) });

// The forms an input can take; each returns the value to pass and how to read
// its bytes back later (for the "input never modified" check).
export type Form = 'plain' | 'ort' | 'bare' | 'wasm' | 'offset' | 'shared' | 'number' | 'upper';
export const FORMS: Form[] = ['plain', 'ort', 'bare', 'wasm', 'offset', 'shared', 'number', 'upper'];

export interface Made { value: Any; snapshot: () => Uint8Array; tensor?: WasmTensor; form: Form }

export function makeInput(o: Ops, dtype: DType, shape: number[], bytes: Uint8Array, form: Form): Made {
  const size = DTYPE_INFO[dtype].bytes;
  const Ctor = DTYPE_INFO[dtype].array;
  if (form === 'bare' && (shape.length !== 1 || dtype === 'float16' || dtype === 'bfloat16')) form = 'plain';
  if (form === 'wasm') {
    const t = o.tensor(dtype, shape, typedOf(dtype, bytes));
    return { value: t, tensor: t, form, snapshot: () => copyBytes(t.data) };
  }
  let data: Any;
  let whole: () => Uint8Array;
  if (form === 'offset') {
    // A view at an odd element offset of a larger buffer, padded on both sides.
    const lead = size === 1 ? 3 : size * 3;
    const buf = new ArrayBuffer(lead + bytes.length + 2 * size + 5);
    new Uint8Array(buf).fill(0x5a);
    new Uint8Array(buf, lead, bytes.length).set(bytes);
    data = new Ctor(buf, lead, bytes.length / size);
    whole = () => Uint8Array.from(new Uint8Array(buf));
  } else if (form === 'shared') {
    const sab = new SharedArrayBuffer(bytes.length + size);
    new Uint8Array(sab, size, bytes.length).set(bytes);
    data = new Ctor(sab, size, bytes.length / size);
    whole = () => Uint8Array.from(new Uint8Array(sab));
  } else {
    data = typedOf(dtype, bytes);
    whole = () => copyBytes(data);
  }
  const shapeCopy = [...shape];
  let value: Any;
  if (form === 'ort') value = { type: dtype, dims: shapeCopy, data };
  else if (form === 'bare') value = data;
  else if (form === 'number') value = { dtype: DTYPE_INFO[dtype].onnx, shape: shapeCopy, data };
  else if (form === 'upper') value = { dtype: dtype.toUpperCase(), shape: shapeCopy, data };
  else value = { dtype, shape: shapeCopy, data };
  const shapeSnap = JSON.stringify(shapeCopy);
  return {
    value, form,
    snapshot: () => {
      // The shape array must not change either.
      expect(JSON.stringify(shapeCopy)).toBe(shapeSnap);
      return whole();
    },
  };
}

// ---- hostile values -----------------------------------------------------------

export const JUNK: unknown[] = [
  null, undefined, 0, -1, 1.5, NaN, Infinity, '', 'float32', 'abc', 10n, true, false, Symbol('junk'), {}, [],
  [1, 2], () => 1, new Date(0), new Map(), /x/, new ArrayBuffer(8), new DataView(new ArrayBuffer(8)),
  { dtype: 'float32' }, { shape: [1] }, { data: new Float32Array(1) }, { type: 'float32' },
  { dtype: 'float32', shape: [1] }, { type: 'float32', dims: [1] }, { dtype: 'float32', data: new Float32Array(1) },
  new Proxy({}, {}), Object.freeze({ dtype: 'float32', shape: [2], data: new Float32Array(1) }),
  { dtype: 'float32', shape: [1], data: [1] }, { dtype: 'float32', shape: [1], data: 'x' },
  { dtype: 'float32', shape: [1], data: new ArrayBuffer(4) }, new Float32Array(0), new BigUint64Array(2),
  new Uint8ClampedArray([3, 250]), Buffer.from([1, 2, 3]), new Float64Array([NaN, -0]),
];
export const BAD_DTYPES: unknown[] = [
  'bool', 'string', 'float8', '', ' float32', 'Float32', 'int4', 'complex64', 'FLOAT32 ', 'float32\0', 0, 8, 9, 14,
  15, 17, -1, 1.5, NaN, Infinity, null, undefined, true, 1n, 10n, {}, [], ['float32'], Symbol('d'),
  { toString: () => 'float32' },
];
export const BAD_SHAPES: unknown[] = [
  '2', null, undefined, 2, {}, { length: 1, 0: 2 }, [NaN], [-1], [1.5], ['2'], [2n], [Infinity], [-Infinity],
  [2 ** 53], [2 ** 53 + 2], [2 ** 31, 2 ** 31], [2 ** 26, 2 ** 27], [3, 2 ** 52], [null], [undefined], [true], [[2]],
  [{}], new Int32Array([2]), [1, , 2], [-0.5], [Number.MAX_VALUE], [-(2 ** 31)], [2 ** 32 + 1],
  new Array(65).fill(1), new Array(1000).fill(1), new Array(5000).fill(2), [0, 2 ** 53], [0, -1], [0, NaN],
];
export const TYPED_CTORS = [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array,
  Float32Array, Float64Array, BigInt64Array, BigUint64Array];

// ---- expected outcomes -----------------------------------------------------------
// Which outcome a call of plain inputs has, by the checks the API documents,
// in their order: the inputs container and the arity, the options (opset,
// then out), each input in turn (its form, dtype name, shape, data class,
// data length, size), then the inputs together (one dtype, allowed by the
// operator version, one shape before Max-8 or shapes that broadcast), then a
// typed-array or wasm-tensor out. From the ONNX rules and the reference of
// tests/portable, not from js/src; for the values this suite makes.

/** A result of this dtype and shape, or an OnnxOpsError of this code. */
export type Outcome = { ok: true; dtype: DType; shape: number[] } | { ok: false; code: ErrorCode };
const fail = (code: ErrorCode): Outcome => ({ ok: false, code });
const result = (dtype: DType, shape: number[]): Outcome => ({ ok: true, dtype, shape });

/** What a WasmTensor given as out is (the API cannot tell it by looking): the caller knows. */
export type OutIs = 'own' | 'disposed' | 'foreign' | 'fake';

const MAX_RANK = 64;
const MAX_WASM_BYTES = 2 ** 32;
const MAX_ALLOCATION = 2 ** 31 - 2 ** 16; // one tensor in wasm memory (docs/API.md: 2 GiB - 64 KiB)
const TENSOR_PROTO: Record<number, DType> = Object.fromEntries(Object.entries(ONNX_DTYPE).map(([d, n]) => [n, d as DType]));
const KIND_DTYPE: Record<string, DType> = {
  Float32Array: 'float32', Float64Array: 'float64', Float16Array: 'float16', Int8Array: 'int8', Int16Array: 'int16',
  Int32Array: 'int32', BigInt64Array: 'int64', Uint8Array: 'uint8', Uint8ClampedArray: 'uint8', Uint16Array: 'uint16',
  Uint32Array: 'uint32', BigUint64Array: 'uint64',
};

/** The dtype a dtype name (ours, or ONNX's: 'FLOAT16', 'float', 'double') or TensorProto number stands for. */
function dtypeNamed(x: unknown): DType | undefined {
  if (typeof x === 'number') return TENSOR_PROTO[x];
  if (typeof x !== 'string') return undefined;
  if (x === 'float' || x === 'FLOAT') return 'float32';
  if (x === 'double' || x === 'DOUBLE') return 'float64';
  return DTYPES.find((d) => x === d || x === d.toUpperCase());
}

/** A typed array's class name (undefined for anything else, DataViews included). */
const kindOf = (x: unknown): string | undefined =>
  (ArrayBuffer.isView(x) ? Object.prototype.toString.call(x).slice(8, -1) : undefined);

/** Whether typed arrays of this class hold the dtype's data (float16/bfloat16: raw bits in a Uint16Array). */
const holds = (dtype: DType, kind: string | undefined): boolean => kind === REF_INFO[dtype].array.name ||
  (dtype === 'uint8' && kind === 'Uint8ClampedArray') || (dtype === 'float16' && kind === 'Float16Array');

/** A shape's element count: 0 for any empty shape, even when the other dims overflow a double. */
const elements = (shape: readonly number[]): number => (shape.includes(0) ? 0 : count(shape));

const fits = (dtype: DType, shape: readonly number[]): boolean => elements(shape) * REF_INFO[dtype].bytes < MAX_WASM_BYTES;

/** A shape's dims (-0 as 0), or the code it fails with. */
function shapeOf(shape: unknown): number[] | ErrorCode {
  if (!Array.isArray(shape) || shape.length > MAX_RANK) return 'INVALID_SHAPE';
  const dims: number[] = [];
  for (let k = 0; k < shape.length; k++) { // holes read as undefined
    const d: unknown = shape[k];
    if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) return 'INVALID_SHAPE';
    dims.push(d === 0 ? 0 : d);
  }
  return Number.isSafeInteger(elements(dims)) ? dims : 'TOO_LARGE';
}

/** The outcome of one plain input (not a wasm tensor) on its own. */
export function expectedInput(x: unknown): Outcome {
  if (x instanceof WasmTensor) throw new Error('expectedInput: plain inputs only');
  if (ArrayBuffer.isView(x)) {
    const dtype = KIND_DTYPE[kindOf(x)!];
    if (dtype === undefined) return fail('INVALID_ARGUMENT');
    const shape = [(x as TypedArray).length];
    return fits(dtype, shape) ? result(dtype, shape) : fail('TOO_LARGE');
  }
  if (x === null || typeof x !== 'object') return fail('INVALID_ARGUMENT');
  const t = x as Record<string, unknown>;
  const own = 'dtype' in t;
  const ort = !own && 'type' in t && 'dims' in t;
  if (!ort && !(own && 'shape' in t && 'data' in t)) return fail('INVALID_ARGUMENT');
  const dtype = dtypeNamed(ort ? t.type : t.dtype);
  if (dtype === undefined) return fail('UNKNOWN_DTYPE');
  const shape = shapeOf(ort ? t.dims : t.shape);
  if (typeof shape === 'string') return fail(shape);
  if (!holds(dtype, kindOf(t.data))) return fail('INVALID_ARGUMENT');
  if ((t.data as TypedArray).length !== elements(shape)) return fail('DATA_LENGTH');
  return fits(dtype, shape) ? result(dtype, shape) : fail('TOO_LARGE');
}

type Out = { typed: ArrayBufferView } | { wasm: WasmTensor } | undefined;

/** The opset and out of an options argument (undefined: none given), or the code it fails with. */
function optionsOf(options: unknown, outIs: OutIs | undefined): { opset?: number; out: Out } | ErrorCode {
  if (options === undefined) return { out: undefined };
  if (options === null || typeof options !== 'object') return 'INVALID_ARGUMENT';
  for (const key in options) if (key !== 'opset' && key !== 'out') return 'INVALID_ARGUMENT'; // an unknown option (an array's index too)
  const { opset, out } = options as { opset?: unknown; out?: unknown };
  if (opset !== undefined && (typeof opset !== 'number' || !Number.isSafeInteger(opset) || opset < 1)) return 'INVALID_OPSET';
  const o = { opset: opset as number | undefined };
  if (out === undefined) return { ...o, out: undefined };
  if (out instanceof WasmTensor) {
    if (outIs === undefined) throw new Error('expected*: say what the wasm-tensor out is (outIs)');
    if (outIs === 'fake') return 'INVALID_ARGUMENT'; // a look-alike: not from ops.tensor()
    if (outIs === 'foreign') return 'FOREIGN_TENSOR';
    if (outIs === 'disposed') return 'DISPOSED';
    return { ...o, out: { wasm: out } };
  }
  if (ArrayBuffer.isView(out) && !(out instanceof DataView)) return { ...o, out: { typed: out } };
  return 'INVALID_ARGUMENT';
}

/** The outcome of a result of this dtype and shape, from plain inputs, written to out. */
function into(dtype: DType, shape: number[], out: Out): Outcome {
  if (!fits(dtype, shape)) return fail('TOO_LARGE');
  if (out === undefined) return result(dtype, shape);
  if ('typed' in out) {
    if (!holds(dtype, kindOf(out.typed))) return fail('INVALID_ARGUMENT');
    if ((out.typed as TypedArray).length !== elements(shape)) return fail('OUT_MISMATCH');
    return result(dtype, shape); // (no input here shares out's memory)
  }
  const t = out.wasm;
  if (t.dtype !== dtype || t.shape.length !== shape.length || t.shape.some((d, k) => d !== shape[k])) return fail('OUT_MISMATCH');
  return result(dtype, shape);
}

/** The outcome of ops.max(inputs, options) (options undefined: called without it) for plain inputs. */
export function expectedMax(inputs: unknown, options?: unknown, outIs?: OutIs): Outcome {
  if (!Array.isArray(inputs)) return fail('INVALID_ARGUMENT');
  const o = optionsOf(options, outIs);
  if (typeof o === 'string') return fail(o);
  if (inputs.length === 0) return fail('ARITY');
  const each: { dtype: DType; shape: number[] }[] = [];
  for (let i = 0; i < inputs.length; i++) { // holes too
    const r = expectedInput(inputs[i]);
    if (!r.ok) return r;
    each.push(r);
  }
  const { dtype } = each[0];
  if (each.some((r) => r.dtype !== dtype)) return fail('DTYPE_MISMATCH');
  if (!allowed('Max', o.opset, dtype)) return fail('DTYPE_NOT_ALLOWED');
  const first = each[0].shape;
  if (!broadcasts(o.opset)) {
    if (each.some((r) => r.shape.length !== first.length || r.shape.some((d, k) => d !== first[k]))) return fail('SHAPE_MISMATCH');
    return into(dtype, first, o.out);
  }
  const shape = refBroadcast(each.map((r) => r.shape));
  return shape === null ? fail('BROADCAST_MISMATCH') : into(dtype, shape, o.out);
}

/** The outcome of ops.relu(input, options) (options undefined: called without it) for a plain input. */
export function expectedRelu(input: unknown, options?: unknown, outIs?: OutIs): Outcome {
  if (Array.isArray(input)) {
    if (input.length !== 1) return fail('ARITY');
    input = input[0];
  }
  const o = optionsOf(options, outIs);
  if (typeof o === 'string') return fail(o);
  const r = expectedInput(input);
  if (!r.ok) return r;
  if (!allowed('Relu', o.opset, r.dtype)) return fail('DTYPE_NOT_ALLOWED');
  return into(r.dtype, r.shape, o.out);
}

/** The outcome of ops.tensor(dtype, shape, data). */
export function expectedTensor(dtype: unknown, shape: unknown, data?: unknown): Outcome {
  const d = dtypeNamed(dtype);
  if (d === undefined) return fail('UNKNOWN_DTYPE');
  let dims: number[];
  if (data === undefined) {
    const s = shapeOf(shape);
    if (typeof s === 'string') return fail(s);
    dims = s;
  } else {
    const r = expectedInput({ dtype: d, shape, data });
    if (!r.ok) return r;
    dims = r.shape;
  }
  const r = result(d, dims);
  const bytes = elements(dims) * REF_INFO[d].bytes;
  return bytes >= MAX_WASM_BYTES || bytes > MAX_ALLOCATION ? fail('TOO_LARGE') : r;
}

/** Checks a call's outcome (from callContract) against the expected one: the code, or the result's dtype and shape. */
export function expectOutcome(got: Called<unknown>, want: Outcome, what: string): void {
  if (want.ok && !got.ok) {
    throw new Error(`${what}: expected a ${want.dtype} ${JSON.stringify(want.shape)} result, got ${got.error.code}: ${got.error.message}`);
  }
  if (!want.ok && got.ok) throw new Error(`${what}: expected ${want.code}, got a result`);
  if (!want.ok && !got.ok && got.error.code !== want.code) {
    throw new Error(`${what}: expected ${want.code}, got ${got.error.code}: ${got.error.message}`);
  }
  if (want.ok && got.ok) checkResultShape(got.value, want.dtype, want.shape);
}
