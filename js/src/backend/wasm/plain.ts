/**
 * The plain path: an op on tensors in JavaScript memory, run through one
 * bounded scratch block of wasm memory. Small calls copy everything in at once;
 * large ones stream, chunk by chunk along the output's leading axes, so a call
 * on a tensor of any size grows wasm memory by at most the scratch block
 * (wasm memory never shrinks: a one-off huge call must not pin it).
 */
import type { DescriptorBlock, KernelOp, Operand } from './descriptor.js';
import type { TypedArray } from '../../dtypes.js';
import { KeptBlock, type WasmMemory, freshArray } from './memory.js';
import { elementCount } from '../../core/shape.js';

/**
 * Default bytes of wasm memory the plain path may use for one call: 256 KiB,
 * so that a chunk just copied in is still in the core's cache when the kernel
 * and the copy out read it (larger blocks were slower from about 3e5 float32
 * elements on, in every engine measured).
 */
export const SCRATCH_BYTES = 1 << 18;

/**
 * An input as a window of a typed array: a checked input (check/input.ts)
 * is a part as it is, whose data is defined on the plain path.
 */
export interface Part {
  readonly data: TypedArray | undefined;
  readonly offset?: number; // in elements; none: the whole of data (then size === data.length)
  readonly shape: readonly number[];
  readonly size: number;
}

/** A window whose data and offset are known (the output's; rows of an input). */
interface OutPart extends Part {
  readonly data: TypedArray;
  readonly offset: number;
}

/** An operand the plain path copied into the scratch block, reused from call to call (see PlainPath.#operands). */
interface Slot {
  shape: readonly number[];
  address: number;
}

const align16 = (n: number): number => Math.ceil(n / 16) * 16; // no 32-bit bit ops: n may pass 2^31

/** The plain path of one instance: its scratch block, and the operands it reuses. */
export class PlainPath {
  readonly #memory: WasmMemory;
  readonly #descriptor: DescriptorBlock;
  /** The scratch block (see #reserve). */
  readonly #scratch: KeptBlock;
  /** Operands #once fills, kept for later calls, so that a small call allocates none. */
  readonly #operands: Slot[] = [];

  /**
   * @param scratchLimit bytes the plain path may hold for one call (its
   *   scratch block); larger plain calls stream through it in chunks.
   */
  constructor(memory: WasmMemory, descriptor: DescriptorBlock, readonly scratchLimit: number) {
    this.#memory = memory;
    this.#descriptor = descriptor;
    this.#scratch = new KeptBlock(memory);
  }

  /** Frees the scratch block (made again by the next call). */
  release(): void {
    this.#scratch.release();
  }

  /**
   * The scratch block made at least `bytes` large (at most scratchLimit):
   * kept for later calls and grown on demand.
   */
  #reserve(bytes: number, op: string): void {
    const scratch = this.#scratch;
    if (bytes > scratch.bytes) scratch.grow(Math.min(this.scratchLimit, Math.max(4096, 2 ** Math.ceil(Math.log2(bytes)))), op);
  }

  /**
   * Runs `call`'s op and dtype on plain inputs into `out` (a typed array of
   * the output's size), or into a fresh array when there is none; returns
   * that array.
   */
  run(call: KernelOp, inputs: readonly Part[], outShape: readonly number[], out?: TypedArray): TypedArray {
    const total = elementCount(outShape);
    if (total === 0) return out ?? freshArray(call.info, 0);
    const need = needed(inputs, total, call.info.bytes);
    this.#reserve(Math.min(this.scratchLimit, need), call.op);
    if (need <= this.#scratch.bytes) return this.#once(call, inputs, outShape, total, out, 0);
    // Streamed: the chunks fill one array made up front.
    const data = out ?? freshArray(call.info, total);
    if (flat(inputs, total)) this.#stream(call, inputs, data, total);
    else this.#step(call, inputs, { data, offset: 0, shape: outShape, size: total });
    return data;
  }

  /**
   * A flat call (see flat) streamed as one run of `total` elements: single
   * values stay at the start of the block; every other input gets a slot of
   * `chunk` elements, refilled chunk by chunk, and the result goes over the
   * first of them (the kernels run in place).
   */
  #stream(call: KernelOp, inputs: readonly Part[], out: TypedArray, total: number): void {
    const memory = this.#memory;
    const scratch = this.#scratch;
    const { info } = call;
    const base = scratch.address;
    const bytes = info.bytes;
    const shape = [0]; // the chunk's, set per chunk: every slot's operand and the result share it
    const operands: Operand[] = [];
    const slots: Slot[] = []; // the operands refilled per chunk (at least one: total > 1)
    const cut: Part[] = []; // their inputs
    let at = base;
    for (let i = 0; i < inputs.length; i++) {
      const p = inputs[i];
      if (p.size === total) {
        const slot = { shape, address: 0 }; // its address once the chunk's size is known
        slots.push(slot);
        cut.push(p);
        operands.push(slot);
      } else {
        memory.write(at, info, p.data!, p.offset, p.size);
        operands.push({ shape: [], address: at }); // a single value: rank 0 against the chunk's [size]
        at += 16;
      }
    }
    // Slots of a multiple of 16 bytes stay aligned. Max folds at most
    // scratchLimit / 64 inputs at a time, so 16 bytes of each always fit.
    const chunk = Math.floor((scratch.bytes - (at - base)) / (slots.length * 16)) * (16 / bytes);
    if (chunk < 1) throw new Error('onnx-ops-wasm: the scratch block cannot hold one chunk');
    for (let k = 0; k < slots.length; k++) slots[k].address = at + k * chunk * bytes;
    const outAddress = at;
    for (let offset = 0; offset < total; offset += chunk) {
      const size = Math.min(chunk, total - offset);
      shape[0] = size;
      for (let k = 0; k < cut.length; k++) memory.write(slots[k].address, info, cut[k].data!, (cut[k].offset ?? 0) + offset, size);
      this.#descriptor.callOp(call, operands, shape, outAddress);
      memory.readInto(out, info, offset, outAddress, size);
    }
  }

  /** `n` kept operands (see #operands): the same while n is. */
  #operandsOf(n: number): Slot[] {
    const l = this.#operands;
    if (l.length > n) l.length = n;
    while (l.length < n) l.push({ shape: [], address: 0 });
    return l;
  }

  /**
   * Everything fits the scratch block: copy the inputs in, run once, copy
   * the result (`size` elements) into `out` from element `offset` on, or into a fresh array
   * (WasmMemory.read); returns that array. The result goes over the first input of
   * its size (laid out as the result, as broadcasting allows no other way):
   * the kernels run in place, and the block holds one array less.
   */
  #once(call: KernelOp, inputs: readonly Part[], outShape: readonly number[], size: number, out: TypedArray | undefined,
    offset: number): TypedArray {
    const memory = this.#memory;
    const { info } = call;
    const operands = this.#operandsOf(inputs.length);
    let at = this.#scratch.address;
    let outAddress = -1;
    for (let i = 0; i < inputs.length; i++) {
      const p = inputs[i];
      memory.write(at, info, p.data!, p.offset, p.size); // no offset: the whole array
      operands[i].shape = p.shape;
      operands[i].address = at;
      if (outAddress < 0 && p.size === size) outAddress = at;
      at += align16(p.size * info.bytes);
    }
    if (outAddress < 0) outAddress = at;
    this.#descriptor.callOp(call, operands, outShape, outAddress);
    if (!out) return memory.read(info, outAddress, size);
    memory.readInto(out, info, offset, outAddress, size);
    return out;
  }

  #step(call: KernelOp, inputs: readonly Part[], out: OutPart): void {
    const bytes = call.info.bytes;
    const capacity = this.#scratch.bytes;
    if (needed(inputs, out.size, bytes) <= capacity) {
      this.#once(call, inputs, out.shape, out.size, out.data, out.offset);
      return;
    }
    // Split along the output's leading axis. An input that spans it (same
    // extent, aligned) is cut into rows; one broadcast along it is resident:
    // needed whole by every row.
    const rank = out.shape.length;
    if (rank === 0) throw new Error('onnx-ops-wasm: one element\'s inputs do not fit the scratch block'); // callers group inputs
    const d0 = out.shape[0];
    const rest = out.shape.slice(1);
    const restSize = out.size / d0;
    const spans = inputs.map((p) => p.shape.length === rank && p.shape[0] === d0 && d0 !== 1);
    let resident = 0;
    let rowBytes = 0;
    let over = false; // the result goes over a spanning input (see #once)
    inputs.forEach((p, i) => {
      if (spans[i]) rowBytes += (p.size / d0) * bytes;
      else resident += align16(p.size * bytes);
      over ||= spans[i] && p.size === out.size;
    });
    if (!over) rowBytes += restSize * bytes;
    const slack = 16 * (inputs.length + 1);
    const rows = Math.floor((capacity - resident - slack) / rowBytes);
    if (d0 > 1 && resident <= capacity / 2 && rows >= 1) {
      for (let r0 = 0; r0 < d0; r0 += rows) {
        const r = Math.min(rows, d0 - r0);
        const parts = inputs.map((p, i) => (spans[i] ? rowsOf(p, d0, r0, r, [r, ...p.shape.slice(1)]) : p));
        this.#step(call, parts, rowsOf(out, d0, r0, r, [r, ...rest]));
      }
      return;
    }
    // Even one row does not fit beside the resident inputs: one row at a time,
    // each a problem of one rank less.
    for (let r = 0; r < d0; r++) {
      const parts = inputs.map((p, i) => {
        if (spans[i]) return rowsOf(p, d0, r, 1, p.shape.slice(1));
        return p.shape.length === rank ? { ...p, shape: p.shape.slice(1) } : p; // drop its leading 1
      });
      this.#step(call, parts, rowsOf(out, d0, r, 1, rest));
    }
  }
}

/** Rows r0 .. r0 + count of a part of d0 rows, with `shape`. */
function rowsOf(p: Part, d0: number, r0: number, count: number, shape: readonly number[]): OutPart {
  const rowSize = p.size / d0;
  return { data: p.data!, offset: (p.offset ?? 0) + r0 * rowSize, shape, size: count * rowSize };
}

/** Whether every input is laid out as the output or is a single value (no broadcast plan needed). */
function flat(inputs: readonly { size: number }[], total: number): boolean {
  for (let i = 0; i < inputs.length; i++) if (inputs[i].size !== total && inputs[i].size !== 1) return false;
  return true;
}

/** Scratch bytes to run at once: each input, and the result unless it can go over one (see PlainPath.#once). */
function needed(inputs: readonly Part[], outSize: number, bytes: number): number {
  let n = 0;
  let over = false;
  for (let i = 0; i < inputs.length; i++) {
    n += align16(inputs[i].size * bytes);
    over ||= inputs[i].size === outSize;
  }
  return over ? n : n + align16(outSize * bytes);
}
