/**
 * onnx-ops-wasm: ONNX Max and Relu on WebAssembly SIMD, with fallbacks for
 * engines without SIMD128 or WebAssembly.
 *
 *   const ops = await createOps();
 *   ops.relu({ dtype: 'float32', shape: [2, 3], data: new Float32Array([-3, -1, 0, 1, 2, 3]) });
 *   ops.max([a, b, c], { opset: 13 });
 */
import createOnnxOpsModule from './wasm/onnx-ops-wasm.js';
import { Ops } from './api/ops.js';
import { isOpsModule } from './backend/wasm/exports.js';
import { WasmBackend } from './backend/wasm/backend.js';
import { OnnxOpsError, describe } from './errors.js';
import { SCRATCH_BYTES } from './backend/wasm/plain.js';
import { type TypedArrayConstructor, bufferOf, byteOffsetOf, copyInto } from './dtypes.js';
import { WasmTensor } from './api/tensor.js';
import type { BackendName } from './backend/backend.js';
import type { WorkerOps } from './worker/client.js';
import { startWebWorker } from './worker/start.js';
import { checkOwnTensor } from './check/input.js';

export interface CreateOpsOptions {
  /** The module's wasm bytes, if you load them yourself (they are built into the package otherwise). */
  wasmBinary?: ArrayBuffer | ArrayBufferView;
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

const OPTIONS = ['wasmBinary', 'scratchBytes', 'float16Array', 'backend', 'worker'];
const BACKENDS: readonly BackendName[] = ['wasm-simd', 'wasm', 'js'];

/** Rejects createOps() for what the runtime lacks. */
const unsupported = (problem: string): never => {
  throw new OnnxOpsError('UNSUPPORTED_ENGINE', 'createOps', undefined, problem);
};

/**
 * Loads a fresh instance of the wasm module (in Node and in browsers) and
 * returns its operators. Instances are independent: tensors of one cannot be
 * used with another.
 */
export async function createOps(options?: CreateOpsOptions & { worker?: false }): Promise<Ops>;
export async function createOps(options: CreateOpsOptions & { worker: true }): Promise<WorkerOps>;
export async function createOps(options?: CreateOpsOptions): Promise<Ops | WorkerOps>;
export async function createOps(options: CreateOpsOptions = {}): Promise<Ops | WorkerOps> {
  const invalid = (problem: string): never => {
    throw new OnnxOpsError('INVALID_ARGUMENT', 'createOps', undefined, problem);
  };
  if (options === null || typeof options !== 'object') invalid(`options must be an object, got ${describe(options)}`);
  for (const key of Object.keys(options)) if (!OPTIONS.includes(key)) invalid(`unknown option ${JSON.stringify(key)}`);
  const { backend, wasmBinary, scratchBytes: scratch = SCRATCH_BYTES, float16Array = false, worker = false } = options;
  if (backend !== undefined && !BACKENDS.includes(backend)) invalid(`backend must be 'wasm-simd', 'wasm' or 'js', got ${describe(backend)}`);
  if (typeof scratch !== 'number' || !Number.isSafeInteger(scratch) || scratch < 4096 || scratch > 2 ** 30) {
    invalid(`scratchBytes must be an integer from 4096 to 2^30, got ${describe(scratch)}`);
  }
  if (wasmBinary !== undefined && !ArrayBuffer.isView(wasmBinary) &&
    Object.prototype.toString.call(wasmBinary) !== '[object ArrayBuffer]') {
    invalid(`wasmBinary must be an ArrayBuffer or a typed array, got ${describe(wasmBinary)}`);
  }
  if (typeof float16Array !== 'boolean') invalid(`float16Array must be a boolean, got ${describe(float16Array)}`);
  if (backend === 'js' && wasmBinary !== undefined) invalid('wasmBinary is for the wasm backends');
  const Float16 = (globalThis as { Float16Array?: TypedArrayConstructor }).Float16Array;
  if (float16Array && typeof Float16 !== 'function') {
    unsupported('this runtime has no Float16Array (float16Array: true needs it)');
  }
  if (typeof worker !== 'boolean') invalid(`worker must be a boolean, got ${describe(worker)}`);
  if (worker) return workerOps({ backend, wasmBinary, scratchBytes: scratch, float16Array });
  const float16 = float16Array ? Float16 : undefined;
  if (backend === 'js') return jsOps(float16);
  // What the engine can run, probed before anything is inflated or compiled:
  // whether it compiles wasm at all (no WebAssembly, a JIT-less mode, or a
  // Content-Security-Policy without 'wasm-unsafe-eval' refuse the smallest
  // module, its first 8 bytes), then a module with a v128 instruction (i8x16.splat).
  const wasm = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
  const probe = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11]);
  try {
    new wasm!.Module(probe.subarray(0, 8));
  } catch {
    if (backend !== undefined || wasmBinary !== undefined) {
      unsupported('this engine cannot compile WebAssembly (none, JIT-less, or a CSP without \'wasm-unsafe-eval\')');
    }
    return jsOps(float16);
  }
  const simd = wasm!.validate(probe);
  const noSimd = 'this engine has no WebAssembly SIMD128 (Chrome and Edge 91+, Firefox 89+, Safari 16.4+ and Node 16.4+ have it)';
  if (backend === 'wasm-simd' && !simd) unsupported(noSimd);
  if (wasmBinary === undefined && (backend === 'wasm' || (backend === undefined && !simd))) return scalarOps(scratch, float16);
  // Load errors come back as the rejection; Emscripten's own messages about
  // them (printErr) would only repeat it on the console.
  const quiet = { printErr: () => {} };
  let module;
  try {
    module = await createOnnxOpsModule(wasmBinary === undefined ? quiet : { ...quiet, wasmBinary });
  } catch (e) {
    if (wasmBinary === undefined) {
      // The loader names what the runtime lacks to inflate the built-in wasm
      // (see scripts/build-js.mjs); the scalar module, not compressed, runs there.
      const missing = (e as { missing?: unknown } | null)?.missing;
      if (typeof missing !== 'string') throw e;
      if (backend === undefined) return scalarOps(scratch, float16);
      unsupported(`this runtime lacks ${missing} to inflate the built-in wasm: pass the bytes of onnx-ops-wasm/wasm as wasmBinary`);
    }
    if (!simd) unsupported(noSimd);
    return invalid(`wasmBinary did not load: ${(e as Error)?.message ?? String(e)}`);
  }
  if (!isOpsModule(module)) invalid('wasmBinary is not this package\'s wasm (onnx-ops-wasm/wasm)');
  return new Ops(new WasmBackend(module, scratch, float16));
}

/**
 * One of the files loaded only where needed, beside the library's file: not
 * there is UNSUPPORTED_ENGINE naming it. (In a then(), so that a URL that
 * cannot be made, import.meta.url left empty by a bundle's CommonJS output,
 * rejects alike.)
 */
const load = <T>(file: string, get: () => Promise<T>): Promise<T> => Promise.resolve().then(get).catch((e: Error) =>
  unsupported(`could not load ${file} beside the library's file (a bundler that does not copy new URL() files, such as esbuild, needs it copied beside the bundle): ${e?.message}`));

/** Ops on the module built without SIMD128, a file of its own that only engines needing it load. */
async function scalarOps(scratch: number, float16: TypedArrayConstructor | undefined): Promise<Ops> {
  const { default: createScalar } = await load('onnx-ops-wasm-scalar.js', () => import('./wasm/onnx-ops-wasm-scalar.js'));
  return new Ops(new WasmBackend(await createScalar({ printErr: () => {} }), scratch, float16));
}

/** Ops on the JavaScript kernels, a file of their own that only engines needing them load. */
async function jsOps(float16: TypedArrayConstructor | undefined): Promise<Ops> {
  const { JsBackend } = await load('backend-js.js', () => import('./backend/js/backend.js'));
  return new Ops(new JsBackend({ WasmTensor, OnnxOpsError, bufferOf, byteOffsetOf, copyInto }, float16));
}

/** The worker form (worker/client.ts), a file of its own that only it loads; the worker runs createOps(options) itself. */
async function workerOps(options: CreateOpsOptions): Promise<WorkerOps> {
  const { createWorkerOps } = await load('worker-client.js', () => import('./worker/client.js'));
  const given = Object.fromEntries(Object.entries(options).filter(([, v]) => v !== undefined));
  return createWorkerOps({ Ops, WasmTensor, OnnxOpsError, copyInto, bufferOf, byteOffsetOf, checkOwnTensor, startWebWorker: startWebWorker! }, given);
}

export { Ops } from './api/ops.js';
export type { WorkerOps, TransferOption } from './worker/client.js';
export { WasmTensor };
export type { BackendName } from './backend/backend.js';
export { OnnxOpsError, ERROR_CODES, type ErrorCode } from './errors.js';
export {
  type DType, type TypedArray, DTYPES, DTYPE_INFO, toDType,
  float16ToNumber, numberToFloat16, bfloat16ToNumber, numberToBfloat16,
  encodeFloat16, decodeFloat16, encodeBfloat16, decodeBfloat16,
} from './dtypes.js';
export { type OpName, OP_VERSIONS, opVersion, supportedDtypes, firstVersionWith } from './check/opsets.js';
export { type Tensor, type OrtTensorLike, type TensorLike, type PlainTensorLike, type OpOptions, type Result } from './api/types.js';
export { broadcastShapes, MAX_RANK } from './check/shape.js';
export {
  toOrt, type OrtType, type OrtDataTypeMap, type OrtTensorData, type OrtTensorConstructor, type ToOrtOptions,
} from './api/interop.js';
