/**
 * createOps()'s options: their declaration and their checks, shared by the
 * package's two entries (index.ts, all backends; js.ts, the js backend alone),
 * so that both reject the same options with the same errors.
 */
import { OnnxOpsError, describe } from './errors.js';
import type { TypedArrayConstructor } from './dtypes.js';
import type { BackendName } from './backend/backend.js';
import { SCRATCH_BYTES } from './backend/wasm/plain.js';

/**
 * A WebAssembly.Module, as the wasmBinary option takes it (declared as any
 * object, so that the declarations need neither the DOM's types nor Node's).
 */
export type WasmModule = object;

export interface CreateOpsOptions {
  /**
   * The module's wasm, if you load it yourself (it is built into the package
   * otherwise): the bytes of onnx-ops-wasm/wasm, or a WebAssembly.Module
   * compiled from them, which is instantiated as it is (never compiled from
   * bytes: for hosts that forbid that, such as Cloudflare Workers).
   */
  wasmBinary?: ArrayBuffer | ArrayBufferView | WasmModule;
  /**
   * Wasm memory the plain path (typed arrays in and out) may use for one call,
   * in bytes (default 256 KiB, at least 4 KiB). Larger plain calls stream
   * through it in chunks, so they never grow wasm memory by more.
   */
  scratchBytes?: number;
  /**
   * float16 results (plain results, `toPlain()`, a wasm tensor's `.data`) as
   * `Float16Array`s over the same bits instead of `Uint16Array`s (default
   * false). Needs a runtime with `Float16Array`.
   */
  float16Array?: boolean;
  /**
   * Which kernels run the ops (default: the fastest the engine can run):
   * `'wasm-simd'` (WebAssembly SIMD128), `'wasm'` (the same kernels without
   * SIMD128, for engines that lack it) or `'js'` (kernels in JavaScript, for
   * engines without WebAssembly or where a Content-Security-Policy forbids
   * compiling it). `ops.backend` says which one runs.
   */
  backend?: BackendName;
  /**
   * Runs the instance in a worker the library starts itself (default false):
   * the ops then return Promises and never hold the caller's thread. See
   * WorkerOps and the README's "The worker form".
   */
  worker?: boolean;
}

/** @internal createOps()'s options once checked, defaults filled in. */
export interface CheckedOptions {
  backend: BackendName | undefined;
  wasmBinary: ArrayBuffer | ArrayBufferView | WebAssembly.Module | undefined;
  scratch: number;
  worker: boolean;
  /** Float16Array where float16Array: true asked for it. */
  float16: TypedArrayConstructor | undefined;
}

const OPTIONS = ['wasmBinary', 'scratchBytes', 'float16Array', 'backend', 'worker'];
const BACKENDS: readonly BackendName[] = ['wasm-simd', 'wasm', 'js'];

/** @internal Rejects createOps() for what the runtime lacks. */
export const unsupported = (problem: string): never => {
  throw new OnnxOpsError('UNSUPPORTED_ENGINE', 'createOps', undefined, problem);
};

/** @internal Rejects createOps() for an option it was given. */
export const invalid = (problem: string): never => {
  throw new OnnxOpsError('INVALID_ARGUMENT', 'createOps', undefined, problem);
};

/** @internal The error for a wasmBinary that is some other module. */
export const NOT_OURS = 'wasmBinary is not this package\'s wasm (onnx-ops-wasm/wasm)';

/** @internal Whether `x` is a WebAssembly.Module, of any realm (its toStringTag; a lookalike fails when instantiated). */
export const isWasmModule = (x: unknown): x is WebAssembly.Module => Object.prototype.toString.call(x) === '[object WebAssembly.Module]';

/** @internal The options checked in one order for both entries: INVALID_ARGUMENT, or UNSUPPORTED_ENGINE for a missing Float16Array. */
export function checkOptions(options: CreateOpsOptions): CheckedOptions {
  if (options === null || typeof options !== 'object') invalid(`options must be an object, got ${describe(options)}`);
  for (const key of Object.keys(options)) if (!OPTIONS.includes(key)) invalid(`unknown option ${JSON.stringify(key)}`);
  const { backend, wasmBinary, scratchBytes: scratch = SCRATCH_BYTES, float16Array = false, worker = false } = options;
  if (backend !== undefined && !BACKENDS.includes(backend)) invalid(`backend must be 'wasm-simd', 'wasm' or 'js', got ${describe(backend)}`);
  if (typeof scratch !== 'number' || !Number.isSafeInteger(scratch) || scratch < 4096 || scratch > 2 ** 30) {
    invalid(`scratchBytes must be an integer from 4096 to 2^30, got ${describe(scratch)}`);
  }
  if (wasmBinary !== undefined && !ArrayBuffer.isView(wasmBinary) && !isWasmModule(wasmBinary) &&
    Object.prototype.toString.call(wasmBinary) !== '[object ArrayBuffer]') {
    invalid(`wasmBinary must be an ArrayBuffer, a typed array or a WebAssembly.Module, got ${describe(wasmBinary)}`);
  }
  if (typeof float16Array !== 'boolean') invalid(`float16Array must be a boolean, got ${describe(float16Array)}`);
  if (backend === 'js' && wasmBinary !== undefined) invalid('wasmBinary is for the wasm backends');
  const Float16 = (globalThis as { Float16Array?: TypedArrayConstructor }).Float16Array;
  if (float16Array && typeof Float16 !== 'function') {
    unsupported('this runtime has no Float16Array (float16Array: true needs it)');
  }
  if (typeof worker !== 'boolean') invalid(`worker must be a boolean, got ${describe(worker)}`);
  return { backend, wasmBinary: wasmBinary as CheckedOptions['wasmBinary'], scratch, worker, float16: float16Array ? Float16 : undefined };
}
