/**
 * The operators, one method each (methods.ts, from the spec table): prepare
 * the call (check/prepare.ts), then run it on the instance's backend
 * (backend/backend.ts), by the instance's core (core.ts).
 */
import type { DType } from '../dtypes.js';
import type { Backend, BackendName, MemoryStats } from '../backend/backend.js';
import { type OpName, supportedDtypes } from '../check/opsets.js';
import { prepareUnary, prepareVariadic } from '../check/prepare.js';
import type { WasmTensor } from '../core/tensor.js';
import type { Result } from '../core/types.js';
import { OpsCore } from './core.js';
import { type OpMethods, defineOpMethods } from './methods.js';

/** An instance of the library: the ops, tensors in its memory, and its memory's figures. Made by createOps(). */
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
  /**
   * Why createOps() chose a backend slower than 'wasm-simd' (no SIMD128, no
   * WebAssembly, a host or Content-Security-Policy that forbids compiling it
   * from bytes, nothing to inflate the built-in wasm with) and what would
   * lift it; undefined on 'wasm-simd' and on a backend you forced.
   */
  readonly fallbackReason: string | undefined;

  /** @internal — use createOps(). */
  constructor(impl: Backend, fallbackReason?: string) {
    // Not shown by console.log:
    Object.defineProperty(this, 'impl', { value: impl });
    this.#core = new OpsCore(impl);
    this.simd = impl.name === 'wasm-simd';
    this.backend = impl.name;
    this.fallbackReason = fallbackReason;
  }

  /**
   * @internal One call of a variadic op, the body of its method (methods.ts):
   * prepare the call in the op's record, then run it on the backend.
   */
  runVariadic(op: OpName, inputs: unknown, options: unknown): Result | WasmTensor {
    const c = this.#core;
    const p = c.take(c.calls[op]);
    try {
      return this.impl.run(prepareVariadic(p, inputs, options));
    } finally {
      c.done(p);
    }
  }

  /** @internal One call of a unary op, as runVariadic; `count` how many arguments the call had. */
  runUnary(op: OpName, input: unknown, options: unknown, count: number): Result | WasmTensor {
    const c = this.#core;
    const p = c.take(c.calls[op]);
    try {
      return this.impl.run(prepareUnary(p, input, options, count));
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

// The op methods (methods.ts): `max`, `relu`, one per row of the spec table.
export interface Ops extends OpMethods {}

defineOpMethods(Ops.prototype);
