/**
 * The worker form's page side: createOps({ worker: true }) resolves to a
 * WorkerOps, whose ops check their arguments here, exactly as the sync API
 * does (the instance's core, api/core.ts, prepares each call over a
 * RemoteBackend, remote.ts), and run them in a worker (worker/host.ts) that
 * holds the instance. A file of its own, loaded only by the worker form: the
 * library's classes come from the main file (lent.ts), so that errors and
 * tensors are the ones users import. Its parts: link.ts (transport and
 * start-up), remote.ts (calls in wire form), queue.ts (replies, in order).
 */
import type { DType } from '../dtypes.js';
import type { WasmTensor } from '../core/tensor.js';
import type { OpsCore } from '../api/core.js';
import type { OpName } from '../core/spec.js';
import type { AbortSignalLike, Result, TransferOption } from '../core/types.js';
import { type WorkerOpMethods, defineOpMethods } from '../api/methods.js';
import type { BackendName, MemoryStats, RunOptions } from '../backend/backend.js';
import type { CreateOpsOptions } from '../options.js';
import type { Lent } from '../lent.js';
import { ASYNC_DISPOSE } from '../core/dispose.js';
import { start } from './link.js';
import { Requests } from './queue.js';
import { RemoteBackend } from './remote.js';

/**
 * @internal Starts the worker, waits until its instance is made (the worker
 * runs createOps(options)), and returns the ops over it. `startWebWorker`:
 * see worker/start.ts.
 */
export async function createWorkerOps(lent: Lent, startWebWorker: () => Worker, options: Omit<CreateOpsOptions, 'worker'>): Promise<WorkerOps> {
  const first = await start(lent.OnnxOpsError, startWebWorker, options);
  const remote = new RemoteBackend(first.backend, lent);
  // After a death, the next call starts a worker as this one, with the same options (queue.ts).
  const restart = () => start(lent.OnnxOpsError, startWebWorker, options).then((s) => s.link);
  const requests = new Requests(first.link, lent.OnnxOpsError, restart, (why) => remote.lost(why));
  remote.requests = requests;
  return new WorkerOps(lent, requests, remote, first.reason);
}

const TRANSFER: RunOptions = { transfer: true };

/**
 * The operators of createOps({ worker: true }): the sync API's methods and
 * arguments, the ops and what touches the worker's memory returning
 * Promises. Calls are checked here when made (a bad call rejects with the
 * sync API's OnnxOpsError), run in the worker in the order they were made,
 * and resolve in that order. Tensors from ops.tensor() live in the worker.
 * If the worker dies, the calls in flight reject WORKER_DIED and the next
 * call starts a new one (queue.ts).
 */
export class WorkerOps {
  /** Which kernels run the ops in the worker: 'wasm-simd', 'wasm' or 'js' (see createOps()). */
  readonly backend: BackendName;
  /** True when the worker runs wasm SIMD128 kernels. */
  readonly simd: boolean;
  /** Why the worker's createOps() chose a backend below 'wasm-simd', as Ops.fallbackReason; undefined on 'wasm-simd' and on a forced backend. */
  readonly fallbackReason: string | undefined;
  /** Always true: this is the worker form. */
  readonly worker = true;
  readonly #lent: Lent;
  readonly #requests: Requests;
  readonly #remote: RemoteBackend;
  /** The call path over the remote backend: it checks and prepares every call, as the sync API's. */
  readonly #core: OpsCore<true>;

  /** @internal — use createOps({ worker: true }). */
  constructor(lent: Lent, requests: Requests, remote: RemoteBackend, fallbackReason?: string) {
    this.#lent = lent;
    this.#requests = requests;
    this.#remote = remote;
    this.#core = new lent.OpsCore(remote);
    this.backend = remote.name;
    this.simd = remote.name === 'wasm-simd';
    this.fallbackReason = fallbackReason;
  }

  /**
   * A tensor in the worker's memory, zero-filled or holding a copy of `data`:
   * pass it to this instance's ops (and as `out`) to chain calls with no copy
   * between page and worker; `await ops.read(t)` copies its data out;
   * dispose() frees it. Its `.data` and toPlain() are errors (its data is not here).
   */
  tensor(dtype: DType | string | number, shape: readonly number[], data?: ArrayBufferView): Promise<WasmTensor> {
    return this.#checked('tensor', () => this.#remote.made(this.#core.tensor(dtype, shape, data)));
  }

  /** A plain copy of a tensor of this instance: `{ dtype, shape, data }` with a fresh typed array. */
  read(tensor: WasmTensor): Promise<Result> {
    return this.#checked('read', () => {
      const { WasmTensor, OnnxOpsError, checkOwnTensor } = this.#lent;
      if (!(tensor instanceof WasmTensor)) throw new OnnxOpsError('INVALID_ARGUMENT', 'read', 0, 'expects a tensor from ops.tensor() or an op');
      checkOwnTensor({ op: 'read', owner: this.#remote }, tensor, 0); // the sync API's rule: a live tensor of this instance
      this.#remote.checkHeld(tensor, 'read', 0);
      return this.#requests.send({ t: 'read', id: 0, h: tensor.address }, [], 'read');
    });
  }

  /** The dtypes an op accepts at an opset (default: the newest). */
  supportedDtypes(op: OpName, opset?: number): DType[] {
    return this.#lent.supportedDtypes(op, opset);
  }

  /** The worker instance's memoryStats(). */
  memoryStats(): Promise<MemoryStats> {
    return this.#remote.memoryStats();
  }

  /** The worker instance's trimMemory(). */
  trimMemory(): Promise<void> {
    return this.#remote.trim();
  }

  /**
   * Ends the worker once the calls already made are done (they complete);
   * later calls reject with DISPOSED, and its tensors are gone. Idempotent.
   * A Node process then exits by itself.
   */
  close(): Promise<void> {
    return this.#requests.close();
  }

  /** close(), for `await using ops = await createOps({ worker: true })`. */
  [ASYNC_DISPOSE](): Promise<void> {
    return this.close();
  }

  /** @internal One call of a variadic op, its method's body (api/methods.ts): see #run. */
  runVariadic(op: OpName, inputs: unknown, options: unknown): Promise<Result | WasmTensor> {
    return this.#run(op, inputs, options, 2);
  }

  /** @internal One call of a unary op, its method's body: see #run. */
  runUnary(op: OpName, input: unknown, options: unknown, count: number): Promise<Result | WasmTensor> {
    return this.#run(op, input, options, count);
  }

  /**
   * One op call: `a` its input or list of inputs by its arity (core/spec.ts),
   * `count` how many arguments it had. Checked and prepared here, as the sync
   * API's (an error rejects in turn), then sent.
   */
  #run(op: OpName, a: unknown, options: unknown, count: number): Promise<Result | WasmTensor> {
    return this.#checked(op, () => {
      const { OnnxOpsError, prepareCall } = this.#lent;
      const given = options !== null && typeof options === 'object' ? (options as TransferOption) : undefined;
      const t = given?.transfer;
      if (t !== undefined && typeof t !== 'boolean') throw new OnnxOpsError('INVALID_ARGUMENT', op, undefined, `transfer must be a boolean, got ${typeof t}`);
      const signal = given?.signal;
      if (signal !== undefined) {
        if (!isSignal(signal)) throw new OnnxOpsError('INVALID_ARGUMENT', op, undefined, 'signal must be an AbortSignal');
        if (signal.aborted) return Promise.reject(signal.reason); // as fetch(): before anything is read or moved
      }
      const core = this.#core;
      const p = core.take(core.calls[op]);
      try {
        return core.impl.run(prepareCall(p, a, options, count), signal ? { transfer: t, signal } : t ? TRANSFER : undefined);
      } finally {
        core.done(p);
      }
    });
  }

  /** A request that `send` makes once its checks pass: refused after close(); a failed check rejects in its turn. */
  #checked<T>(op: string, send: () => Promise<T>): Promise<T> {
    const requests = this.#requests;
    try {
      return requests.refuse(op) ?? send();
    } catch (e) {
      return requests.inTurn(e);
    }
  }
}

/** An AbortSignal, of this realm or another: what the queue uses of one. */
function isSignal(x: unknown): x is AbortSignalLike {
  return typeof x === 'object' && x !== null && typeof (x as AbortSignalLike).aborted === 'boolean' && typeof (x as AbortSignalLike).addEventListener === 'function';
}

// The op methods (api/methods.ts): `max`, `relu`, one per row of the spec table, each a Promise.
export interface WorkerOps extends WorkerOpMethods {}

defineOpMethods(WorkerOps.prototype);
