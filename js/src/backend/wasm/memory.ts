/**
 * Wasm memory: allocation and its failure, views of the heap (made again
 * whenever the memory has grown, which detaches old ones), copies in and
 * out, blocks kept between calls, fresh result arrays.
 */
import {
  type DTypeInfo, DTYPES, DTYPE_INFO, type TypedArray, bufferOf, byteOffsetOf, copyInto,
} from '../../dtypes.js';
import { type WasmExports, exportsOf, wasmAlloc, wasmHeapInUse } from './exports.js';
import { OnnxOpsError, type InputRef } from '../../errors.js';
import type { OnnxOpsModule } from '../../wasm/onnx-ops-wasm.js';
import { MAX_ALLOCATION } from '../shared.js';


/**
 * From this many bytes on, a fresh result comes from Node's
 * Buffer.allocUnsafeSlow (an ArrayBuffer of its own, not zero-filled): at
 * these sizes the zero-fill of `new Float32Array(n)` costs page faults and
 * a pass over memory that the copy of the result then repeats (well below
 * it, the plain constructor is faster). Elsewhere (browsers), or below it,
 * the typed array's own constructor.
 */
export const UNZEROED_MIN_BYTES = 2 ** 20;
const unzeroed = (globalThis as { Buffer?: { allocUnsafeSlow?: (bytes: number) => Uint8Array } }).Buffer;
/** Whether a fresh array of `bytes` comes unzeroed from Buffer.allocUnsafeSlow (see UNZEROED_MIN_BYTES). */
const takesUnzeroed = (bytes: number): boolean => bytes >= UNZEROED_MIN_BYTES && typeof unzeroed?.allocUnsafeSlow === 'function';

/**
 * Whether a fresh result is a slice of wasm memory's view, the cheapest way
 * in V8 and JavaScriptCore, or a new array filled with set(), the cheaper
 * one in SpiderMonkey (Firefox; told by its own InternalError global).
 */
const SLICE_RESULTS = typeof (globalThis as { InternalError?: unknown }).InternalError !== 'function';

/**
 * A fresh, caller-owned typed array of `length` elements of a dtype, with a
 * buffer of its own. Large ones may hold stale bytes: the caller must
 * overwrite every element before anyone else sees it.
 */
export function freshArray(info: DTypeInfo, length: number): TypedArray {
  const { array, bytes } = info;
  const byteLength = length * bytes;
  if (takesUnzeroed(byteLength)) {
    const u = unzeroed!.allocUnsafeSlow!(byteLength);
    if (u.byteOffset === 0 && u.buffer.byteLength === byteLength) return new array(u.buffer, 0, length);
  }
  return new array(length);
}

/** The memory of one loaded module: its allocations and views. */
export class WasmMemory {
  /** Addresses allocated here and not yet released, with their sizes. */
  readonly #live = new Map<number, number>();
  /**
   * The buffer of wasm memory as last seen, and a view of it for each dtype
   * (its storage array), by ONNX number: renewed only when the memory grows
   * (see buffer).
   */
  #bufferSeen: ArrayBufferLike | undefined;
  #views: TypedArray[] = [];
  /** The last window read (see #window): the heap view it is of, its address and length. */
  #lastWindow: TypedArray | undefined;
  #windowOf: TypedArray | undefined;
  #windowAt = 0;
  #windowCount = 0;

  /** The module's entry points (exports.ts). */
  readonly exports: WasmExports;

  constructor(readonly module: OnnxOpsModule) {
    this.exports = exportsOf(module);
  }

  /** Allocates `bytes` (16-byte aligned) or throws OUT_OF_MEMORY. */
  alloc(bytes: number, op: string, input?: InputRef): number {
    if (bytes > MAX_ALLOCATION) {
      throw new OnnxOpsError('TOO_LARGE', op, input,
        `${bytes} bytes in wasm memory: one tensor there is limited to ${MAX_ALLOCATION} bytes (2 GiB - 64 KiB)`);
    }
    const address = wasmAlloc(this.exports, bytes);
    if (address === 0) {
      throw new OnnxOpsError('OUT_OF_MEMORY', op, input,
        `could not allocate ${bytes} bytes (wasm memory exhausted; in use: ${this.heapInUse()} bytes)`);
    }
    this.#live.set(address, bytes);
    return address;
  }

  free(address: number): void {
    if (this.#live.delete(address)) this.exports.release(address);
  }

  /** An allocation made by alloc, handed to a KeptBlock: no longer counted as live, released by it. */
  keep(address: number): void {
    this.#live.delete(address);
  }

  /**
   * The ArrayBuffer of wasm memory (current until the memory grows). Growing
   * the memory detaches its old buffer, so the glue's HEAPU8 is read again
   * only then: the glue's Module is a dictionary, where every read is a lookup.
   */
  get buffer(): ArrayBufferLike {
    const b = this.#bufferSeen;
    return b !== undefined && b.byteLength !== 0 ? b : this.#renew();
  }

  /** A view of all of wasm memory as the dtype's storage array (valid until memory grows). */
  #heapView(info: DTypeInfo): TypedArray {
    const b = this.#bufferSeen;
    if (b === undefined || b.byteLength === 0) this.#renew();
    return this.#views[info.onnx];
  }

  /**
   * Takes the buffer and the views again, the one last seen being detached
   * (the memory grew), or at first; returns the buffer. Apart, so that the
   * checks above stay small enough to inline where the caller's chain of
   * calls is deep (a plain call reads the buffer from its checks).
   */
  #renew(): ArrayBufferLike {
    const buffer = this.module.HEAPU8.buffer;
    this.#bufferSeen = buffer;
    this.#views = [];
    for (const d of DTYPES) {
      const { onnx, array, bytes } = DTYPE_INFO[d];
      this.#views[onnx] = new array(buffer, 0, buffer.byteLength / bytes);
    }
    return buffer;
  }

  /** Bytes allocated through alloc and not freed. */
  get liveBytes(): number {
    let total = 0;
    for (const b of this.#live.values()) total += b;
    return total;
  }

  get liveAllocations(): number {
    return this.#live.size;
  }

  /**
   * Copies `data` (the dtype's storage array; with `offset`, its `count`
   * elements from there) to `address`, through the heap view of the same class.
   */
  write(address: number, info: DTypeInfo, data: TypedArray, offset?: number, count?: number): void {
    const src = offset === undefined ? data : new info.array(bufferOf(data), byteOffsetOf(data) + offset * info.bytes, count!);
    copyInto(this.#heapView(info), src, address / info.bytes);
  }

  /**
   * A fresh, caller-owned copy of `length` elements of a dtype at `address`:
   * a slice of the heap view (one new object, where a new array and a
   * subarray to copy from are two), but where SLICE_RESULTS is false, or
   * under Node from UNZEROED_MIN_BYTES on, a freshArray filled from the heap.
   */
  read(info: DTypeInfo, address: number, length: number): TypedArray {
    if (SLICE_RESULTS && !takesUnzeroed(length * info.bytes)) {
      const at = address / info.bytes;
      return this.#heapView(info).slice(at, at + length);
    }
    const out = freshArray(info, length);
    this.readInto(out, info, 0, address, length);
    return out;
  }

  /** Bytes malloc has handed out and not taken back (the whole module). */
  heapInUse(): number {
    return wasmHeapInUse(this.exports);
  }

  /** Copies `count` elements of a dtype at `address` into `target` (its storage array) from element `offset` on. */
  readInto(target: TypedArray, info: DTypeInfo, offset: number, address: number, count: number): void {
    copyInto(target, this.#window(info, address, count), offset);
  }

  /**
   * A view of `count` elements of a dtype at `address`, kept for the next
   * call: calls in a row read the same window of the scratch block, and a
   * new view costs more than a small call's copy. Made again when any of
   * them differs or the memory grew (the heap view is then another).
   */
  #window(info: DTypeInfo, address: number, count: number): TypedArray {
    const heapView = this.#heapView(info);
    const w = this.#lastWindow;
    if (w !== undefined && this.#windowOf === heapView && this.#windowAt === address && this.#windowCount === count) return w;
    const at = address / info.bytes;
    this.#windowOf = heapView;
    this.#windowAt = address;
    this.#windowCount = count;
    return (this.#lastWindow = heapView.subarray(at, at + count));
  }
}

/**
 * A block of wasm memory kept from call to call (the call descriptor's, the
 * plain path's scratch), grown on demand, released by trim; not counted as a
 * live allocation (memoryStats).
 */
export class KeptBlock {
  /** Its address, 0 while it has none. */
  address = 0;
  /** Its size in bytes, 0 while it has none. */
  bytes = 0;

  readonly #memory: WasmMemory;

  constructor(memory: WasmMemory) {
    this.#memory = memory;
  }

  /** Replaces the block by one of `bytes` (OUT_OF_MEMORY naming `op` when it cannot). */
  grow(bytes: number, op: string): void {
    const memory = this.#memory;
    const address = memory.alloc(bytes, op);
    memory.keep(address);
    this.release();
    this.address = address;
    this.bytes = bytes;
  }

  /** Frees the block (made again when needed). */
  release(): void {
    if (this.address) this.#memory.exports.release(this.address);
    this.address = this.bytes = 0;
  }
}
