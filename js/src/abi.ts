/**
 * The wasm module's ABI, known here alone: its export names, the call
 * descriptor's layout and the status codes (bindings/bindings.cpp).
 */
import type { DTypeInfo } from './dtypes.js';
import { type ErrorCode, OnnxOpsError } from './errors.js';
import type { OpName } from './opsets.js';
import type { OnnxOpsModule } from './wasm/onnx-ops-wasm.js';

/** A tensor placed in wasm memory: its dims and address. */
export interface Placed {
  readonly shape: readonly number[];
  readonly address: number;
}

/** Where a call descriptor goes: a block of at least `words` int32 words in wasm memory (memory.ts's Heap). */
export interface DescriptorBlock {
  readonly module: OnnxOpsModule;
  descriptor(words: number, op: string): Int32Array;
  readonly descriptorAddress: number;
}

// The entries' statuses (src/dtype.h's Status) by number; 0 is success.
const STATUS_CODES: readonly ErrorCode[] = [
  'INVALID_ARGUMENT', 'DTYPE_NOT_ALLOWED', 'ARITY', 'INVALID_SHAPE', 'BROADCAST_MISMATCH', 'OUT_MISMATCH', 'TOO_LARGE',
];

/** Whether a loaded module is this package's (has its entries). */
export const isOpsModule = (m: OnnxOpsModule): boolean =>
  typeof m._onnx_ops_max === 'function' && typeof m._onnx_ops_simd === 'function';

/** Whether the module runs SIMD128 kernels. */
export const wasmSimd = (m: OnnxOpsModule): boolean => m._onnx_ops_simd() === 1;

/** A 16-byte aligned block of `bytes`, or 0 when wasm memory cannot grow to it. */
export const wasmAlloc = (m: OnnxOpsModule, bytes: number): number => m._onnx_ops_alloc(bytes) >>> 0;

export const wasmRelease = (m: OnnxOpsModule, address: number): void => m._onnx_ops_release(address);

/** Bytes malloc has handed out and not taken back (the whole module). */
export const wasmHeapInUse = (m: OnnxOpsModule): number => m._onnx_ops_heap_in_use() >>> 0;

/**
 * Runs `op` on inputs placed in wasm memory into `outAddress`
 * (with `outShape`): the descriptor (dtype, n, out, out's rank and dims, then
 * address, rank and dims per input) is written to the block, and a status
 * other than 0 is thrown as its OnnxOpsError. Dims must be below 2^31 (no
 * tensor in wasm memory reaches 2 GiB; empty calls are never sent).
 */
export function callOp(block: DescriptorBlock, op: OpName, info: DTypeInfo, inputs: readonly Placed[],
  outShape: readonly number[], outAddress: number): void {
  const n = inputs.length;
  let words = 4 + outShape.length;
  for (let i = 0; i < n; i++) words += 2 + inputs[i].shape.length;
  const w = block.descriptor(words, op);
  w[0] = info.onnx;
  w[1] = n;
  w[2] = outAddress;
  w[3] = outShape.length;
  let p = 4;
  for (let k = 0; k < outShape.length; k++) w[p++] = outShape[k];
  for (let i = 0; i < n; i++) {
    const s = inputs[i].shape;
    w[p++] = inputs[i].address;
    w[p++] = s.length;
    for (let k = 0; k < s.length; k++) w[p++] = s[k];
  }
  const m = block.module;
  const status = op === 'Max' ? m._onnx_ops_max(block.descriptorAddress) : m._onnx_ops_relu(block.descriptorAddress);
  if (status !== 0) {
    throw new OnnxOpsError(STATUS_CODES[status] ?? 'INVALID_ARGUMENT', op, undefined,
      `the kernel rejected the call (status ${status})`);
  }
}
