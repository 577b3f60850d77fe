/**
 * The worker form's page side: createOps({ worker: true }) resolves to a
 * WorkerOps, whose ops check their arguments here, exactly as the sync API
 * does (an Ops over a RemoteBackend prepares each call), and run them in a
 * worker (worker/host.ts) that holds the instance. A file of its own, loaded
 * only by the worker form; the library's classes come from the main file
 * (WorkerCore), so that errors and tensors are the ones users import.
 */
import type { DTypeInfo, TypedArray, DType, copyInto as CopyInto, bufferOf as BufferOf, byteOffsetOf as ByteOffsetOf } from '../dtypes.js';
import type { OnnxOpsError as OnnxOpsErrorClass } from '../errors.js';
import type { WasmTensor } from '../core/tensor.js';
import type { Ops } from '../api/ops.js';
import type { OpName } from '../core/call.js';
import type { OpOptions, PlainTensorLike, Result, TensorLike } from '../core/types.js';
import type { Backend, BackendName, MemoryStats } from '../backend/backend.js';
import type { Call, CheckedInput } from '../core/call.js';
import type { checkOwnTensor as CheckOwnTensor } from '../check/input.js';
import type { Reply, Request, WireError, WireInput, WorkerInit } from './protocol.js';
import { nodeWorkerFile, workerThreads } from './node.js';

/** @internal What the worker form takes from the main file (index.ts hands it in). */
export interface WorkerCore {
  Ops: typeof Ops;
  WasmTensor: typeof WasmTensor;
  OnnxOpsError: typeof OnnxOpsErrorClass;
  copyInto: typeof CopyInto;
  bufferOf: typeof BufferOf;
  byteOffsetOf: typeof ByteOffsetOf;
  checkOwnTensor: typeof CheckOwnTensor;
  /** Starts the worker in a browser: `new Worker(new URL(<worker file>, import.meta.url), { type: 'module' })` in the main file, where bundlers see it. */
  startWebWorker: () => Worker;
}

/** The worker form's own option beside createOps()'s: moving inputs' buffers instead of copying them. */
export interface TransferOption {
  /**
   * Moves the plain inputs' ArrayBuffers to the worker instead of copying
   * them (default false): the caller's arrays are then detached (length 0).
   * Buffers that cannot move (SharedArrayBuffer, or the buffer of `out`) are copied.
   */
  transfer?: boolean;
}

/** A message port to the worker, whatever the runtime's kind of worker. */
interface Link {
  post(message: Request, transfer: Transferable[]): void;
  /** Calls `message` with each reply and `failure` once if the worker dies. */
  listen(message: (reply: Reply) => void, failure: (why: string) => void): void;
  terminate(): Promise<unknown> | void;
  /** Whether the worker keeps a Node process alive (while calls are in flight). */
  hold(on: boolean): void;
}

type Pending = { resolve: (value: unknown) => void; reject: (e: unknown) => void };
const WORKER_FILE = 'onnx-ops-wasm-worker.js';

/** @internal Starts the worker, waits until its instance is made, and returns the ops over it. */
export async function createWorkerOps(core: WorkerCore, options: Record<string, unknown>): Promise<WorkerOps> {
  const failed = (why: string) => new core.OnnxOpsError('UNSUPPORTED_ENGINE', 'createOps', undefined,
    `could not start the worker from ${WORKER_FILE}: ${why}`);
  let link: Link;
  try {
    link = await connect(core);
  } catch (e) {
    throw failed((e as Error)?.message ?? String(e));
  }
  const ready = await new Promise<Reply | string>((resolve) => {
    link.listen(resolve, resolve);
    link.hold(true);
    link.post({ t: 'init', options }, []);
  });
  if (typeof ready === 'string' || ready.t !== 'ready') {
    await link.terminate();
    // The worker's createOps() failed as the sync one would (its error), or the worker did not start.
    throw typeof ready === 'string' ? failed(ready) : ready.t === 'failed' ? fromWire(core, ready.error) : failed('no answer');
  }
  return new WorkerOps(core, link, ready.backend);
}

/** An OnnxOpsError (or Error) from its fields sent by the worker, with the worker's message. */
function fromWire(core: WorkerCore, w: WireError): Error {
  const e = w.code === undefined ? new Error('') : new core.OnnxOpsError(w.code, w.op, w.input, '');
  if (w.code === undefined) e.name = w.name;
  e.message = w.message;
  return e;
}

/** The worker: Node's worker_threads (and Deno's and Bun's) in server runtimes, a module Worker in browsers. */
async function connect(core: WorkerCore): Promise<Link> {
  const wt = workerThreads();
  if (!wt) return webLink(core.startWebWorker());
  const worker = new wt.Worker(nodeWorkerFile(WORKER_FILE), { name: 'onnx-ops-wasm' });
  return {
    post: (m, t) => worker.postMessage(m, t),
    listen(message, failure) {
      worker.on('message', message);
      worker.on('error', (e: Error) => failure(`the worker failed: ${e?.message ?? String(e)}`));
      worker.on('exit', (code: number) => failure(`the worker exited (code ${code})`));
    },
    terminate: () => worker.terminate(),
    hold: (on) => (on ? worker.ref() : worker.unref()),
  };
}

function webLink(worker: Worker): Link {
  return {
    post: (m, t) => worker.postMessage(m, t),
    listen(message, failure) {
      worker.onmessage = (e) => message(e.data as Reply);
      worker.onerror = (e) => {
        e.preventDefault?.();
        // A load error carries no message: most often the file is not served beside the bundle.
        failure(e.message ? `the worker failed: ${e.message}` : `the worker failed to load (is ${WORKER_FILE} served beside the code that starts it? docs/API.md says where each bundler puts it)`);
      };
      worker.onmessageerror = () => failure('a reply could not be read');
    },
    terminate: () => worker.terminate(),
    hold: () => {},
  };
}

/**
 * The backend of the worker form's page side: the Ops over it checks and
 * prepares calls as the sync API does, and its run() sends them to the
 * worker (a Promise of the result). Tensors are handles: WasmTensors whose
 * address names the tensor in the worker, whose data only ops.read() gets.
 */
class RemoteBackend implements Backend {
  readonly memoryBuffer = undefined;
  readonly remote = true;
  /** createOps({ transfer }) of the call being made. */
  transfer = false;
  /** The data ops.tensor() wrote into the tensor it made last (sent with it). */
  written: TypedArray | undefined = undefined;
  #handles = 0;
  /** The bytes of the tensor ops.tensor() made last. */
  #bytes = 0;

  constructor(readonly name: BackendName, readonly core: WorkerCore, readonly send: WorkerOps['send']) {}

  run(call: Call): never {
    const { OnnxOpsError, WasmTensor } = this.core;
    const transfer = new Set<Transferable>();
    const moved = new Map<ArrayBufferLike, ArrayBuffer | undefined>();
    const outArray = call.outArray;
    const keep = outArray ? this.core.bufferOf(outArray.data) : undefined; // an in-place input is copied, out stays
    // Where inputs lie in their buffers, read before any buffer is detached (inputs may share one).
    const offsets = call.inputs.map((c) => (this.transfer && c.data ? this.core.byteOffsetOf(c.data) : 0));
    const inputs: WireInput[] = call.inputs.map((c, i) => (c.tensor ? c.tensor.address : this.#wire(c, keep, transfer, moved, offsets[i])));
    const { info, shape, size, op } = call;
    const outTensor = call.outTensor;
    const result = call.tensorResult && !outTensor ? ++this.#handles : 0;
    const request: Request = { t: 'call', id: 0, op, opset: call.opset, inputs, out: outTensor?.address ?? 0, result };
    const copyInto = this.core.copyInto;
    return this.send(request, [...transfer], op).then((value) => {
      if (outTensor) return outTensor;
      if (result) return new WasmTensor(this, info.name, shape, size, result);
      const r = value as Result;
      if (!outArray) return r;
      try {
        // The elements as out's own class: a float16 result that the worker made a Float16Array (float16Array: true) as its bits.
        copyInto(outArray.data, new info.array(this.core.bufferOf(r.data), this.core.byteOffsetOf(r.data), size));
      } catch {
        throw new OnnxOpsError('INVALID_ARGUMENT', op, 'out', 'out\'s buffer was detached or shrunk before the result arrived');
      }
      return { dtype: r.dtype, shape: r.shape, data: outArray.given };
    }) as never;
  }

  /**
   * A plain input for the worker: its buffer moved (transfer: true, where it
   * can move) or its elements copied. `moved`: the call's buffers moved so
   * far, each moved once; `offset`: the input's byte offset in its buffer.
   */
  #wire(c: CheckedInput, keep: ArrayBufferLike | undefined, transfer: Set<Transferable>, moved: Map<ArrayBufferLike, ArrayBuffer | undefined>, offset: number): WireInput {
    const { info, shape, size } = c;
    let data = c.data!;
    const buffer = c.buffer!;
    if (this.transfer && buffer !== keep && Object.prototype.toString.call(buffer) === '[object ArrayBuffer]' && !moved.has(buffer)) {
      moved.set(buffer, detachInto(buffer as ArrayBuffer));
    }
    const into = moved.get(buffer);
    if (into) {
      data = new info.array(into, offset, size);
      transfer.add(into);
    } else {
      const copy = new info.array(size);
      this.core.copyInto(copy, data);
      transfer.add(copy.buffer as ArrayBuffer);
      data = copy;
    }
    return { dtype: info.name, shape: [...shape], data };
  }

  alloc(bytes: number): number {
    this.written = undefined;
    this.#bytes = bytes;
    return ++this.#handles;
  }

  write(_address: number, info: DTypeInfo, data: TypedArray): void {
    const copy = new info.array(this.#bytes / info.bytes); // the checked size (data is read only through its internal slots)
    this.core.copyInto(copy, data);
    this.written = copy;
  }

  zero(): void {}

  free(address: number): void {
    this.send({ t: 'free', h: address }, [], 'tensor').catch(() => {}); // nothing to report: after close(), the worker's memory went with it
  }

  view(): never {
    return this.#inWorker();
  }

  read(): never {
    return this.#inWorker();
  }

  #inWorker(): never {
    throw new this.core.OnnxOpsError('INVALID_ARGUMENT', 'tensor', undefined,
      'a tensor of the worker form lives in the worker: `await ops.read(tensor)` copies its data out');
  }

  memoryStats(): never {
    return this.send({ t: 'stats', id: 0 }, [], 'memoryStats') as never;
  }

  trim(): never {
    return this.send({ t: 'trim', id: 0 }, [], 'trimMemory') as never;
  }
}

/**
 * The buffer's contents in a new ArrayBuffer, the buffer detached (no copy),
 * or undefined where it cannot be detached: a WebAssembly.Memory's buffer,
 * whose transfer would make postMessage throw.
 */
function detachInto(buffer: ArrayBuffer): ArrayBuffer | undefined {
  try {
    return structuredClone(buffer, { transfer: [buffer] });
  } catch {
    return undefined;
  }
}

declare global {
  // What TypeScript's esnext.disposable library declares, so that the declarations need no such lib.
  interface SymbolConstructor {
    readonly asyncDispose: unique symbol;
  }
}

// Where the runtime lacks Symbol.asyncDispose, the key esbuild's and Babel's `await using` helpers then look up.
const ASYNC_DISPOSE: typeof Symbol.asyncDispose = (Symbol.asyncDispose ?? Symbol.for('Symbol.asyncDispose')) as typeof Symbol.asyncDispose;

/**
 * The operators of createOps({ worker: true }): the sync API's methods and
 * arguments, the ops and what touches the worker's memory returning
 * Promises. Calls are checked here when made (a bad call rejects with the
 * sync API's OnnxOpsError), run in the worker in the order they were made,
 * and resolve in that order. Tensors from ops.tensor() live in the worker.
 */
export class WorkerOps {
  /** Which kernels run the ops in the worker: 'wasm-simd', 'wasm' or 'js' (see createOps()). */
  readonly backend: BackendName;
  /** True when the worker runs wasm SIMD128 kernels. */
  readonly simd: boolean;
  /** Always true: this is the worker form. */
  readonly worker = true;
  readonly #core: WorkerCore;
  readonly #link: Link;
  readonly #remote: RemoteBackend;
  /** The sync API over the remote backend: it checks and prepares every call. */
  readonly #ops: Ops;
  readonly #pending = new Map<number, Pending>();
  #ids = 0;
  #closed: Promise<void> | undefined;
  #last: Promise<unknown> = Promise.resolve();

  /** @internal — use createOps({ worker: true }). */
  constructor(core: WorkerCore, link: Link, backend: BackendName) {
    this.#core = core;
    this.#link = link;
    this.backend = backend;
    this.simd = backend === 'wasm-simd';
    this.#remote = new RemoteBackend(backend, core, (request, transfer, op) => this.send(request, transfer, op));
    this.#ops = new core.Ops(this.#remote);
    link.listen((reply) => this.#reply(reply), (why) => this.#died(why));
    link.hold(false);
  }

  /** ONNX Max, as the sync API's ops.max(), in the worker: a Promise of its result. */
  max(inputs: readonly PlainTensorLike[], options?: OpOptions & TransferOption & { out?: ArrayBufferView }): Promise<Result>;
  max(inputs: readonly TensorLike[], options: OpOptions & TransferOption & { out: WasmTensor }): Promise<WasmTensor>;
  max(inputs: readonly TensorLike[], options?: OpOptions & TransferOption): Promise<Result | WasmTensor>;
  max(inputs: readonly TensorLike[], options?: OpOptions & TransferOption): Promise<Result | WasmTensor> {
    return this.#op('Max', options, () => this.#ops.max(inputs, options));
  }

  /** ONNX Relu, as the sync API's ops.relu(), in the worker: a Promise of its result. */
  relu(input: PlainTensorLike, options?: OpOptions & TransferOption & { out?: ArrayBufferView }): Promise<Result>;
  relu(input: WasmTensor, options?: OpOptions & TransferOption): Promise<WasmTensor>;
  relu(input: TensorLike, options: OpOptions & TransferOption & { out: WasmTensor }): Promise<WasmTensor>;
  relu(input: TensorLike, options?: OpOptions & TransferOption): Promise<Result | WasmTensor>;
  relu(...args: [TensorLike, (OpOptions & TransferOption)?]): Promise<Result | WasmTensor> {
    return this.#op('Relu', args[1], () => (this.#ops.relu as (...a: unknown[]) => Result)(...args));
  }

  /**
   * A tensor in the worker's memory, zero-filled or holding a copy of `data`:
   * pass it to this instance's ops (and as `out`) to chain calls with no copy
   * between page and worker; `await ops.read(t)` copies its data out;
   * dispose() frees it. Its `.data` and toPlain() are errors (its data is not here).
   */
  tensor(dtype: DType | string | number, shape: readonly number[], data?: ArrayBufferView): Promise<WasmTensor> {
    const closed = this.#refuse('tensor');
    if (closed) return closed;
    let t: WasmTensor;
    try {
      t = this.#ops.tensor(dtype, shape, data);
    } catch (e) {
      return this.#inTurn(e);
    }
    const written = this.#remote.written;
    const request: Request = { t: 'tensor', id: 0, h: t.address, dtype: t.dtype, shape: [...t.shape], data: written };
    return this.send(request, written ? [written.buffer as ArrayBuffer] : [], 'tensor').then(() => t, (e) => {
      t.dispose();
      throw e;
    });
  }

  /** A plain copy of a tensor of this instance: `{ dtype, shape, data }` with a fresh typed array. */
  read(tensor: WasmTensor): Promise<Result> {
    const closed = this.#refuse('read');
    if (closed) return closed;
    const { WasmTensor, OnnxOpsError, checkOwnTensor } = this.#core;
    try {
      if (!(tensor instanceof WasmTensor)) throw new OnnxOpsError('INVALID_ARGUMENT', 'read', 0, 'expects a tensor from ops.tensor() or an op');
      checkOwnTensor({ op: 'read', owner: this.#remote }, tensor, 0); // the sync API's rule: a live tensor of this instance
    } catch (e) {
      return this.#inTurn(e);
    }
    return this.send({ t: 'read', id: 0, h: tensor.address }, [], 'read') as Promise<Result>;
  }

  /** The dtypes an op accepts at an opset (default: the newest). */
  supportedDtypes(op: OpName, opset?: number): DType[] {
    return this.#ops.supportedDtypes(op, opset);
  }

  /** The worker instance's memoryStats(). */
  memoryStats(): Promise<MemoryStats> {
    return this.#refuse('memoryStats') ?? (this.#ops.memoryStats() as unknown as Promise<MemoryStats>);
  }

  /** The worker instance's trimMemory(). */
  trimMemory(): Promise<void> {
    return this.#refuse('trimMemory') ?? (this.#remote.trim() as unknown as Promise<void>);
  }

  /**
   * Ends the worker once the calls already made are done (they complete);
   * later calls reject with DISPOSED, and its tensors are gone. Idempotent.
   * A Node process then exits by itself.
   */
  close(): Promise<void> {
    if (!this.#closed) {
      const last = this.#last;
      this.#closed = last.then(() => {}, () => {}).then(() => this.#link.terminate()).then(() => {});
    }
    return this.#closed;
  }

  /** close(), for `await using ops = await createOps({ worker: true })`. */
  [ASYNC_DISPOSE](): Promise<void> {
    return this.close();
  }

  /** An op: checked and prepared here (errors reject), then sent. */
  #op(op: OpName, options: unknown, prepare: () => Result | WasmTensor): Promise<Result | WasmTensor> {
    const closed = this.#refuse(op);
    if (closed) return closed;
    const remote = this.#remote;
    const outer = remote.transfer; // a getter of this call's arguments may make another
    try {
      const t = options !== null && typeof options === 'object' ? (options as TransferOption).transfer : undefined;
      if (t !== undefined && typeof t !== 'boolean') {
        throw new this.#core.OnnxOpsError('INVALID_ARGUMENT', op, undefined, `transfer must be a boolean, got ${typeof t}`);
      }
      remote.transfer = t === true;
      return prepare() as unknown as Promise<Result | WasmTensor>;
    } catch (e) {
      return this.#inTurn(e);
    } finally {
      remote.transfer = outer;
    }
  }

  /** A call's error found here, rejected in its turn: after the calls made before it settle. */
  #inTurn(e: unknown): Promise<never> {
    const fail = () => Promise.reject(e);
    const p = this.#last.then(fail, fail);
    this.#last = p;
    return p;
  }

  /** A rejection for a call after close(). */
  #refuse(op: string): Promise<never> | undefined {
    if (!this.#closed) return undefined;
    return Promise.reject(new this.#core.OnnxOpsError('DISPOSED', op, undefined, 'ops.close() ended this instance\'s worker'));
  }

  /** @internal Sends a request (numbered here, if it wants an answer) and returns the promise of its answer. */
  send(request: Exclude<Request, WorkerInit>, transfer: Transferable[], op: string): Promise<unknown> {
    const closed = this.#refuse(op);
    if (closed) return closed;
    if (request.t === 'free') {
      this.#link.post(request, []);
      return Promise.resolve();
    }
    const id = (request.id = ++this.#ids);
    const p = new Promise((resolve, reject) => this.#pending.set(id, { resolve, reject }));
    try {
      this.#link.post(request, transfer);
    } catch (e) {
      this.#pending.delete(id);
      return Promise.reject(new this.#core.OnnxOpsError('INVALID_ARGUMENT', op, undefined,
        `the call could not be sent to the worker: ${(e as Error)?.message ?? String(e)}`));
    }
    if (this.#pending.size === 1) this.#link.hold(true);
    this.#last = p;
    return p;
  }

  #reply(reply: Reply): void {
    if (reply.t !== 'done' && reply.t !== 'error') return;
    const p = this.#pending.get(reply.id);
    if (!p) return;
    this.#pending.delete(reply.id);
    if (this.#pending.size === 0) this.#link.hold(false);
    if (reply.t === 'done') p.resolve(reply.value);
    else p.reject(fromWire(this.#core, reply.error));
  }

  /** The worker died: every call in flight rejects, and so do later ones. */
  #died(why: string): void {
    if (!this.#closed) this.#closed = Promise.resolve(this.#link.terminate()).then(() => {}, () => {});
    for (const [, p] of this.#pending) p.reject(new this.#core.OnnxOpsError('DISPOSED', 'worker', undefined, `the worker ended: ${why}`));
    this.#pending.clear();
    this.#link.hold(false);
  }
}
