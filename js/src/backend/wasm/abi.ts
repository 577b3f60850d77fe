/**
 * The wasm module's ABI, known here alone: its export names, the call
 * descriptor's layout and the status codes (bindings/bindings.cpp).
 */
import type { DTypeInfo } from '../../dtypes.js';
import { type ErrorCode, OnnxOpsError } from '../../errors.js';
import type { OpName } from '../../check/opsets.js';
import type { OnnxOpsModule } from '../../wasm/onnx-ops-wasm.js';
import { KeptBlock, type WasmMemory } from './memory.js';

/** What a kernel call runs: the op, on a dtype (a call record, call.ts, is one). */
export interface KernelOp {
  readonly op: OpName;
  readonly info: DTypeInfo;
}

/** An operand of a kernel call: a tensor in wasm memory, its dims and address. */
export interface Operand {
  readonly shape: readonly number[];
  readonly address: number;
}

/**
 * The module's entry points as plain functions, read once. The glue's
 * exports replace themselves with the wasm function on their first call, and
 * its Module object is a dictionary, where every read is a lookup: calls
 * through it cost a small call's time over again.
 */
export interface WasmExports {
  readonly max: (call: number) => number;
  readonly relu: (call: number) => number;
  readonly alloc: (bytes: number) => number;
  readonly release: (address: number) => void;
  readonly heapInUse: () => number;
  readonly simd: () => number;
}

/**
 * The entry points of a loaded module. Each export is called once first, so
 * that the glue puts the wasm function in its place: Max and Relu with a
 * descriptor of no inputs, which they refuse before reading anything else.
 */
export function exportsOf(m: OnnxOpsModule): WasmExports {
  const probe = m._onnx_ops_alloc(16);
  if (probe === 0) throw new Error('onnx-ops-wasm: the module cannot allocate 16 bytes');
  new Int32Array(m.HEAPU8.buffer, probe, 2).set([1, 0]); // float32, no inputs
  m._onnx_ops_max(probe);
  m._onnx_ops_relu(probe);
  m._onnx_ops_release(probe);
  m._onnx_ops_heap_in_use();
  m._onnx_ops_simd();
  return {
    max: m._onnx_ops_max, relu: m._onnx_ops_relu, alloc: m._onnx_ops_alloc, release: m._onnx_ops_release,
    heapInUse: m._onnx_ops_heap_in_use, simd: m._onnx_ops_simd,
  };
}

// The entries' statuses (src/status.h's Status) by number; 0 is success.
const STATUS_CODES: readonly ErrorCode[] = [
  'INVALID_ARGUMENT', 'DTYPE_NOT_ALLOWED', 'ARITY', 'INVALID_SHAPE', 'BROADCAST_MISMATCH', 'OUT_MISMATCH', 'TOO_LARGE',
];

/** Whether a loaded module is this package's (has its entries). */
export const isOpsModule = (m: OnnxOpsModule): boolean =>
  typeof m._onnx_ops_max === 'function' && typeof m._onnx_ops_simd === 'function';

/** A 16-byte aligned block of `bytes`, or 0 when wasm memory cannot grow to it. */
export const wasmAlloc = (w: WasmExports, bytes: number): number => w.alloc(bytes) >>> 0;

/** Bytes malloc has handed out and not taken back (the whole module). */
export const wasmHeapInUse = (w: WasmExports): number => w.heapInUse() >>> 0;

/**
 * The call descriptor's block: kept from call to call, grown on demand, and
 * the kernel calls made through it.
 */
export class DescriptorBlock {
  readonly #block: KeptBlock;
  /** The block's int32 words (valid until memory grows), undefined after release. */
  #view: Int32Array | undefined;
  /** Which repeatable call's descriptor the block holds (see callOp), 0 for none. */
  #id = 0;

  constructor(readonly memory: WasmMemory) {
    this.#block = new KeptBlock(memory);
  }

  /**
   * Runs `call`'s op and dtype on operands in wasm memory into `outAddress`
   * (with `outShape`): the descriptor, which is the C++ `onnx_ops::Call` as
   * wasm32 lays it out (bindings/bindings.cpp pins the layout), is written to
   * the block, and a status other than 0 is thrown as its OnnxOpsError. In
   * int32 words from the block's start: the Call (dtype, n, inputs, shapes,
   * out, out's dims, out's rank; 8 words with padding), the inputs' addresses
   * (n), their Shapes (dims' address, rank: 2n), then every dim as an int64
   * (2 words, 8-byte aligned). An input with the output's very shape array
   * shares its dims. Dims must be below 2^31 (no tensor in wasm memory
   * reaches 2 GiB; empty calls are never sent). `id`: a number naming a call
   * that may be made again with the very same descriptor (call.ts's
   * Call.id), which is then not written again while the block holds it; 0
   * for a call made once.
   */
  callOp(call: KernelOp, operands: readonly Operand[], outShape: readonly number[], outAddress: number, id = 0): void {
    if (id === 0 || this.#id !== id) this.#write(call, operands, outShape, outAddress, id);
    const base = this.#block.address;
    const exports = this.memory.exports;
    const status = call.op === 'Max' ? exports.max(base) : exports.relu(base);
    if (status !== 0) {
      throw new OnnxOpsError(STATUS_CODES[status] ?? 'INVALID_ARGUMENT', call.op, undefined,
        `the kernel rejected the call (status ${status})`);
    }
  }

  /** Writes a call's descriptor (see callOp). */
  #write(call: KernelOp, inputs: readonly Operand[], outShape: readonly number[], outAddress: number, id: number): void {
    const n = inputs.length;
    const outRank = outShape.length;
    const shapesAt = 8 + n;
    const dimsAt = (shapesAt + 2 * n + 1) & ~1;
    let words = dimsAt + 2 * outRank;
    for (let i = 0; i < n; i++) if (inputs[i].shape !== outShape) words += 2 * inputs[i].shape.length;
    const w = this.#words(words, call.op);
    const base = this.#block.address;
    w[0] = call.info.onnx;
    w[1] = n;
    w[2] = base + 32;
    w[3] = base + 4 * shapesAt;
    w[4] = outAddress;
    w[5] = base + 4 * dimsAt;
    w[6] = outRank;
    let p = dimsAt;
    for (let k = 0; k < outRank; k++, p += 2) {
      w[p] = outShape[k];
      w[p + 1] = 0;
    }
    for (let i = 0; i < n; i++) {
      const s = inputs[i].shape;
      w[8 + i] = inputs[i].address;
      w[shapesAt + 2 * i + 1] = s.length;
      if (s === outShape) {
        w[shapesAt + 2 * i] = base + 4 * dimsAt;
        continue;
      }
      w[shapesAt + 2 * i] = base + 4 * p;
      for (let k = 0; k < s.length; k++, p += 2) {
        w[p] = s[k];
        w[p + 1] = 0;
      }
    }
    this.#id = id;
  }

  /**
   * A view of the block, at least `words` int32 words long. The block is kept
   * for later calls; the view is valid until memory grows.
   */
  #words(words: number, op: string): Int32Array {
    const view = this.#view;
    // A view detached by memory growth has length 0.
    return 4 * words <= this.#block.bytes && view !== undefined && view.length !== 0 ? view : this.#newView(words, op);
  }

  /** The block grown to `words`, or its view made again (apart, so that #words() inlines). */
  #newView(words: number, op: string): Int32Array {
    const block = this.#block;
    if (4 * words > block.bytes) block.grow(4 * Math.max(64, 2 ** Math.ceil(Math.log2(words))), op);
    this.#view = new Int32Array(this.memory.buffer, block.address, block.bytes / 4);
    return this.#view;
  }

  /** Frees the block (made again by the next call). */
  release(): void {
    this.#block.release();
    this.#view = undefined;
    this.#id = 0;
  }
}
