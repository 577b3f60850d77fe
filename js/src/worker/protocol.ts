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

/**
 * Arrays up to this many bytes cross by copy (postMessage's clone), larger
 * ones are moved (transfer): moving costs a fixed price in allocations that
 * only a copy of more than a few KiB outweighs (docs/PERFORMANCE.md).
 */
export const CLONE_MAX = 4096;

/** The transfer list for a typed array that crosses the channel: its buffer if it is large enough to be moved. */
export const moveIfLarge = (data: ArrayBufferView | undefined): Transferable[] =>
  data && data.byteLength > CLONE_MAX ? [data.buffer as ArrayBuffer] : [];

/**
 * A request or reply as it crosses the channel: a flat list of numbers,
 * strings and typed arrays, because engines clone such a list in a fraction of
 * the time a nested object with named fields takes, and the shared ring
 * (shared.ts) writes it as bytes. Init, ready, failed and beat cross as the
 * objects they are (once per worker, or on postMessage only).
 */
export type Flat = (number | string | undefined | ArrayBufferView)[];

// A flat message's first item: its kind.
const CALL = 1, TENSOR = 2, READ = 3, STATS = 4, TRIM = 5, FREE = 6, DONE = 7, RESULT = 8, VALUE = 9, ERROR = 10;

/** A tensor's dtype, shape and data (undefined: none) appended to `f`. */
function pushTensor(f: Flat, dtype: DType, shape: readonly number[], data: TypedArray | undefined): void {
  f.push(dtype, shape.length);
  for (const d of shape) f.push(d);
  f.push(data);
}

/** `m` as the channel carries it: a Flat, or `m` itself for the kinds that cross as objects. */
export function toFlat(m: Request | Reply): Flat | Request | Reply {
  switch (m.t) {
    case 'call': {
      const f: Flat = [CALL, m.id, m.op, m.opset, m.out, m.result, m.inputs.length];
      // A worker tensor's handle (positive), or 0 and a plain input's dtype, shape and data.
      for (const w of m.inputs) {
        if (typeof w === 'number') f.push(w);
        else {
          f.push(0);
          pushTensor(f, w.dtype, w.shape, w.data);
        }
      }
      return f;
    }
    case 'tensor': {
      const f: Flat = [TENSOR, m.id, m.h];
      pushTensor(f, m.dtype, m.shape, m.data);
      return f;
    }
    case 'read': return [READ, m.id, m.h];
    case 'stats': return [STATS, m.id];
    case 'trim': return [TRIM, m.id];
    case 'free': return [FREE, m.h];
    case 'done': {
      const v = m.value;
      if (v === undefined) return [DONE, m.id];
      if ('data' in v) {
        const f: Flat = [RESULT, m.id];
        pushTensor(f, v.dtype, v.shape, v.data);
        return f;
      }
      return [VALUE, m.id, JSON.stringify(v)];
    }
    case 'error': return [ERROR, m.id, JSON.stringify(m.error)];
    default: return m;
  }
}

/** A message from what the channel carried: toFlat()'s inverse. */
export function fromFlat(x: Flat | Request | Reply): Request | Reply {
  if (!Array.isArray(x)) return x;
  let i = 0;
  const next = () => x[i++] as number;
  const tensor = () => {
    const dtype = x[i++] as DType, rank = next(), shape: number[] = [];
    for (let k = 0; k < rank; k++) shape.push(next());
    return { dtype, shape, data: x[i++] as TypedArray | undefined };
  };
  const kind = next();
  switch (kind) {
    case CALL: {
      const id = next(), op = x[i++] as OpName, opset = x[i++] as number | undefined, out = next(), result = next(), n = next();
      const inputs: WireInput[] = [];
      for (let k = 0; k < n; k++) {
        const h = next();
        inputs.push(h ? h : tensor() as Exclude<WireInput, number>);
      }
      return { t: 'call', id, op, opset, inputs, out, result };
    }
    case TENSOR: {
      const id = next(), h = next();
      return { t: 'tensor', id, h, ...tensor() };
    }
    case READ: return { t: 'read', id: next(), h: next() };
    case STATS: return { t: 'stats', id: next() };
    case TRIM: return { t: 'trim', id: next() };
    case FREE: return { t: 'free', h: next() };
    case DONE: return { t: 'done', id: next(), value: undefined };
    case RESULT: {
      const id = next();
      return { t: 'done', id, value: tensor() as Result };
    }
    case VALUE: {
      const id = next();
      return { t: 'done', id, value: JSON.parse(x[i] as string) as MemoryStats };
    }
    case ERROR: {
      const id = next();
      return { t: 'error', id, error: JSON.parse(x[i] as string) as WireError };
    }
  }
  throw new Error(`onnx-ops-wasm worker: a message of unknown kind ${kind}`);
}

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
