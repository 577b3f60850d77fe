/**
 * The backend seam: what runs a checked call and holds the memory of the
 * tensors of one Ops instance. Ops (api/ops.ts) and WasmTensor talk to their
 * backend through this interface only (WasmTensor through its TensorHost
 * part, core/tensor.ts). Three implement it: WasmBackend (backend/wasm/, the
 * module's kernels in wasm memory, with or without SIMD128), JsBackend
 * (backend/js/, kernels in JavaScript) and the worker form's RemoteBackend
 * (worker/), a proxy to a worker; docs/DESIGN.md says what each must do.
 */
import type { DTypeInfo, TypedArray } from '../dtypes.js';
import type { InputRef } from '../errors.js';
import type { TensorHost, WasmTensor } from '../core/tensor.js';
import type { AbortSignalLike, Result } from '../core/types.js';
import type { Call } from '../core/call.js';

/** What ops.memoryStats() returns. */
export interface MemoryStats {
  /** Bytes of the backend's heap in use (the module's malloc count). */
  heapInUse: number;
  /** Tensors and temporary blocks this instance holds, and their bytes. */
  liveAllocations: number;
  liveBytes: number;
  /** Bytes of the backend's memory as a whole. */
  memoryBytes: number;
}

/** The backends createOps() chooses from (ops.backend). */
export type BackendName = 'wasm-simd' | 'wasm' | 'js';

/**
 * A backend's answer: given at once, or, from the worker form's backend
 * (`Async` true), a Promise of it.
 */
export type Answer<T, Async extends boolean> = Async extends true ? Promise<T> : T;

/** What a run takes besides the call: the worker form's `transfer` (other backends take none). */
export interface RunOptions {
  /** Move the plain inputs' buffers to the worker instead of copying them. */
  readonly transfer?: boolean;
  /** The worker form's cancellation: a call not yet sent to the worker is withdrawn when it aborts. */
  readonly signal?: AbortSignalLike;
}

/** A backend: `Async` true when its answers are Promises (the worker form's RemoteBackend). */
export interface Backend<Async extends boolean = false> extends TensorHost {
  /** Which one it is (ops.backend; ops.simd is whether it is 'wasm-simd'). */
  readonly name: BackendName;
  /**
   * Runs a checked call (check/prepare.ts filled it; the backend only reads
   * it): the result is `call.outTensor`, a new WasmTensor of this backend
   * when `call.tensorResult`, else a plain result (into `call.outArray` when
   * given). Kernel errors are OnnxOpsErrors naming `call.op`; temporary
   * memory is freed on every path.
   */
  run(call: Call, options?: RunOptions): Answer<Result | WasmTensor, Async>;
  /**
   * Storage for a tensor of `bytes`, its contents undefined: an address,
   * which names it to the other methods; TOO_LARGE or OUT_OF_MEMORY naming
   * `op` and `input` when there is no room.
   */
  alloc(bytes: number, op: string, input?: InputRef): number;
  /** Copies `data` (the dtype's storage array) into the storage at `address`. */
  write(address: number, info: DTypeInfo, data: TypedArray): void;
  /** Zero-fills `bytes` of the storage at `address`. */
  zero(address: number, bytes: number): void;
  memoryStats(): Answer<MemoryStats, Async>;
  /** Frees what it keeps between calls (ops.trimMemory()); later calls make it again. */
  trim(): Answer<void, Async>;
}
