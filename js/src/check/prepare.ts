/**
 * Preparing a call: every check of an op's arguments, once (the op's arity,
 * options, `out`, inputs, dtypes and shapes), filling the call record
 * (call.ts) that the backend runs. Nothing here touches wasm memory.
 */
import type { DTypeInfo } from '../dtypes.js';
import { type ErrorCode, OnnxOpsError, describe, showShape } from '../errors.js';
import { CHECKED, WasmTensor } from '../core/tensor.js';
import type { OpOptions } from '../core/types.js';
import type { Call, CheckedInput } from '../core/call.js';
import { methodName } from '../core/spec.js';
import { checkInput, checkNotOtherCopys, checkOwnTensor, checkUnchanged } from './input.js';
import { checkAllowed, opVersion } from './opsets.js';
import { checkPlainOut } from './out.js';
import { checkFits } from './shape.js';
import { broadcastChecked, elementCount, sameShape } from '../core/shape.js';

/** The last Call.id given. */
let lastId = 0;

/**
 * An op's call by its arity (core/spec.ts): `a` its input, or its list of
 * inputs; `count` how many arguments the call had.
 */
export function prepareCall(call: Call, a: unknown, options: unknown, count: number): Call {
  return call.spec.arity === 'unary' ? prepareUnary(call, a, options, count) : prepareVariadic(call, a, options);
}

/** A variadic op (Max): 1..N inputs of one dtype; from its broadcastSince version on they broadcast, before it they share one shape. */
export function prepareVariadic(call: Call, inputs: unknown, options: unknown): Call {
  if (!Array.isArray(inputs)) fail(call, 'INVALID_ARGUMENT', `inputs must be an array of tensors: ${methodName(call.op)}([a, b, ...])`);
  const o = checkOptions(call, options);
  const opset = o.opset;
  const given = o.out;
  const n = inputs.length;
  if (call.repeats(opset, given, n)) { // the op's last call again, on the same wasm tensors
    let i = 0;
    while (i < n && inputs[i] === call.inputs[i].tensor) i++;
    if (i === n && call.live()) return call;
  }
  return checkVariadic(call, inputs, o, opset, given);
}

/** prepareVariadic for a call that is not the last one again: every check. */
function checkVariadic(call: Call, inputs: readonly unknown[], options: OpOptions, opset: number | undefined, given: unknown): Call {
  call.id = 0;
  checkKeys(call, options);
  const version = opVersion(call.op, opset);
  const out = checkOut(call, given);
  const n = inputs.length;
  if (n === 0) fail(call, 'ARITY', 'needs at least one input');
  const checked = call.list(n);
  let tensors = 0;
  for (let i = 0; i < n; i++) { // holes too
    const c = checkInput(call, inputs[i], i);
    checked[i] = c;
    if (c.tensor !== undefined) tensors++;
  }
  checkUnchanged(call, checked, out);
  const info = checkDtypes(call, version, checked);
  const first = checked[0].shape;
  const shape = version >= (call.spec.broadcastSince ?? 1) ? broadcastChecked(call, checked) : sameShapes(call, version, checked);
  call.opset = opset;
  call.inputs = checked;
  return fillCall(call, info, shape, shape === first ? checked[0].size : elementCount(shape), tensors, out);
}

/** A unary op (Relu): exactly one input (a one-element array of it too); `count`: how many arguments the call had. */
export function prepareUnary(call: Call, input: unknown, options: unknown, count: number): Call {
  if (Array.isArray(input)) input = onlyInput(call, input);
  if (input === undefined && count === 0) fail(call, 'ARITY', 'takes exactly one input, got none');
  const o = checkOptions(call, options);
  const opset = o.opset;
  const given = o.out;
  if (call.repeats(opset, given, 1) && input === call.inputs[0].tensor && call.live()) return call; // the op's last call again
  return checkUnary(call, input, o, opset, given);
}

/** prepareUnary for a call that is not the last one again: every check. */
function checkUnary(call: Call, input: unknown, options: OpOptions, opset: number | undefined, given: unknown): Call {
  call.id = 0;
  checkKeys(call, options);
  const version = opVersion(call.op, opset);
  const out = checkOut(call, given);
  const c = checkInput(call, input, 0);
  const tensors = c.tensor === undefined ? 0 : 1;
  const checked = call.list(1);
  checked[0] = c;
  if (tensors === 0 && c.data !== input) checkUnchanged(call, checked, out); // only reading an object runs caller code
  checkAllowed(call.op, version, c.info);
  call.opset = opset;
  call.inputs = checked;
  return fillCall(call, c.info, c.shape, c.size, tensors, out);
}

/** An error about the call as a whole. */
function fail(call: Call, code: ErrorCode, problem: string): never {
  throw new OnnxOpsError(code, call.op, undefined, problem);
}

/** A unary op's input given as an array of one. */
function onlyInput(call: Call, inputs: readonly unknown[]): unknown {
  if (inputs.length !== 1) fail(call, 'ARITY', `takes exactly one input, got ${inputs.length}`);
  return inputs[0];
}

/** A variadic op before broadcasting (Max-1, Max-6): every input has input 0's shape, the result's. */
function sameShapes(call: Call, version: number, checked: readonly CheckedInput[]): readonly number[] {
  const first = checked[0].shape;
  for (let i = 1; i < checked.length; i++) {
    if (!sameShape(checked[i].shape, first)) {
      throw new OnnxOpsError('SHAPE_MISMATCH', call.op, i,
        `${call.op}-${version} needs inputs of one shape (broadcasting comes with opset ${call.spec.broadcastSince}): ` +
        `${showShape(checked[i].shape)} vs input 0's ${showShape(first)}`);
    }
  }
  return first;
}

function checkOptions(call: Call, options: unknown = NO_OPTIONS): OpOptions {
  if (options === null || typeof options !== 'object') fail(call, 'INVALID_ARGUMENT', 'options must be an object: { opset?, out? }');
  return options as OpOptions;
}

/**
 * Unknown keys are errors: a misspelt `opset` would select the newest version
 * silently. Not on the repeat path (a call that repeats the op's last one):
 * enumerating the keys there would make every options object escape and be
 * allocated (docs/PERFORMANCE.md).
 */
function checkKeys(call: Call, options: OpOptions): void {
  for (const key in options) {
    if (key !== 'opset' && key !== 'out' && ((key !== 'transfer' && key !== 'signal') || !call.owner.remote)) fail(call, 'INVALID_ARGUMENT', `unknown option ${JSON.stringify(key)}`);
  }
}

const NO_OPTIONS: OpOptions = {};

/** `out`, if given: a live wasm tensor of this instance or a typed array. */
function checkOut(call: Call, out: unknown): WasmTensor | ArrayBufferView | undefined {
  if (out instanceof WasmTensor) checkOwnTensor(call, out, 'out');
  else if (out !== undefined && (!ArrayBuffer.isView(out) || out instanceof DataView)) notAnOut(call, out);
  return out as WasmTensor | ArrayBufferView | undefined;
}

function notAnOut(call: Call, out: unknown): never {
  if (typeof out === 'object' && out !== null) checkNotOtherCopys(call, out, 'out');
  throw new OnnxOpsError('INVALID_ARGUMENT', call.op, 'out', `out must be a tensor from ops.tensor() or a typed array, got ${describe(out)}`);
}

/** One dtype for all inputs, and one the op's version allows. */
function checkDtypes(call: Call, version: number, checked: readonly CheckedInput[]): DTypeInfo {
  const info = checked[0].info;
  for (let i = 1; i < checked.length; i++) if (checked[i].info !== info) dtypeMismatch(call, checked, i);
  checkAllowed(call.op, version, info);
  return info;
}

function dtypeMismatch(call: Call, checked: readonly CheckedInput[], i: number): never {
  throw new OnnxOpsError('DTYPE_MISMATCH', call.op, i,
    `dtype ${checked[i].info.name} differs from input 0's ${checked[0].info.name} (all inputs must share one dtype)`);
}

/**
 * Completes the call, its inputs set, with the result's dtype, shape and
 * size: the size fits, and `out` takes it. `tensors`: how many inputs are
 * wasm tensors.
 */
function fillCall(call: Call, info: DTypeInfo, shape: readonly number[], size: number, tensors: number,
  out: WasmTensor | ArrayBufferView | undefined): Call {
  checkFits(call, info, shape, size);
  call.info = info;
  call.shape = shape;
  call.size = size;
  const tensorOut = out instanceof WasmTensor;
  const tensorResult = tensors > 0 || tensorOut;
  call.tensorResult = tensorResult;
  call.allTensors = tensors === call.inputs.length;
  call.outTensor = undefined;
  call.outArray = undefined;
  if (tensorOut) {
    if (out.dtype !== info.name || !sameShape(out[CHECKED].shape, shape)) outMismatch(call, out);
    // Each wasm tensor is its own allocation, so out can only overlap an
    // input by being that input, which then has the output's shape: in place.
    call.outTensor = out;
  } else if (out !== undefined) {
    arrayOut(call, out);
  }
  call.id = call.allTensors ? ++lastId : 0; // wasm tensor inputs never take a typed-array out (arrayOut)
  return call;
}

/** A typed array `out` (apart, so that fillCall() stays small enough to inline). */
function arrayOut(call: Call, out: ArrayBufferView): void {
  if (call.tensorResult) throw new OnnxOpsError('INVALID_ARGUMENT', call.op, 'out', 'a typed array out goes with plain inputs only; use a wasm tensor');
  call.outArray = checkPlainOut(call, out);
}

function outMismatch(call: Call, out: WasmTensor): never {
  throw new OnnxOpsError('OUT_MISMATCH', call.op, 'out',
    `out is ${out.dtype} ${showShape(out.shape)} but the result is ${call.info.name} ${showShape(call.shape)}`);
}
