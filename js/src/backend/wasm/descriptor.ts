/**
 * The call descriptor: the block of wasm memory it is written to, kept from
 * call to call, and the kernel calls made through it. Its layout is named
 * in abi.ts.
 */
import type { DTypeInfo } from '../../dtypes.js';
import { type ErrorCode, OnnxOpsError } from '../../errors.js';
import type { OpName } from '../../core/spec.js';
import {
  CALL_DTYPE, CALL_INPUTS, CALL_N, CALL_OP, CALL_OUT, CALL_OUT_SHAPE, CALL_SHAPES, CALL_WORDS, DIM_WORDS, SHAPE_DIMS, SHAPE_RANK,
  SHAPE_WORDS, STATUS_BAD_ARITY, STATUS_BAD_DTYPE, STATUS_BAD_SHAPE, STATUS_INCOMPATIBLE, STATUS_OK, STATUS_OUT_SHAPE_MISMATCH,
  STATUS_TOO_LARGE,
} from './abi.js';
import { KeptBlock, type WasmMemory } from './memory.js';

/** What a kernel call runs: the op, on a dtype (a call record, call.ts, is one). */
export interface KernelOp {
  readonly op: OpName;
  /** The op's row in the spec table, which the generic entry reads (abi.ts's CALL_OP). */
  readonly opId: number;
  readonly info: DTypeInfo;
}

/** An operand of a kernel call: a tensor in wasm memory, its dims and address. */
export interface Operand {
  readonly shape: readonly number[];
  readonly address: number;
}

/** The error each status other than Ok is thrown as, by number (an unknown one: INVALID_ARGUMENT). */
const ERROR_OF_STATUS: ErrorCode[] = [];
ERROR_OF_STATUS[STATUS_BAD_DTYPE] = 'DTYPE_NOT_ALLOWED';
ERROR_OF_STATUS[STATUS_BAD_ARITY] = 'ARITY';
ERROR_OF_STATUS[STATUS_BAD_SHAPE] = 'INVALID_SHAPE';
ERROR_OF_STATUS[STATUS_INCOMPATIBLE] = 'BROADCAST_MISMATCH';
ERROR_OF_STATUS[STATUS_OUT_SHAPE_MISMATCH] = 'OUT_MISMATCH';
ERROR_OF_STATUS[STATUS_TOO_LARGE] = 'TOO_LARGE';

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

  readonly #memory: WasmMemory;

  constructor(memory: WasmMemory) {
    this.#memory = memory;
    this.#block = new KeptBlock(memory);
  }

  /**
   * Runs `call`'s op and dtype on operands in wasm memory into `outAddress`
   * (with `outShape`): the descriptor is written to the block, and a status
   * other than Ok is thrown as its OnnxOpsError. The block holds, from its
   * start: the Call (abi.ts), the inputs' addresses (n), their Shapes (n),
   * then every dim as an int64, 8-byte aligned. An input with the output's
   * very shape array shares its dims. Dims must be below 2^31 (no tensor in
   * wasm memory reaches 2 GiB; empty calls are never sent), so a dim's high
   * word is 0. `id`: a number naming a call that may be made again with the
   * very same descriptor (call.ts's Call.id), which is then not written
   * again while the block holds it; 0 for a call made once.
   */
  callOp(call: KernelOp, operands: readonly Operand[], outShape: readonly number[], outAddress: number, id = 0): void {
    if (id === 0 || this.#id !== id) this.#write(call, operands, outShape, outAddress, id);
    const base = this.#block.address;
    const e = this.#memory.exports.entries;
    // A call site of its own for each op's entry: one shared site makes the call into wasm polymorphic, and slow.
    const op = call.op;
    const status = op === 'Max' ? e.Max(base) : op === 'Relu' ? e.Relu(base) : e[op as OpName](base);
    if (status !== STATUS_OK) {
      throw new OnnxOpsError(ERROR_OF_STATUS[status] ?? 'INVALID_ARGUMENT', call.op, undefined,
        `the kernel rejected the call (status ${status})`);
    }
  }

  /** Writes a call's descriptor (see callOp); in int32 words, from the block's start. */
  #write(call: KernelOp, inputs: readonly Operand[], outShape: readonly number[], outAddress: number, id: number): void {
    const n = inputs.length;
    const outRank = outShape.length;
    const addressesAt = CALL_WORDS;
    const shapesAt = addressesAt + n;
    const dimsAt = (shapesAt + SHAPE_WORDS * n + 1) & ~1; // 8-byte aligned
    let words = dimsAt + DIM_WORDS * outRank;
    for (let i = 0; i < n; i++) if (inputs[i].shape !== outShape) words += DIM_WORDS * inputs[i].shape.length;
    const w = this.#words(words, call.op);
    const base = this.#block.address;
    w[CALL_DTYPE / 4] = call.info.onnx;
    w[CALL_N / 4] = n;
    w[CALL_INPUTS / 4] = base + 4 * addressesAt;
    w[CALL_SHAPES / 4] = base + 4 * shapesAt;
    w[CALL_OUT / 4] = outAddress;
    w[CALL_OP / 4] = call.opId; // for the entry of ops without one of their own (exports.ts)
    w[(CALL_OUT_SHAPE + SHAPE_DIMS) / 4] = base + 4 * dimsAt;
    w[(CALL_OUT_SHAPE + SHAPE_RANK) / 4] = outRank;
    let p = dimsAt;
    for (let k = 0; k < outRank; k++, p += DIM_WORDS) {
      w[p] = outShape[k];
      w[p + 1] = 0;
    }
    for (let i = 0; i < n; i++) {
      const s = inputs[i].shape;
      const shape = shapesAt + SHAPE_WORDS * i;
      w[addressesAt + i] = inputs[i].address;
      w[shape + SHAPE_RANK / 4] = s.length;
      if (s === outShape) {
        w[shape + SHAPE_DIMS / 4] = base + 4 * dimsAt;
        continue;
      }
      w[shape + SHAPE_DIMS / 4] = base + 4 * p;
      for (let k = 0; k < s.length; k++, p += DIM_WORDS) {
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
    this.#view = new Int32Array(this.#memory.buffer, block.address, block.bytes / 4);
    return this.#view;
  }

  /** Frees the block (made again by the next call). */
  release(): void {
    this.#block.release();
    this.#view = undefined;
    this.#id = 0;
  }
}
