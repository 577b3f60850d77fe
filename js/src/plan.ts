/**
 * Preparing a call: every check of the op's arguments, once, and the plan
 * that execute.ts runs (the result's dtype, shape and size, the checked
 * inputs, where the result goes). Nothing here touches wasm memory.
 */
import { DTYPE_INFO, type DTypeInfo } from './dtypes.js';
import { type ErrorCode, OnnxOpsError, describe, showShape } from './errors.js';
import { CHECKED, type Heap, WasmTensor } from './memory.js';
import { type OpName, checkAllowed, opVersion } from './opsets.js';
import {
  type Checked, type OutArray, broadcastChecked, checkFits, checkInput, checkNotOtherCopys, checkOwnTensor, checkPlainOut, checkUnchanged,
  elementCount, sameShape,
} from './validate.js';

export interface OpOptions {
  /** The model's ai.onnx opset (integer >= 1). Default: the newest operator version. */
  opset?: number;
  /**
   * Where to write the result: a wasm tensor, or a typed array of the result's
   * dtype and size (for plain inputs). May be one of the inputs (in place).
   */
  out?: WasmTensor | ArrayBufferView;
}

/**
 * A checked call. `wasm`: it runs in wasm memory (an input or `out` is a
 * wasm tensor) and returns a wasm tensor; otherwise it takes the plain path
 * (plain.ts) and returns a plain result. One Plan per op of an Ops instance
 * serves call after call: prepare fills it, execute runs it, Ops empties it
 * (a call made from within another, by a getter of its arguments, gets one
 * of its own). So a call allocates nothing for its plan or its list of
 * checked inputs: in WebKit, with large wasm memories, every allocation on
 * the call path cost a share of a collection. There is one per op so that
 * calls of the two ops in turn neither resize each other's list of inputs
 * nor end each other's repeats (see id).
 *
 * A plan of wasm tensors only is kept after its call instead (it holds no
 * caller data, only those tensors), and serves the same call made again:
 * the usual loop of zero-copy calls then skips every check but liveness,
 * and the descriptor's writes.
 */
export class Plan {
  op: OpName = 'Max';
  info: DTypeInfo = DTYPE_INFO.float32;
  shape: readonly number[] = NONE;
  size = 0;
  inputs: readonly Checked[] = NONE;
  wasm = false;
  /** Every input is a wasm tensor. */
  placed = false;
  /** A wasm tensor `out`. */
  out: WasmTensor | undefined = undefined;
  /** A typed array `out`. */
  outArray: OutArray | undefined = undefined;
  /** The checked inputs' list, reused (see list). */
  readonly #list: Checked[] = [];
  /**
   * Not 0 when the plan may serve its call again (see repeats): its inputs
   * are all wasm tensors and `out` is one or none, whose dtypes and shapes
   * never change. A number no other plan had, which also names the call's
   * descriptor (abi.ts's callOp).
   */
  id = 0;
  /** The call's opset, as given. */
  opset: number | undefined = undefined;

  /**
   * Whether a call of `op` with this opset, `out` and `n` inputs may repeat
   * the plan's call. If so, prepare compares the inputs themselves with the
   * plan's (`inputs[i].wasm`), then, once every argument was read (which may
   * have run caller code), their liveness (see live).
   */
  repeats(op: OpName, opset: number | undefined, out: unknown, n: number): boolean {
    return this.id !== 0 && this.op === op && this.opset === opset && this.out === out && this.inputs.length === n;
  }

  /** Whether the plan's wasm tensors, `out` too, are all still live. */
  live(heap: Heap): boolean {
    const inputs = this.inputs;
    for (let i = 0; i < inputs.length; i++) if (!WasmTensor.isLive(inputs[i].wasm!, heap)) return false;
    return this.out === undefined || WasmTensor.isLive(this.out, heap);
  }

  /** The plan's list of checked inputs, `n` long. */
  list(n: number): Checked[] {
    const l = this.#list;
    if (l.length !== n) l.length = n;
    return l;
  }

  /** Lets go of the call's arguments, unless the plan may serve its call again (see id). */
  clear(): void {
    if (this.id !== 0) return;
    this.shape = NONE;
    this.inputs = NONE;
    this.out = undefined;
    this.outArray = undefined;
    const l = this.#list;
    for (let i = 0; i < l.length; i++) l[i] = NO_INPUT;
  }
}

/** The last Plan.id given. */
let lastId = 0;

const NONE: readonly never[] = Object.freeze([]);
const NO_INPUT: Checked = { info: DTYPE_INFO.float32, shape: NONE, size: 0, data: undefined, wasm: undefined, address: -1, buffer: undefined };

/** Max: 1..N inputs of one dtype; from Max-8 on they broadcast, before it they share one shape. */
export function prepareMax(heap: Heap, p: Plan, inputs: unknown, options: unknown): Plan {
  const op = 'Max';
  if (!Array.isArray(inputs)) fail('INVALID_ARGUMENT', op, 'inputs must be an array of tensors: max([a, b, ...])');
  const o = checkOptions(op, options);
  const opset = o.opset;
  const given = o.out;
  const n = inputs.length;
  if (p.repeats(op, opset, given, n)) { // the op's last call again, on the same wasm tensors
    let i = 0;
    while (i < n && inputs[i] === p.inputs[i].wasm) i++;
    if (i === n && p.live(heap)) return p;
  }
  return planMax(heap, p, inputs, opset, given);
}

/** prepareMax for a call that is not the last one again: every check. */
function planMax(heap: Heap, p: Plan, inputs: readonly unknown[], opset: number | undefined, given: unknown): Plan {
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
    if (c.wasm !== undefined) tensors++;
  }
  checkUnchanged(op, checked, out);
  const info = checkDtypes(op, version, checked);
  const first = checked[0].shape;
  const shape = version >= 8 ? broadcastChecked(checked, op) : sameShapes(version, checked);
  return plan(heap, p, op, info, shape, shape === first ? checked[0].size : elementCount(shape), checked, tensors, out, opset);
}

/** Relu: exactly one input (a one-element array of it too); `count`: how many arguments the call had. */
export function prepareRelu(heap: Heap, p: Plan, input: unknown, options: unknown, count: number): Plan {
  const op = 'Relu';
  if (Array.isArray(input)) input = onlyInput(input);
  if (input === undefined && count === 0) fail('ARITY', op, 'takes exactly one input, got none');
  const o = checkOptions(op, options);
  const opset = o.opset;
  const given = o.out;
  if (p.repeats(op, opset, given, 1) && input === p.inputs[0].wasm && p.live(heap)) return p; // the op's last call again
  return planRelu(heap, p, input, opset, given);
}

/** prepareRelu for a call that is not the last one again: every check. */
function planRelu(heap: Heap, p: Plan, input: unknown, opset: number | undefined, given: unknown): Plan {
  const op = 'Relu';
  p.id = 0;
  const version = opVersion(op, opset);
  const out = checkOut(heap, op, given);
  const c = checkInput(input, op, 0, heap);
  const tensors = c.wasm === undefined ? 0 : 1;
  const checked = p.list(1);
  checked[0] = c;
  if (tensors === 0 && c.data !== input) checkUnchanged(op, checked, out); // only reading an object runs caller code
  checkAllowed(op, version, c.info);
  return plan(heap, p, op, c.info, c.shape, c.size, checked, tensors, out, opset);
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
function sameShapes(version: number, checked: readonly Checked[]): readonly number[] {
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
function checkDtypes(op: OpName, version: number, checked: readonly Checked[]): DTypeInfo {
  const info = checked[0].info;
  for (let i = 1; i < checked.length; i++) if (checked[i].info !== info) dtypeMismatch(op, checked, i);
  checkAllowed(op, version, info);
  return info;
}

function dtypeMismatch(op: OpName, checked: readonly Checked[], i: number): never {
  throw new OnnxOpsError('DTYPE_MISMATCH', op, i,
    `dtype ${checked[i].info.name} differs from input 0's ${checked[0].info.name} (all inputs must share one dtype)`);
}

/**
 * Fills the plan, once the result's shape is known: its size fits, and `out`
 * takes it. `tensors`: how many inputs are wasm tensors.
 */
function plan(heap: Heap, p: Plan, op: OpName, info: DTypeInfo, shape: readonly number[], size: number,
  inputs: readonly Checked[], tensors: number, out: WasmTensor | ArrayBufferView | undefined, opset: number | undefined): Plan {
  checkFits(info, shape, size, op);
  const tensorOut = out instanceof WasmTensor;
  const wasm = tensors > 0 || tensorOut;
  let outArray: OutArray | undefined;
  if (tensorOut) {
    if (out.dtype !== info.name || !sameShape(out[CHECKED].shape, shape)) outMismatch(op, out, info, shape);
    // Each wasm tensor is its own allocation, so out can only overlap an
    // input by being that input, which then has the output's shape: in place.
  } else if (out !== undefined) {
    outArray = arrayOut(heap, op, info, shape, size, inputs, wasm, out);
  }
  p.op = op;
  p.info = info;
  p.shape = shape;
  p.size = size;
  p.inputs = inputs;
  p.wasm = wasm;
  p.placed = tensors === inputs.length;
  p.out = tensorOut ? out : undefined;
  p.outArray = outArray;
  p.opset = opset;
  p.id = p.placed ? ++lastId : 0; // placed inputs never take a typed-array out (arrayOut)
  return p;
}

/** A typed array `out` (apart, so that plan() stays small enough to inline). */
function arrayOut(heap: Heap, op: OpName, info: DTypeInfo, shape: readonly number[], size: number, inputs: readonly Checked[],
  wasm: boolean, out: ArrayBufferView): OutArray {
  if (wasm) throw new OnnxOpsError('INVALID_ARGUMENT', op, 'out', 'a typed array out goes with plain inputs only; use a wasm tensor');
  return checkPlainOut(op, info, shape, size, out, inputs, heap);
}

function outMismatch(op: OpName, out: WasmTensor, info: DTypeInfo, shape: readonly number[]): never {
  throw new OnnxOpsError('OUT_MISMATCH', op, 'out', `out is ${out.dtype} ${showShape(out.shape)} but the result is ${info.name} ${showShape(shape)}`);
}
