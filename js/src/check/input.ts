/**
 * The rules for an op's inputs: what a tensor-like is (each accepted form,
 * its dtype, shape and data), own and live wasm tensors, and arguments
 * changed by the caller's code while they were read.
 */
import {
  type DTypeInfo, type TypedArray, assertInBounds, bufferOf, dtypeInfo, dtypeOfKind, lengthOf, standardView, typedArrayKind,
} from '../dtypes.js';
import { type InputRef, OnnxOpsError, describe, showShape } from '../errors.js';
import { CHECKED, TENSOR_MARK, type TensorHost, WasmTensor } from '../core/tensor.js';
import type { CheckScope, CheckedInput } from '../core/call.js';
import { checkFits, checkShape } from './shape.js';

/** Whether a typed array of this kind holds the dtype's data. */
function holds(info: DTypeInfo, kind: string): boolean {
  return kind === info.arrayName ||
    (info.name === 'uint8' && kind === 'Uint8ClampedArray') || (info.name === 'float16' && kind === 'Float16Array');
}

/**
 * Throws unless `data`, of a kind (typedArrayKind), is a typed array that
 * holds the dtype's data; returns whether it is of the storage class itself.
 */
export function checkStorage(scope: CheckScope, data: unknown, kind: string | undefined, info: DTypeInfo, input: InputRef): boolean {
  const dtype = info.name;
  if (kind === undefined || !holds(info, kind)) {
    const extra = dtype === 'float16' || dtype === 'bfloat16'
      ? ` (raw ${dtype} bits${dtype === 'float16' ? ', or a Float16Array' : ''}; encode${dtype === 'float16' ? 'Float16' : 'Bfloat16'}() converts numbers)`
      : '';
    throw new OnnxOpsError('INVALID_ARGUMENT', scope.op, input,
      `data for ${dtype} must be a ${info.array.name}${extra}, got ${kind ?? describe(data)}`);
  }
  return kind === info.arrayName;
}

/**
 * The dtype's storage array over exactly the bytes of `data` (checked by
 * checkStorage: `same` is what it returned; `buffer` and `length` are
 * data's), or undefined when data's buffer is detached or too short (see
 * detached): `data` itself when it is of the storage class (of any realm, or
 * a subclass, or without a prototype: so it is read only through dtypes.ts's
 * functions on internal slots, never through its own properties), else a
 * view of this realm's standard class (a Float16Array's bits as a
 * Uint16Array). Data that is a view of `copyFrom` (wasm memory, e.g. a
 * tensor's .data) is copied out: the call may grow the memory, which would
 * detach it.
 */
export function storageView(data: ArrayBufferView, buffer: ArrayBufferLike, length: number, info: DTypeInfo, same: boolean,
  copyFrom: ArrayBufferLike | undefined): TypedArray | undefined {
  try {
    return standardView(data, info.array, copyFrom, same, buffer, length);
  } catch {
    return undefined;
  }
}

/** The error of data storageView could not view. */
export function detached(scope: CheckScope, input: InputRef): never {
  throw new OnnxOpsError('INVALID_ARGUMENT', scope.op, input, 'the data\'s ArrayBuffer is detached, or was resized below the view');
}

/**
 * Throws FOREIGN_TENSOR if x, an object that is not one of this copy's wasm
 * tensors, is another copy's (see TENSOR_MARK).
 */
export function checkNotOtherCopys(scope: CheckScope, x: object, input: InputRef): void {
  if ((x as Record<symbol, unknown>)[TENSOR_MARK] === true) {
    throw new OnnxOpsError('FOREIGN_TENSOR', scope.op, input,
      'the tensor is from another copy of onnx-ops-wasm (its CommonJS and ES module builds are separate)');
  }
}

/** Checks that a wasm tensor belongs to the scope's owner and is not disposed. */
export function checkOwnTensor(scope: CheckScope, x: WasmTensor, input: InputRef): void {
  if (!WasmTensor.isLive(x, scope.owner)) rejectTensor(scope, x, input);
}

/** The error of a tensor checkOwnTensor refuses (apart, so that the check stays small enough to inline). */
function rejectTensor(scope: CheckScope, x: WasmTensor, input: InputRef): void {
  if (!WasmTensor.is(x)) {
    throw new OnnxOpsError('INVALID_ARGUMENT', scope.op, input,
      'not a tensor from ops.tensor(): a Proxy around one, or an object made from its prototype');
  }
  if (x.backend !== scope.owner) {
    const form = (b: TensorHost | undefined) => (b?.remote ? 'the worker form' : 'the sync API');
    throw new OnnxOpsError('FOREIGN_TENSOR', scope.op, input, x.backend.remote === scope.owner?.remote
      ? 'the tensor belongs to another createOps() instance'
      : `the tensor belongs to ${form(x.backend)} and this call to ${form(scope.owner)}: each takes its own tensors only (no silent copy)`);
  }
  x.assertLive(scope.op, input);
}

/**
 * Validates one input of an op: a tensor-like of any accepted form. Reads
 * nothing but the fields; never modifies the caller's data.
 */
export function checkInput(scope: CheckScope, x: unknown, input: InputRef): CheckedInput {
  if (x instanceof WasmTensor) {
    checkOwnTensor(scope, x, input);
    return x[CHECKED];
  }
  return checkPlainInput(scope, x, input);
}

/** checkInput for anything but a wasm tensor. */
function checkPlainInput(scope: CheckScope, x: unknown, input: InputRef): CheckedInput {
  const op = scope.op;
  if (ArrayBuffer.isView(x)) { // typed arrays of any realm, and DataViews
    const kind = typedArrayKind(x);
    const info = dtypeOfKind(kind);
    if (info === undefined) {
      throw new OnnxOpsError('INVALID_ARGUMENT', op, input, `${describe(x)} is not a typed array of a supported dtype`);
    }
    return plainChecked(scope, x, kind, info, input, undefined);
  }
  if (x === null || typeof x !== 'object') {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, input,
      `expected a tensor ({ dtype, shape, data }, { type, dims, data }, a typed array or a wasm tensor), got ${describe(x)}`);
  }
  checkNotOtherCopys(scope, x, input); // not ours (see above)
  const t = x as Record<string, unknown>;
  const own = 'dtype' in t;
  const ort = !own && 'type' in t && 'dims' in t;
  if (!ort && !(own && 'shape' in t && 'data' in t)) {
    throw new OnnxOpsError('INVALID_ARGUMENT', op, input,
      'expected a tensor: { dtype, shape, data }, { type, dims, data }, a typed array or a wasm tensor');
  }
  const info = dtypeInfo(ort ? t.type : t.dtype, op, input);
  const dims = checkShape(scope, ort ? t.dims : t.shape, input);
  const data = t.data;
  return plainChecked(scope, data, typedArrayKind(data), info, input, dims);
}

/**
 * An input's data (of a kind, typedArrayKind) checked and as its storage
 * array, with `dims` (checkShape's) or, for a bare typed array, its own shape.
 */
function plainChecked(scope: CheckScope, x: unknown, kind: string | undefined, info: DTypeInfo, input: InputRef,
  dims: { shape: number[]; size: number } | undefined): CheckedInput {
  const same = checkStorage(scope, x, kind, info, input);
  const buffer = bufferOf(x as TypedArray);
  const length = lengthOf(x as TypedArray); // the storage array's too
  const data = storageView(x as ArrayBufferView, buffer, length, info, same, scope.owner?.memoryBuffer) ?? detached(scope, input);
  let shape;
  if (dims === undefined) shape = [length];
  else if (length !== dims.size) {
    throw new OnnxOpsError('DATA_LENGTH', scope.op, input,
      `data has ${length} elements but shape ${showShape(dims.shape)} needs ${dims.size}`);
  } else shape = dims.shape;
  checkFits(scope, info, shape, length, input);
  return { info, shape, size: length, data, tensor: undefined, address: -1, buffer };
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
export function checkUnchanged(scope: CheckScope, inputs: readonly CheckedInput[], out?: unknown): void {
  for (let i = 0; i < inputs.length - 1; i++) {
    const c = inputs[i];
    const w = c.tensor;
    if (w !== undefined ? w.address < 0 : c.size === 0 || lengthOf(c.data!) !== c.size) recheck(scope, c, i);
  }
  if (out instanceof WasmTensor) out.assertLive(scope.op, 'out');
}

/** The full check of one input that may have changed (see checkUnchanged): throws if it did. */
function recheck(scope: CheckScope, c: CheckedInput, i: number): void {
  if (c.tensor) c.tensor.assertLive(scope.op, i);
  else if (!intact(c.data!, c.size)) {
    throw new OnnxOpsError('INVALID_ARGUMENT', scope.op, i, 'the data was detached or resized during the call');
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


