/**
 * Preparing a call: every check of an op's arguments, once (the op's arity,
 * options, `out`, inputs, dtypes and shapes), filling the call record
 * (call.ts) that the backend runs. Nothing here touches wasm memory.
 */
import type { DTypeInfo } from '../dtypes.js';
import { type ErrorCode, OnnxOpsError, describe, showShape } from '../errors.js';
import type { Heap } from '../backend/wasm/memory.js';
import { CHECKED, WasmTensor } from '../api/tensor.js';
import type { OpOptions } from '../api/types.js';
import type { Call } from '../call.js';
import { type CheckedInput, checkInput, checkNotOtherCopys, checkOwnTensor, checkUnchanged } from './input.js';
import { type OpName, checkAllowed, opVersion } from './opsets.js';
import { type OutArray, checkPlainOut } from './out.js';
import { broadcastChecked, checkFits, elementCount, sameShape } from './shape.js';

/** The last Call.id given. */
let lastId = 0;

/** Max: 1..N inputs of one dtype; from Max-8 on they broadcast, before it they share one shape. */
export function prepareMax(heap: Heap, p: Call, inputs: unknown, options: unknown): Call {
  const op = 'Max';
  if (!Array.isArray(inputs)) fail('INVALID_ARGUMENT', op, 'inputs must be an array of tensors: max([a, b, ...])');
  const o = checkOptions(op, options);
  const opset = o.opset;
  const given = o.out;
  const n = inputs.length;
  if (p.repeats(op, opset, given, n)) { // the op's last call again, on the same wasm tensors
    let i = 0;
    while (i < n && inputs[i] === p.inputs[i].tensor) i++;
    if (i === n && p.live(heap)) return p;
  }
  return checkMax(heap, p, inputs, opset, given);
}

/** prepareMax for a call that is not the last one again: every check. */
function checkMax(heap: Heap, p: Call, inputs: readonly unknown[], opset: number | undefined, given: unknown): Call {
  const op = 'Max';
  p.id = 0;
  const version = opVersion(op, opset);
  const out = checkOut(heap, op, given);
  const n = inputs.length;
  if (n === 0) fail('ARITY', op, 'needs at least one input');
  const checked = p.list(n);
  let tensors = 0;
  for (let i = 0; i < n; i++) { // holes too
    const c = checkInput(inputs[i], op, i, heap);
    checked[i] = c;
    if (c.tensor !== undefined) tensors++;
  }
  checkUnchanged(op, checked, out);
  const info = checkDtypes(op, version, checked);
  const first = checked[0].shape;
  const shape = version >= 8 ? broadcastChecked(checked, op) : sameShapes(version, checked);
  return fillCall(heap, p, op, info, shape, shape === first ? checked[0].size : elementCount(shape), checked, tensors, out, opset);
}

/** Relu: exactly one input (a one-element array of it too); `count`: how many arguments the call had. */
export function prepareRelu(heap: Heap, p: Call, input: unknown, options: unknown, count: number): Call {
  const op = 'Relu';
  if (Array.isArray(input)) input = onlyInput(input);
  if (input === undefined && count === 0) fail('ARITY', op, 'takes exactly one input, got none');
  const o = checkOptions(op, options);
  const opset = o.opset;
  const given = o.out;
  if (p.repeats(op, opset, given, 1) && input === p.inputs[0].tensor && p.live(heap)) return p; // the op's last call again
  return checkRelu(heap, p, input, opset, given);
}

/** prepareRelu for a call that is not the last one again: every check. */
function checkRelu(heap: Heap, p: Call, input: unknown, opset: number | undefined, given: unknown): Call {
  const op = 'Relu';
  p.id = 0;
  const version = opVersion(op, opset);
  const out = checkOut(heap, op, given);
  const c = checkInput(input, op, 0, heap);
  const tensors = c.tensor === undefined ? 0 : 1;
  const checked = p.list(1);
  checked[0] = c;
  if (tensors === 0 && c.data !== input) checkUnchanged(op, checked, out); // only reading an object runs caller code
  checkAllowed(op, version, c.info);
  return fillCall(heap, p, op, c.info, c.shape, c.size, checked, tensors, out, opset);
}

/** An error about the call as a whole. */
function fail(code: ErrorCode, op: OpName, problem: string): never {
  throw new OnnxOpsError(code, op, undefined, problem);
}

/** Relu's input given as an array of one. */
function onlyInput(inputs: readonly unknown[]): unknown {
  if (inputs.length !== 1) fail('ARITY', 'Relu', `takes exactly one input, got ${inputs.length}`);
  return inputs[0];
}

/** Max-1 and Max-6: every input has input 0's shape, the result's. */
function sameShapes(version: number, checked: readonly CheckedInput[]): readonly number[] {
  const first = checked[0].shape;
  for (let i = 1; i < checked.length; i++) {
    if (!sameShape(checked[i].shape, first)) {
      throw new OnnxOpsError('SHAPE_MISMATCH', 'Max', i,
        `Max-${version} needs inputs of one shape (broadcasting comes with opset 8): ` +
        `${showShape(checked[i].shape)} vs input 0's ${showShape(first)}`);
    }
  }
  return first;
}

function checkOptions(op: OpName, options: unknown = {}): OpOptions {
  if (options === null || typeof options !== 'object') fail('INVALID_ARGUMENT', op, 'options must be an object: { opset?, out? }');
  return options as OpOptions;
}

/** `out`, if given: a live wasm tensor of this instance or a typed array. */
function checkOut(heap: Heap, op: OpName, out: unknown): WasmTensor | ArrayBufferView | undefined {
  if (out instanceof WasmTensor) checkOwnTensor(out, op, 'out', heap);
  else if (out !== undefined && (!ArrayBuffer.isView(out) || out instanceof DataView)) notAnOut(op, out);
  return out as WasmTensor | ArrayBufferView | undefined;
}

function notAnOut(op: OpName, out: unknown): never {
  if (typeof out === 'object' && out !== null) checkNotOtherCopys(out, op, 'out');
  throw new OnnxOpsError('INVALID_ARGUMENT', op, 'out', `out must be a tensor from ops.tensor() or a typed array, got ${describe(out)}`);
}

/** One dtype for all inputs, and one the op's version allows. */
function checkDtypes(op: OpName, version: number, checked: readonly CheckedInput[]): DTypeInfo {
  const info = checked[0].info;
  for (let i = 1; i < checked.length; i++) if (checked[i].info !== info) dtypeMismatch(op, checked, i);
  checkAllowed(op, version, info);
  return info;
}

function dtypeMismatch(op: OpName, checked: readonly CheckedInput[], i: number): never {
  throw new OnnxOpsError('DTYPE_MISMATCH', op, i,
    `dtype ${checked[i].info.name} differs from input 0's ${checked[0].info.name} (all inputs must share one dtype)`);
}

/**
 * Fills the call, once the result's shape is known: its size fits, and `out`
 * takes it. `tensors`: how many inputs are wasm tensors.
 */
function fillCall(heap: Heap, p: Call, op: OpName, info: DTypeInfo, shape: readonly number[], size: number,
  inputs: readonly CheckedInput[], tensors: number, out: WasmTensor | ArrayBufferView | undefined, opset: number | undefined): Call {
  checkFits(info, shape, size, op);
  const tensorOut = out instanceof WasmTensor;
  const tensorResult = tensors > 0 || tensorOut;
  let outArray: OutArray | undefined;
  if (tensorOut) {
    if (out.dtype !== info.name || !sameShape(out[CHECKED].shape, shape)) outMismatch(op, out, info, shape);
    // Each wasm tensor is its own allocation, so out can only overlap an
    // input by being that input, which then has the output's shape: in place.
  } else if (out !== undefined) {
    outArray = arrayOut(heap, op, info, shape, size, inputs, tensorResult, out);
  }
  p.op = op;
  p.info = info;
  p.shape = shape;
  p.size = size;
  p.inputs = inputs;
  p.tensorResult = tensorResult;
  p.allTensors = tensors === inputs.length;
  p.outTensor = tensorOut ? out : undefined;
  p.outArray = outArray;
  p.opset = opset;
  p.id = p.allTensors ? ++lastId : 0; // wasm tensor inputs never take a typed-array out (arrayOut)
  return p;
}

/** A typed array `out` (apart, so that fillCall() stays small enough to inline). */
function arrayOut(heap: Heap, op: OpName, info: DTypeInfo, shape: readonly number[], size: number, inputs: readonly CheckedInput[],
  tensorResult: boolean, out: ArrayBufferView): OutArray {
  if (tensorResult) throw new OnnxOpsError('INVALID_ARGUMENT', op, 'out', 'a typed array out goes with plain inputs only; use a wasm tensor');
  return checkPlainOut(op, info, shape, size, out, inputs, heap);
}

function outMismatch(op: OpName, out: WasmTensor, info: DTypeInfo, shape: readonly number[]): never {
  throw new OnnxOpsError('OUT_MISMATCH', op, 'out', `out is ${out.dtype} ${showShape(out.shape)} but the result is ${info.name} ${showShape(shape)}`);
}
