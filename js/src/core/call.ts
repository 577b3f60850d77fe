/**
 * The call context: one record per call of an op, which carries the
 * checked call (its op, opset, dtype, the result's shape and size, the
 * checked inputs, where the result goes) from check/prepare.ts, which fills
 * it, to the backend, which runs it, as the C++ `onnx_ops::Call` carries a
 * call into the kernels.
 */
import { DTYPE_INFO, type DTypeInfo, type TypedArray } from '../dtypes.js';
import { type CheckedInput, type TensorHost, WasmTensor } from './tensor.js';
import { OP_NAMES, OP_SPECS, type OpName, type OpSpec } from './spec.js';

export type { CheckedInput };

export type { OpName };

/** A typed array `out` (check/out.ts): as the caller gave it (the result's data), its storage array, and whether it is staged. */
export interface OutArray {
  readonly given: ArrayBufferView;
  readonly data: TypedArray;
  readonly staged: boolean;
}

/**
 * What the checks of one call share: the op its errors name, and the
 * instance whose wasm tensors it may take (undefined: any instance's, for
 * toOrt; none, for broadcastShapes). The call record (call.ts) is one.
 */
export interface CheckScope {
  readonly op: string;
  readonly owner: TensorHost | undefined;
}

/**
 * A checked call, and the scope of its checks. `tensorResult`: it runs in wasm memory (an input or `out`
 * is a wasm tensor) and returns a wasm tensor; otherwise it takes the plain
 * path and returns a plain result. One Call per op of an Ops instance serves
 * call after call: prepare fills it, the backend runs it, Ops empties it (a
 * call made from within another, by a getter of its arguments, gets one of
 * its own). So a call allocates nothing for its record or its list of
 * checked inputs: in WebKit, with large wasm memories, every allocation on
 * the call path cost a share of a collection. There is one per op so that
 * calls of the two ops in turn neither resize each other's list of inputs
 * nor end each other's repeats (see id).
 *
 * A call of wasm tensors only is kept after it ran instead (it holds no
 * caller data, only those tensors), and serves the same call made again:
 * the usual loop of zero-copy calls then skips every check but liveness,
 * and the descriptor's writes.
 */
export class Call implements CheckScope {
  info: DTypeInfo = DTYPE_INFO.float32;
  shape: readonly number[] = NONE;
  size = 0;
  inputs: readonly CheckedInput[] = NONE;
  /** The result is a wasm tensor: an input or `out` is one. */
  tensorResult = false;
  /** Every input is a wasm tensor. */
  allTensors = false;
  /** A wasm tensor `out`. */
  outTensor: WasmTensor | undefined = undefined;
  /** A typed array `out`. */
  outArray: OutArray | undefined = undefined;
  /** The checked inputs' list, reused (see list). */
  readonly #list: CheckedInput[] = [];
  /**
   * Not 0 when the call may be made again as it is (see repeats): its inputs
   * are all wasm tensors and `out` is one or none, whose dtypes and shapes
   * never change. A number no other call had, which also names the call's
   * descriptor (backend/wasm/descriptor.ts's callOp).
   */
  id = 0;
  /** The call's opset, as given. */
  opset: number | undefined = undefined;

  /**
   * @param owner the instance whose wasm tensors the call takes.
   * @param op the op, for which the record serves call after call.
   */
  constructor(readonly owner: TensorHost, readonly op: OpName) {
    this.spec = OP_SPECS[op];
    this.opId = OP_NAMES.indexOf(op);
  }

  /** The op's row of the spec table. */
  readonly spec: OpSpec;
  /** The op's id: its row's place in the spec table (src/ops.h's OpId). */
  readonly opId: number;

  /**
   * Whether a call with this opset, `out` and `n` inputs may repeat this one. If so, prepare compares the inputs themselves with this call's
   * (`inputs[i].tensor`), then, once every argument was read (which may have
   * run caller code), their liveness (see live).
   */
  repeats(opset: number | undefined, out: unknown, n: number): boolean {
    return this.id !== 0 && this.opset === opset && this.outTensor === out && this.inputs.length === n;
  }

  /** Whether the call's wasm tensors, `out` too, are all still live. */
  live(): boolean {
    const inputs = this.inputs;
    const owner = this.owner;
    for (let i = 0; i < inputs.length; i++) if (!WasmTensor.isLive(inputs[i].tensor!, owner)) return false;
    return this.outTensor === undefined || WasmTensor.isLive(this.outTensor, owner);
  }

  /** The call's list of checked inputs, `n` long. */
  list(n: number): CheckedInput[] {
    const l = this.#list;
    if (l.length !== n) l.length = n;
    return l;
  }

  /** Lets go of the call's arguments, unless it may be made again (see id). */
  clear(): void {
    if (this.id !== 0) return;
    this.shape = NONE;
    this.inputs = NONE;
    this.outTensor = undefined;
    this.outArray = undefined;
    const l = this.#list;
    for (let i = 0; i < l.length; i++) l[i] = NO_INPUT;
  }
}

const NONE: readonly never[] = Object.freeze([]);
const NO_INPUT: CheckedInput = { info: DTYPE_INFO.float32, shape: NONE, size: 0, data: undefined, tensor: undefined, address: -1, buffer: undefined };
