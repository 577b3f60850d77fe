/**
 * The worker form's messages: what the page (worker/client.ts) asks of the
 * worker (worker/host.ts) and what it answers. One port, processed in order:
 * every request that wants an answer has an `id`, and answers come back in
 * the order of the requests. Tensors that live in the worker are named by
 * handles the page gives out (positive integers). Errors travel as their
 * fields (toWire, fromWire).
 */
import type { DType, TypedArray } from '../dtypes.js';
import type { ErrorCode, InputRef, OnnxOpsError } from '../errors.js';
import type { MemoryStats, BackendName } from '../backend/backend.js';
import type { OpName } from '../core/spec.js';
import type { Result } from '../core/types.js';
import type { CreateOpsOptions } from '../options.js';

/**
 * createOps()'s options as the worker's own createOps() takes them (no
 * `worker`), and how a browser's page learns of the worker's death (link.ts):
 * `lock`, a Web Lock the worker takes and holds until it ends; `beat`, the
 * milliseconds between the beats of a heartbeat, where it cannot take the lock.
 */
export interface WorkerInit {
  t: 'init';
  options: Omit<CreateOpsOptions, 'worker'>;
  lock?: string;
  beat?: number;
  /** The shared-memory channel's buffer (worker/shared.ts), where the page uses one. */
  channel?: SharedArrayBuffer;
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

/** The requests that want an answer. */
export type Asking = Exclude<Request, { t: 'init' | 'free' }>;

/** What each request's answer ('done' value) is: an op's is undefined when its result is a tensor. */
export interface Answers {
  call: Result | undefined;
  tensor: undefined;
  read: Result;
  stats: MemoryStats;
  trim: undefined;
}

/** An error, as OnnxOpsError's fields (or another error's name and message). */
export interface WireError {
  code: ErrorCode | undefined;
  op: string;
  input: InputRef;
  name: string;
  message: string;
}

/** An error as the worker sends it: `op` names the request where `e` is no OnnxOpsError (of the class `OnnxOpsErrorClass`). */
export function toWire(e: unknown, op: string, OnnxOpsErrorClass: typeof OnnxOpsError): WireError {
  return e instanceof OnnxOpsErrorClass
    ? { code: e.code, op: e.op, input: e.input, name: e.name, message: e.message }
    : { code: undefined, op, input: undefined, name: (e as Error)?.name ?? 'Error', message: (e as Error)?.message ?? String(e) };
}

/** An OnnxOpsError (of the class `OnnxOpsErrorClass`) or Error from its fields sent by the worker, with the worker's message. */
export function fromWire(w: WireError, OnnxOpsErrorClass: typeof OnnxOpsError): Error {
  const e = w.code === undefined ? new Error('') : new OnnxOpsErrorClass(w.code, w.op, w.input, '');
  if (w.code === undefined) e.name = w.name;
  e.message = w.message;
  return e;
}

export type Reply =
  /** `locked`: the worker holds the init's Web Lock (else it beats, if asked to); `reason`: its instance's fallbackReason. */
  | { t: 'ready'; backend: BackendName; locked: boolean; reason?: string }
  | { t: 'beat' }
  | { t: 'failed'; error: WireError }
  | { t: 'done'; id: number; value: Answers[Asking['t']] }
  | { t: 'error'; id: number; error: WireError };

/** A message port to the worker (link.ts makes one; shared.ts wraps one): here, where both import it without a circle. */
export interface Link {
  post(message: Request, transfer: Transferable[]): void;
  /**
   * Calls `message` with each reply and `failure` once if the worker dies,
   * saying why (an exit code, an error, a released Web Lock): called once.
   */
  listen(message: (reply: Reply) => void, failure: (why: string) => void): void;
  terminate(): Promise<unknown> | void;
  /** Whether the worker keeps a Node process alive (while calls are in flight). */
  hold(on: boolean): void;
  /** What the init request carries for the link to watch the worker's life (a browser's Web Lock or heartbeat). */
  readonly watch?: Pick<WorkerInit, 'lock' | 'beat'>;
}
