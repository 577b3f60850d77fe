/**
 * The backend seam: what runs a checked call and holds the memory of the
 * tensors of one Ops instance. Ops (api/ops.ts) and WasmTensor talk to their
 * backend through this interface only; today's one is WasmBackend
 * (backend/wasm/), the module's kernels in wasm memory. Another (the same
 * kernels built without SIMD128, kernels in JavaScript, a proxy to a worker)
 * implements the same methods; docs/DESIGN.md says what each must do.
 */
import type { DTypeInfo, TypedArray } from '../dtypes.js';
import type { InputRef } from '../errors.js';
import type { WasmTensor } from '../api/tensor.js';
import type { Result } from '../api/types.js';
import type { Call } from '../call.js';

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

export interface Backend {
  /** Which one it is (ops.backend; ops.simd is whether it is 'wasm-simd'). */
  readonly name: BackendName;
  /**
   * The ArrayBuffer that views of its tensors' data (WasmTensor.data) lie in,
   * if a call may detach them (wasm memory grows): plain inputs viewing it
   * are copied before the call, and a typed-array `out` may not be one of
   * them. Undefined when there is none.
   */
  readonly memoryBuffer: ArrayBufferLike | undefined;
  /** True for the worker form's page side (worker/client.ts): its tensors live in a worker. */
  readonly remote?: boolean;
  /**
   * Runs a checked call (check/prepare.ts filled it; the backend only reads
   * it): the result is `call.outTensor`, a new WasmTensor of this backend
   * when `call.tensorResult`, else a plain result (into `call.outArray` when
   * given). Kernel errors are OnnxOpsErrors naming `call.op`; temporary
   * memory is freed on every path.
   */
  run(call: Call): Result | WasmTensor;
  /**
   * Storage for a tensor of `bytes`, its contents undefined: an address,
   * which names it to the other methods; TOO_LARGE or OUT_OF_MEMORY naming
   * `op` and `input` when there is no room.
   */
  alloc(bytes: number, op: string, input?: InputRef): number;
  /** Frees a tensor's storage (a tensor's dispose()); an address it did not give is ignored. */
  free(address: number): void;
  /** Copies `data` (the dtype's storage array) into the storage at `address`. */
  write(address: number, info: DTypeInfo, data: TypedArray): void;
  /** Zero-fills `bytes` of the storage at `address`. */
  zero(address: number, bytes: number): void;
  /** A live view of `length` elements of the storage at `address` (WasmTensor.data: writes change the tensor). */
  view(info: DTypeInfo, address: number, length: number): TypedArray;
  /** A fresh, caller-owned copy of `length` elements at `address` (WasmTensor.toPlain). */
  read(info: DTypeInfo, address: number, length: number): TypedArray;
  memoryStats(): MemoryStats;
  /** Frees what it keeps between calls (ops.trimMemory()); later calls make it again. */
  trim(): void;
}
