/**
 * Validation and shape logic, in one place: what a tensor-like is, shapes and
 * their element counts, broadcasting, and the checks each op makes before any
 * memory is touched.
 */
import {
  type DType, type DTypeInfo, DTYPE_INFO, type TypedArray, assertInBounds, bufferOf, byteOffsetOf, dtypeInfo, dtypeOfKind, lengthOf,
  standardView, typedArrayKind,
} from './dtypes.js';
import { type InputRef, OnnxOpsError, describe, showShape } from './errors.js';
import { CHECKED, type Heap, MAX_WASM_BYTES, TENSOR_MARK, WasmTensor } from './memory.js';

/** Largest rank accepted (numpy's limit is 64 too). */
export const MAX_RANK = 64;

/** `{ dtype, shape, data }`: the library's own tensor shape. */
export interface Tensor<D extends DType = DType> {
  dtype: D;
  shape: readonly number[];
  data: TypedArray;
}

/** onnxruntime-common's tensor shape: `{ type, dims, data }`. */
export interface OrtTensorLike {
  type: string;
  dims: readonly number[];
  data: unknown;
}

/** An input whose data lives in JavaScript memory (anything but a WasmTensor). */
export type PlainTensorLike =
  | ({ dtype: DType | string | number; shape: readonly number[]; data: ArrayBufferView } & { dispose?: never })
  | (OrtTensorLike & { dtype?: never }) // an ort.Tensor (it has dispose() too, but no dtype)
  | TypedArray
  | ArrayBufferView;

/** What every op accepts as an input. */
export type TensorLike = PlainTensorLike | WasmTensor;

/**
 * An input after validation: either plain data, or a live wasm tensor. Every
 * Checked has all five fields (one of data and wasm undefined): one object
 * shape, so the call path's reads of them never miss.
 */
export interface Checked {
  info: DTypeInfo; // the dtype
  shape: readonly number[];
  size: number;
  data: TypedArray | undefined; // plain inputs: the dtype's storage array (see storageView: read it only through dtypes.ts)
  wasm: WasmTensor | undefined;
  address: number; // a wasm tensor's address; for plain data, where the plain path placed it (-1 before)
  buffer: ArrayBufferLike | undefined; // plain inputs: the buffer of the caller's array, read once (see checkPlainOut)
}

/** Checks a shape and returns a copy of it with its element count. */
export function checkShape(shape: unknown, op: string, input?: InputRef): { shape: number[]; size: number } {
  if (!Array.isArray(shape)) {
    throw new OnnxOpsError('INVALID_SHAPE', op, input, `shape must be an array of dims, got ${describe(shape)}`);
  }
  if (shape.length > MAX_RANK) {
    throw new OnnxOpsError('INVALID_SHAPE', op, input, `rank ${shape.length} is above the limit of ${MAX_RANK}`);
  }
  const dims: number[] = [];
  for (let k = 0; k < shape.length; k++) {
    const d: unknown = shape[k];
    if (typeof d !== 'number' || !Number.isSafeInteger(d) || d < 0) {
      throw new OnnxOpsError('INVALID_SHAPE', op, input,
        `dim ${k} of the shape must be an integer from 0 to 2^53 - 1, got ${describe(d)}`);
    }
    dims.push(d === 0 ? 0 : d); // -0 becomes 0
  }
  const size = elementCount(dims);
  if (!Number.isSafeInteger(size)) {
    throw new OnnxOpsError('TOO_LARGE', op, input, `shape ${showShape(dims)} has more elements than 2^53`);
  }
  return { shape: dims, size };
}

/** The product of the dims: 0 for any empty shape, even when the others overflow (Infinity * 0 is NaN). */
export function elementCount(shape: readonly number[]): number {
  let size = 1;
  for (let k = 0; k < shape.length; k++) {
    const d = shape[k];
    if (d === 0) return 0; // empty, whatever the other dims are
    size *= d;
  }
  return size;
}

/** Fails with TOO_LARGE when `size` elements of a dtype cannot fit a wasm memory. */
export function checkFits(info: DTypeInfo, shape: readonly number[], size: number, op: string, input?: InputRef): void {
  if (size * info.bytes >= MAX_WASM_BYTES) tooLarge(info, shape, size, op, input);
}

function tooLarge(info: DTypeInfo, shape: readonly number[], size: number, op: string, input?: InputRef): never {
  throw new OnnxOpsError('TOO_LARGE', op, input,
    `shape ${showShape(shape)} of ${info.name} needs ${size * info.bytes} bytes, more than a 4 GiB wasm memory holds`);
}

/** Whether a typed array of this kind holds the dtype's data. */
function holds(info: DTypeInfo, kind: string): boolean {
  return kind === info.arrayName ||
    (info.name === 'uint8' && kind === 'Uint8ClampedArray') || (info.name === 'float16' && kind === 'Float16Array');
}

/**
 * Throws unless `data`, of a kind (typedArrayKind), is a typed array that
 * holds the dtype's data; returns whether it is of the storage class itself.
 */
function checkStorage(data: unknown, kind: string | undefined, info: DTypeInfo, op: string, input: InputRef): boolean {
  const dtype = info.name;
  if (kind === undefined || !holds(info, kind)) {
    const extra = dtype === 'float16' || dtype === 'bfloat16'
      ? ` (raw ${dtype} bits${dtype === 'float16' ? ', or a Float16Array' : ''}; encode${dtype === 'float16' ? 'Float16' : 'Bfloat16'}() converts numbers)`
      : '';
    throw new OnnxOpsError('INVALID_ARGUMENT', op, input,
      `data for ${dtype} must be a ${info.array.name}${extra}, got ${kind ?? describe(data)}`);
  }
  return kind === info.arrayName;
}

/**
 * The dtype's storage array over exactly the bytes of `data` (checked by
 * checkStorage: `same` is what it returned; `buffer` and `length` are data's), or an
 * error: `data` itself when it is of the storage class (of any realm, or a
 * subclass, or without a prototype: so it is read only through dtypes.ts's
 * functions on internal slots, never through its own properties), else a
 * view of this realm's standard class (a Float16Array's bits as a
 * Uint16Array). With `owner`, data that is a view of its wasm memory (e.g. a
 * tensor's .data) is copied out: the call may grow the memory, which would
 * detach it.
 */
function storageView(data: ArrayBufferView, buffer: ArrayBufferLike, length: number, info: DTypeInfo, same: boolean, op: string,
  input: InputRef, owner?: Heap): TypedArray {
  try {
    return standardView(data, info.array, owner?.wasmBuffer, same, buffer, length);
  } catch {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, input, 'the data\'s ArrayBuffer is detached, or was resized below the view');
  }
}

/**
 * Throws FOREIGN_TENSOR if x, an object that is not one of this copy's wasm
 * tensors, is another copy's (see TENSOR_MARK).
 */
export function checkNotOtherCopys(x: object, op: string, input: InputRef): void {
  if ((x as Record<symbol, unknown>)[TENSOR_MARK] === true) {
    throw new OnnxOpsError('FOREIGN_TENSOR', op, input,
      'the tensor is from another copy of onnx-ops-wasm (its CommonJS and ES module builds are separate)');
  }
}

/** Checks that a wasm tensor belongs to `owner` and is not disposed. */
export function checkOwnTensor(x: WasmTensor, op: string, input: InputRef, owner: Heap | undefined): void {
  if (!WasmTensor.isLive(x, owner)) rejectTensor(x, op, input, owner);
}

/** The error of a tensor checkOwnTensor refuses (apart, so that the check stays small enough to inline). */
function rejectTensor(x: WasmTensor, op: string, input: InputRef, owner: Heap | undefined): void {
  if (!WasmTensor.is(x)) {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, input,
      'not a tensor from ops.tensor(): a Proxy around one, or an object made from its prototype');
  }
  if (x.heap !== owner) {
    throw new OnnxOpsError('FOREIGN_TENSOR', op, input, 'the tensor belongs to another createOps() instance');
  }
  x.assertLive(op, input);
}

/**
 * Validates one input of an op: a tensor-like of any accepted form. Reads
 * nothing but the fields; never modifies the caller's data.
 */
export function checkInput(x: unknown, op: string, input: InputRef, owner: Heap | undefined): Checked {
  if (x instanceof WasmTensor) {
    checkOwnTensor(x, op, input, owner);
    return x[CHECKED];
  }
  return checkPlainInput(x, op, input, owner);
}

/** checkInput for anything but a wasm tensor. */
function checkPlainInput(x: unknown, op: string, input: InputRef, owner: Heap | undefined): Checked {
  if (ArrayBuffer.isView(x)) { // typed arrays of any realm, and DataViews
    const kind = typedArrayKind(x);
    const info = dtypeOfKind(kind);
    if (info === undefined) {
      throw new OnnxOpsError('INVALID_ARGUMENT', op, input, `${describe(x)} is not a typed array of a supported dtype`);
    }
    return plainChecked(x, kind, info, undefined, op, input, owner);
  }
  if (x === null || typeof x !== 'object') {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, input,
      `expected a tensor ({ dtype, shape, data }, { type, dims, data }, a typed array or a wasm tensor), got ${describe(x)}`);
  }
  checkNotOtherCopys(x, op, input); // not ours (see above)
  const t = x as Record<string, unknown>;
  const own = 'dtype' in t;
  const ort = !own && 'type' in t && 'dims' in t;
  if (!ort && !(own && 'shape' in t && 'data' in t)) {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, input,
      'expected a tensor: { dtype, shape, data }, { type, dims, data }, a typed array or a wasm tensor');
  }
  const info = dtypeInfo(ort ? t.type : t.dtype, op, input);
  const { shape, size } = checkShape(ort ? t.dims : t.shape, op, input);
  const data = t.data;
  return plainChecked(data, typedArrayKind(data), info, shape, op, input, owner, size);
}

/**
 * An input's data (of a kind, typedArrayKind) checked and as its storage
 * array, with `shape` (`size` elements) or, for a bare typed array, its own.
 */
function plainChecked(x: unknown, kind: string | undefined, info: DTypeInfo, shape: number[] | undefined, op: string,
  input: InputRef, owner: Heap | undefined, size?: number): Checked {
  const same = checkStorage(x, kind, info, op, input);
  const buffer = bufferOf(x as TypedArray);
  const length = lengthOf(x as TypedArray); // the storage array's too
  const data = storageView(x as ArrayBufferView, buffer, length, info, same, op, input, owner);
  if (shape === undefined) shape = [length];
  else if (length !== size) {
    throw new OnnxOpsError('DATA_LENGTH', op, input,
      `data has ${length} elements but shape ${showShape(shape)} needs ${size}`);
  }
  checkFits(info, shape, length, op, input);
  return { info, shape, size: length, data, wasm: undefined, address: -1, buffer };
}

/**
 * Checks, once all of a call's arguments were read, that the caller's code
 * run while reading them changed nothing read before it: getters of a
 * `{ dtype, shape, data }` or `{ type, dims, data }` input or of its shape,
 * and for Max those of the inputs array itself (an accessor element, a
 * Proxy), which may run before any input, a wasm tensor too. A detached or
 * resized buffer would make the call copy the wrong number of elements, a
 * disposed wasm tensor use freed memory. So every input before the last is
 * checked, and `out`, read before all of them.
 */
export function checkUnchanged(op: string, inputs: readonly Checked[], out?: unknown): void {
  for (let i = 0; i < inputs.length - 1; i++) {
    const c = inputs[i];
    const w = c.wasm;
    if (w !== undefined ? w.address < 0 : c.size === 0 || lengthOf(c.data!) !== c.size) recheck(op, c, i);
  }
  if (out instanceof WasmTensor) out.assertLive(op, 'out');
}

/** The full check of one input that may have changed (see checkUnchanged): throws if it did. */
function recheck(op: string, c: Checked, i: number): void {
  if (c.wasm) c.wasm.assertLive(op, i);
  else if (!intact(c.data!, c.size)) {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, i, 'the data was detached or resized during the call');
  }
}

/** Whether a typed array still has `size` elements over a buffer that is not detached. */
function intact(data: TypedArray, size: number): boolean {
  if (lengthOf(data) !== size) return false; // a detached or out-of-bounds view reads 0
  if (size > 0) return true;
  try {
    assertInBounds(data);
    return true;
  } catch {
    return false;
  }
}

/**
 * The numpy broadcast of shapes, or a BROADCAST_MISMATCH error naming the two
 * inputs whose dims clash.
 */
export function broadcastShapes(...shapes: (readonly number[])[]): number[] {
  return [...broadcastChecked(shapes.map((s, i) => checkShape(s, 'broadcastShapes', i)), 'broadcastShapes')];
}

/** The broadcast shape of checked inputs (may be one of their shapes: do not modify). */
export function broadcastChecked(inputs: readonly { shape: readonly number[] }[], op: string): readonly number[] {
  // Plain loops, no closures: this runs on every call of Max; the usual cases,
  // one shape, or one shape and rank-0 scalars (which broadcast to anything),
  // stay small enough to be inlined.
  let first = inputs.length > 0 ? inputs[0].shape : [];
  for (let i = 1; i < inputs.length; i++) {
    const s = inputs[i].shape;
    if (s.length === 0) continue;
    if (first.length === 0) first = s; // every input before it was rank 0
    else if (!sameShape(s, first)) return broadcastMixed(inputs, op);
  }
  return first;
}

function broadcastMixed(inputs: readonly { shape: readonly number[] }[], op: string): readonly number[] {
  let rank = 0;
  for (let i = 0; i < inputs.length; i++) rank = Math.max(rank, inputs[i].shape.length);
  const out: number[] = []; // packed (new Array(rank) would be holey: slower to read)
  for (let k = 0; k < rank; k++) out.push(1);
  for (let i = 0; i < inputs.length; i++) {
    const s = inputs[i].shape;
    const offset = rank - s.length;
    for (let k = 0; k < s.length; k++) {
      const d = s[k];
      const o = out[offset + k];
      if (d === o || d === 1) continue;
      if (o !== 1) {
        // The first input with a dim other than 1 on this axis set it.
        let j = 0;
        while (dimAt(inputs[j].shape, rank, offset + k) === 1) j++;
        throw new OnnxOpsError('BROADCAST_MISMATCH', op, i,
          `shape ${showShape(s)} does not broadcast with input ${j}'s shape ${showShape(inputs[j].shape)} ` +
          `(axis ${k - s.length}: ${d} vs ${o})`);
      }
      out[offset + k] = d;
    }
  }
  // An input's own shape where it is the result's: the descriptor then shares its dims.
  for (let i = 0; i < inputs.length; i++) if (sameShape(inputs[i].shape, out)) return inputs[i].shape;
  return out;
}

/** A shape's dim on axis `axis` of the broadcast rank `rank` (1 where it has none). */
function dimAt(shape: readonly number[], rank: number, axis: number): number {
  const k = axis - (rank - shape.length);
  return k >= 0 ? shape[k] : 1;
}

export function sameShape(a: readonly number[], b: readonly number[]): boolean {
  if (a === b) return true;
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}


/** A typed array `out`: as the caller gave it (the result's data), its storage array, and whether it is staged (below). */
export interface OutArray {
  given: ArrayBufferView;
  data: TypedArray;
  staged: boolean;
}

/**
 * Checks a typed array given as `out` for plain inputs: the dtype's array
 * class, the result's length, and no partial overlap with an input (being
 * exactly an input of the output's shape, in place, is fine). `staged`: the
 * result must be computed aside and copied in (see below).
 */
export function checkPlainOut(op: string, info: DTypeInfo, shape: readonly number[], size: number, out: ArrayBufferView,
  inputs: readonly Checked[], owner: Heap): OutArray {
  const same = checkStorage(out, typedArrayKind(out), info, op, 'out');
  const buffer = bufferOf(out as TypedArray);
  const length = lengthOf(out as TypedArray);
  const data = storageView(out, buffer, length, info, same, op, 'out');
  if (buffer === owner.wasmBuffer) {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, 'out',
      'out is a view of wasm memory (a tensor\'s .data?): pass the tensor itself as out');
  }
  if (length !== size) {
    throw new OnnxOpsError('OUT_MISMATCH', op, 'out',
      `out has ${length} elements but the result ${showShape(shape)} has ${size}`);
  }
  const start = byteOffsetOf(data);
  const end = start + length * info.bytes;
  for (let i = 0; i < inputs.length; i++) {
    const d = inputs[i].data;
    if (!d || inputs[i].buffer !== buffer || inputs[i].size === 0 || length === 0) continue;
    const from = byteOffsetOf(d);
    if (from >= end || from + inputs[i].size * info.bytes <= start) continue;
    if (from === start && inputs[i].size === length) continue;
    throw new OnnxOpsError('OVERLAP', op, i,
      'out overlaps this input\'s memory without being exactly it (results would overwrite values still to be read)');
  }
  // Two SharedArrayBuffer objects may share memory (structuredClone, workers)
  // without JavaScript being able to tell: then the result is computed aside
  // and copied into out at the end.
  const staged = isShared(buffer) && inputs.some((c) => c.buffer !== undefined && c.buffer !== buffer && isShared(c.buffer));
  return { given: out, data, staged };
}

/** Whether a buffer is a SharedArrayBuffer of any realm (this realm's ArrayBuffers skip the tag test). */
function isShared(b: ArrayBufferLike): boolean {
  return !(b instanceof ArrayBuffer) && Object.prototype.toString.call(b) === '[object SharedArrayBuffer]';
}
