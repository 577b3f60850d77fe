/**
 * The backend of the worker form's page side: the instance's core (api/core.ts)
 * checks and prepares calls over it as the sync API does, and its run() puts
 * a call in wire form (worker/protocol.ts), sends it to the worker and
 * returns the Promise of its result. Tensors are handles: WasmTensors whose
 * address names the tensor in the worker, whose data only ops.read() gets.
 */
import type { DTypeInfo, TypedArray } from '../dtypes.js';
import type { WasmTensor } from '../core/tensor.js';
import type { Result } from '../core/types.js';
import type { Call, CheckedInput } from '../core/call.js';
import type { Backend, BackendName, MemoryStats, RunOptions } from '../backend/backend.js';
import type { Lent } from '../lent.js';
import type { InputRef } from '../errors.js';
import { type WireInput, moveIfLarge } from './protocol.js';
import type { Requests } from './queue.js';

export class RemoteBackend implements Backend<true> {
  readonly memoryBuffer = undefined;
  readonly remote = true;
  /** The data ops.tensor() wrote into the tensor it made last (sent with it). */
  #written: TypedArray | undefined = undefined;
  #handles = 0;
  /** The bytes of the tensor ops.tensor() made last. */
  #bytes = 0;

  /**
   * The workers that died, as the handles they held: a tensor's handle below
   * `below` lived in that worker (a handle, numbered in order, records which
   * worker holds its tensor). The newest last.
   */
  readonly #deaths: { below: number; why: string }[] = [];
  /** The first handle of the live worker's tensors (0 before any death). */
  #floor = 0;
  /** Set once, after the queue is made over this backend (client.ts). */
  requests!: Requests;

  constructor(readonly name: BackendName, readonly lent: Lent) {}

  /** A worker's memory is gone (it died, or a new one did not start): the tensors given out so far went with it. */
  lost(why: string): void {
    this.#floor = this.#handles + 1;
    this.#deaths.push({ below: this.#floor, why });
  }

  /**
   * Throws DISPOSED if the tensor (live on the page) lived in a worker that
   * died: its memory went with it. Never sent to the new worker, which holds
   * no tensor by its handle.
   */
  checkHeld(t: WasmTensor, op: string, input: InputRef): void {
    if (t.address >= this.#floor) return;
    const death = this.#deaths.find((d) => t.address < d.below)!;
    throw new this.lent.OnnxOpsError('DISPOSED', op, input,
      `the tensor's memory was lost with the worker that held it (${death.why}): make it again with ops.tensor()`);
  }

  run(call: Call, options?: RunOptions): Promise<Result | WasmTensor> {
    const { OnnxOpsError, WasmTensor, bufferOf, byteOffsetOf, copyInto } = this.lent;
    const transfer: Transferable[] = [];
    // With transfer: true, each input buffer moved once (inputs may share one), and where its inputs lie in it, read before any is detached.
    const moved = options?.transfer === true ? new Map<ArrayBufferLike, ArrayBuffer | undefined>() : undefined;
    const offsets = moved ? call.inputs.map((c) => (c.data ? byteOffsetOf(c.data) : 0)) : undefined;
    const outArray = call.outArray;
    const keep = outArray ? bufferOf(outArray.data) : undefined; // an in-place input is copied, out stays
    const { info, shape, size, op } = call;
    const outTensor = call.outTensor;
    if (this.#floor) {
      call.inputs.forEach((c, i) => c.tensor && this.checkHeld(c.tensor, op, i));
      if (outTensor) this.checkHeld(outTensor, op, 'out');
    }
    const inputs: WireInput[] = call.inputs.map((c, i) => (c.tensor ? c.tensor.address : this.#wire(c, keep, transfer, moved, offsets?.[i] ?? 0)));
    const result = call.tensorResult && !outTensor ? ++this.#handles : 0;
    const request = { t: 'call' as const, id: 0, op, opset: call.opset, inputs, out: outTensor?.address ?? 0, result };
    return this.requests.send(request, transfer, op, options?.signal).then((r) => {
      if (outTensor) return outTensor;
      if (!r) return new WasmTensor(this, info.name, shape, size, result); // the worker keeps the new tensor
      if (!outArray) return r;
      try {
        // The elements as out's own class: a float16 result that the worker made a Float16Array (float16Array: true) as its bits.
        copyInto(outArray.data, new info.array(bufferOf(r.data), byteOffsetOf(r.data), size));
      } catch {
        throw new OnnxOpsError('INVALID_ARGUMENT', op, 'out', 'out\'s buffer was detached or shrunk before the result arrived');
      }
      return { dtype: r.dtype, shape: r.shape, data: outArray.given as TypedArray };
    });
  }

  /**
   * A plain input for the worker: its buffer moved (`moved`: transfer: true,
   * the call's buffers moved so far, each once; where it can move, and not
   * `keep`, out's) or its elements copied (the copy moved too if large).
   * `offset`: the input's byte offset in its buffer.
   */
  #wire(c: CheckedInput, keep: ArrayBufferLike | undefined, transfer: Transferable[],
    moved: Map<ArrayBufferLike, ArrayBuffer | undefined> | undefined, offset: number): WireInput {
    const { info, shape, size } = c;
    let data = c.data!;
    const buffer = c.buffer!;
    if (moved && buffer !== keep && Object.prototype.toString.call(buffer) === '[object ArrayBuffer]' && !moved.has(buffer)) {
      moved.set(buffer, detachInto(buffer as ArrayBuffer));
    }
    const into = moved?.get(buffer);
    if (into) {
      data = new info.array(into, offset, size);
      if (!transfer.includes(into)) transfer.push(into);
    } else {
      // A copy of the input's own elements: the clone of a view would carry its whole buffer, and a shared one would stay shared.
      const copy = new info.array(size);
      this.lent.copyInto(copy, data);
      transfer.push(...moveIfLarge(copy));
      data = copy;
    }
    return { dtype: info.name, shape: [...shape], data };
  }

  /** Sends the tensor ops.tensor() just made (with the data written into it) to the worker. */
  made(t: WasmTensor): Promise<WasmTensor> {
    const written = this.#written;
    const request = { t: 'tensor' as const, id: 0, h: t.address, dtype: t.dtype, shape: [...t.shape], data: written };
    return this.requests.send(request, moveIfLarge(written), 'tensor').then(() => t, (e) => {
      t.dispose();
      throw e;
    });
  }

  alloc(bytes: number): number {
    this.#written = undefined;
    this.#bytes = bytes;
    return ++this.#handles;
  }

  write(_address: number, info: DTypeInfo, data: TypedArray): void {
    const copy = new info.array(this.#bytes / info.bytes); // the checked size (data is read only through its internal slots)
    this.lent.copyInto(copy, data);
    this.#written = copy;
  }

  zero(): void {}

  free(address: number): void {
    if (address >= this.#floor) this.requests.free(address); // else it went with its worker
  }

  view(): never {
    return this.#inWorker();
  }

  read(): never {
    return this.#inWorker();
  }

  #inWorker(): never {
    throw new this.lent.OnnxOpsError('INVALID_ARGUMENT', 'tensor', undefined,
      'a tensor of the worker form lives in the worker: `await ops.read(tensor)` copies its data out');
  }

  memoryStats(): Promise<MemoryStats> {
    return this.requests.send({ t: 'stats', id: 0 }, [], 'memoryStats');
  }

  trim(): Promise<void> {
    return this.requests.send({ t: 'trim', id: 0 }, [], 'trimMemory');
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
