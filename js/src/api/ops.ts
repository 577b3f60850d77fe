/**
 * The operators, one method each: prepare the call (check/prepare.ts), then
 * run it on the instance's backend (backend/backend.ts).
 */
import { type DType, dtypeInfo } from '../dtypes.js';
import type { Backend, BackendName, MemoryStats } from '../backend/backend.js';
import { Call } from '../core/call.js';
import { OP_NAMES } from '../core/spec.js';
import { checkInput } from '../check/input.js';
import { type OpName, supportedDtypes } from '../check/opsets.js';
import { prepareUnary, prepareVariadic } from '../check/prepare.js';
import { checkFits, checkShape } from '../check/shape.js';
import { WasmTensor } from '../core/tensor.js';
import type { OpOptions, PlainTensorLike, Result, TensorLike } from '../core/types.js';

export class Ops {
  /**
   * @internal The backend the instance runs on (backend/backend.ts), the
   * only thing it calls to run a call or to hold a tensor. (Named `impl`:
   * `backend` is left for a public name of the backend.)
   */
  declare readonly impl: Backend;
  /** @internal Each op's call record (call.ts): of the call being made, or kept from the last one. */
  declare readonly calls: Readonly<Record<OpName, Call>>;
  /** True when the loaded module runs wasm SIMD128 kernels. */
  readonly simd: boolean;
  /** Which kernels run the ops: 'wasm-simd', 'wasm' (no SIMD128) or 'js' (no WebAssembly); see createOps(). */
  readonly backend: BackendName;

  /** @internal — use createOps(). */
  constructor(impl: Backend) {
    // Not shown by console.log:
    Object.defineProperty(this, 'impl', { value: impl });
    const calls = {} as Record<OpName, Call>;
    for (const op of OP_NAMES) calls[op] = new Call(impl, op);
    Object.defineProperty(this, 'calls', { value: calls });
    this.simd = impl.name === 'wasm-simd';
    this.backend = impl.name;
  }

  /**
   * ONNX Max: the element-wise maximum of 1..N inputs of one dtype, with
   * numpy broadcasting from Max-8 on (before it, all shapes must be equal).
   */
  max(inputs: readonly PlainTensorLike[], options?: OpOptions & { out?: ArrayBufferView }): Result;
  max(inputs: readonly TensorLike[], options: OpOptions & { out: WasmTensor }): WasmTensor;
  max(inputs: readonly TensorLike[], options?: OpOptions): Result | WasmTensor;
  max(inputs: readonly TensorLike[], options?: OpOptions): Result | WasmTensor {
    const p = this.#callRecord(this.calls.Max);
    try {
      return this.impl.run(prepareVariadic(p, inputs, options));
    } finally {
      this.#done(p);
    }
  }

  /** ONNX Relu: max(0, x) element-wise, for one input. */
  relu(input: PlainTensorLike, options?: OpOptions & { out?: ArrayBufferView }): Result;
  relu(input: WasmTensor, options?: OpOptions): WasmTensor;
  relu(input: TensorLike, options: OpOptions & { out: WasmTensor }): WasmTensor;
  relu(input: TensorLike, options?: OpOptions): Result | WasmTensor;
  relu(input: TensorLike, options?: OpOptions): Result | WasmTensor {
    const p = this.#callRecord(this.calls.Relu);
    try {
      return this.impl.run(prepareUnary(p, input, options, arguments.length));
    } finally {
      this.#done(p);
    }
  }

  /** Calls in progress on this instance: more than one when a getter of a call's arguments makes another. */
  #depth = 0;

  /** The record a call fills: the op's own (call.ts), or for a call made within another, a new one. */
  #callRecord(own: Call): Call {
    return this.#depth++ === 0 ? own : new Call(this.impl, own.op);
  }

  #done(p: Call): void {
    this.#depth--;
    p.clear();
  }

  /**
   * A tensor in wasm memory, zero-filled or holding a copy of `data`. Pass it
   * to ops (and as `out`) to work without copies; dispose() frees it.
   */
  tensor(dtype: DType | string | number, shape: readonly number[], data?: ArrayBufferView): WasmTensor {
    const impl = this.impl;
    const scope = { op: 'tensor', owner: impl };
    const info = dtypeInfo(dtype, scope.op, 0);
    const checked = data === undefined
      ? checkShape(scope, shape, 0)
      : checkInput(scope, { dtype: info.name, shape, data }, 0);
    checkFits(scope, info, checked.shape, checked.size, 0);
    const bytes = checked.size * info.bytes;
    const address = impl.alloc(bytes, scope.op, 0);
    if ('data' in checked && checked.data) impl.write(address, info, checked.data);
    else impl.zero(address, bytes);
    return new WasmTensor(impl, info.name, checked.shape, checked.size, address);
  }

  /** The dtypes an op accepts at an opset (default: the newest). */
  supportedDtypes(op: OpName, opset?: number): DType[] {
    return supportedDtypes(op, opset);
  }

  /**
   * Frees the blocks an instance keeps between calls (the plain path's
   * scratch, at most `scratchBytes`, and the call descriptor); later calls
   * make them again. Wasm memory itself never shrinks.
   */
  trimMemory(): void {
    this.impl.trim();
  }

  /** Bytes of wasm heap in use (malloc's count) and what this instance holds. */
  memoryStats(): MemoryStats {
    return this.impl.memoryStats();
  }
}
