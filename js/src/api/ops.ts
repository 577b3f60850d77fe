/**
 * The operators, one method each: prepare the call (check/prepare.ts), then
 * run it on the instance's backend (backend/backend.ts), by the instance's
 * core (core.ts).
 */
import type { DType } from '../dtypes.js';
import type { Backend, BackendName, MemoryStats } from '../backend/backend.js';
import { type OpName, supportedDtypes } from '../check/opsets.js';
import { prepareUnary, prepareVariadic } from '../check/prepare.js';
import type { WasmTensor } from '../core/tensor.js';
import type { OpOptions, PlainTensorLike, Result, TensorLike } from '../core/types.js';
import { OpsCore } from './core.js';

export class Ops {
  /**
   * @internal The backend the instance runs on (backend/backend.ts). (Named
   * `impl`: `backend` is left for a public name of the backend.)
   */
  declare readonly impl: Backend;
  /** The call records and call path over the backend. */
  readonly #core: OpsCore;
  /** True when the loaded module runs wasm SIMD128 kernels. */
  readonly simd: boolean;
  /** Which kernels run the ops: 'wasm-simd', 'wasm' (no SIMD128) or 'js' (no WebAssembly); see createOps(). */
  readonly backend: BackendName;

  /** @internal — use createOps(). */
  constructor(impl: Backend) {
    // Not shown by console.log:
    Object.defineProperty(this, 'impl', { value: impl });
    this.#core = new OpsCore(impl);
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
    const c = this.#core;
    const p = c.take(c.calls.Max);
    try {
      return this.impl.run(prepareVariadic(p, inputs, options));
    } finally {
      c.done(p);
    }
  }

  /** ONNX Relu: max(0, x) element-wise, for one input. */
  relu(input: PlainTensorLike, options?: OpOptions & { out?: ArrayBufferView }): Result;
  relu(input: WasmTensor, options?: OpOptions): WasmTensor;
  relu(input: TensorLike, options: OpOptions & { out: WasmTensor }): WasmTensor;
  relu(input: TensorLike, options?: OpOptions): Result | WasmTensor;
  relu(input: TensorLike, options?: OpOptions): Result | WasmTensor {
    const c = this.#core;
    const p = c.take(c.calls.Relu);
    try {
      return this.impl.run(prepareUnary(p, input, options, arguments.length));
    } finally {
      c.done(p);
    }
  }

  /**
   * A tensor in wasm memory, zero-filled or holding a copy of `data`. Pass it
   * to ops (and as `out`) to work without copies; dispose() frees it.
   */
  tensor(dtype: DType | string | number, shape: readonly number[], data?: ArrayBufferView): WasmTensor {
    return this.#core.tensor(dtype, shape, data);
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
