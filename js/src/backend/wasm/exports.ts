/**
 * The wasm module's entry points (bindings/bindings.cpp), resolved once into
 * plain functions.
 */
import type { OnnxOpsModule } from '../../wasm/onnx-ops-wasm.js';
import { OP_NAMES, type OpName } from '../../core/spec.js';

/**
 * The module's entry points as plain functions, read once. The glue's
 * exports replace themselves with the wasm function on their first call, and
 * its Module object is a dictionary, where every read is a lookup: calls
 * through it cost a small call's time over again.
 */
export interface WasmExports {
  /**
   * Each op's entry (bindings/bindings.cpp): a status for a call descriptor.
   * An op's own, `_onnx_ops_<op in lower case>`, or for an op without one,
   * `_onnx_ops_run`, which runs the op the descriptor names.
   */
  readonly entries: Readonly<Record<OpName, (call: number) => number>>;
  readonly alloc: (bytes: number) => number;
  readonly release: (address: number) => void;
  readonly heapInUse: () => number;
  readonly simd: () => number;
}

/** An op's entry in the module, by the spec table's name: its own, or run. */
const entryOf = (m: OnnxOpsModule, op: OpName): ((call: number) => number) | undefined =>
  (m as unknown as Record<string, ((call: number) => number) | undefined>)[`_onnx_ops_${op.toLowerCase()}`] ?? m._onnx_ops_run;

/**
 * The entry points of a loaded module. Each export is called once first, so
 * that the glue puts the wasm function in its place: each op's with a
 * descriptor of no inputs, which it refuses before reading anything else.
 */
export function exportsOf(m: OnnxOpsModule): WasmExports {
  const probe = m._onnx_ops_alloc(16);
  if (probe === 0) throw new Error('onnx-ops-wasm: the module cannot allocate 16 bytes');
  new Int32Array(m.HEAPU8.buffer, probe, 2).set([1, 0]); // a Call's dtype (float32) and n (no inputs)
  const entries = {} as Record<OpName, (call: number) => number>;
  for (const op of OP_NAMES) {
    entryOf(m, op)!(probe);
    entries[op] = entryOf(m, op)!;
  }
  m._onnx_ops_release(probe);
  m._onnx_ops_heap_in_use();
  m._onnx_ops_simd();
  return { entries, alloc: m._onnx_ops_alloc, release: m._onnx_ops_release, heapInUse: m._onnx_ops_heap_in_use, simd: m._onnx_ops_simd };
}

/** Whether a loaded module is this package's (has every op's entry). */
export const isOpsModule = (m: OnnxOpsModule): boolean =>
  typeof m._onnx_ops_simd === 'function' && OP_NAMES.every((op) => typeof entryOf(m, op) === 'function');

/** A 16-byte aligned block of `bytes`, or 0 when wasm memory cannot grow to it. */
export const wasmAlloc = (w: WasmExports, bytes: number): number => w.alloc(bytes) >>> 0;

/** Bytes malloc has handed out and not taken back (the whole module). */
export const wasmHeapInUse = (w: WasmExports): number => w.heapInUse() >>> 0;
