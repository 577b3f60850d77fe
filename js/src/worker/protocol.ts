/**
 * The worker form's messages: what the page (worker/client.ts) asks of the
 * worker (worker/host.ts) and what it answers. One port, processed in order:
 * every request that wants an answer has an `id`, and answers come back in
 * the order of the requests. Tensors that live in the worker are named by
 * handles the page gives out (positive integers).
 */
import type { DType, TypedArray } from '../dtypes.js';
import type { ErrorCode, InputRef } from '../errors.js';
import type { MemoryStats, BackendName } from '../backend/backend.js';
import type { OpName } from '../core/spec.js';

/** createOps()'s options as the worker's own createOps() takes them (no `worker`). */
export interface WorkerInit {
  t: 'init';
  options: Record<string, unknown>;
}

/** A plain input's data, copied or moved to the worker; or a worker tensor's handle. */
export type WireInput = number | { dtype: DType; shape: number[]; data: TypedArray };

export type Request =
  | WorkerInit
  /** An op: `out` a handle, or none; `result` the handle for a new tensor result. */
  | { t: 'call'; id: number; op: OpName; opset: number | undefined; inputs: WireInput[]; out: number; result: number }
  | { t: 'tensor'; id: number; h: number; dtype: DType; shape: number[]; data: TypedArray | undefined }
  | { t: 'read'; id: number; h: number }
  | { t: 'stats'; id: number }
  | { t: 'trim'; id: number }
  /** A tensor's dispose(): no answer. */
  | { t: 'free'; h: number };

/** An error, as OnnxOpsError's fields (or another error's name and message). */
export interface WireError {
  code: ErrorCode | undefined;
  op: string;
  input: InputRef;
  name: string;
  message: string;
}

export type Reply =
  | { t: 'ready'; backend: BackendName }
  | { t: 'failed'; error: WireError }
  | { t: 'done'; id: number; value: { dtype: DType; shape: number[]; data: TypedArray } | MemoryStats | undefined }
  | { t: 'error'; id: number; error: WireError };
