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
import type { TypedArrayConstructor } from './dtypes.js';
import { LENT } from './lent.js';
import type { WorkerOps } from './worker/client.js';
import { startWebWorker } from './worker/start.js';
import { type CreateOpsOptions, checkOptions, invalid, unsupported } from './options.js';

/**
 * Loads a fresh instance of the wasm module (in Node and in browsers) and
 * returns its operators. Instances are independent: tensors of one cannot be
 * used with another.
 */
export async function createOps(options?: CreateOpsOptions & { worker?: false }): Promise<Ops>;
export async function createOps(options: CreateOpsOptions & { worker: true }): Promise<WorkerOps>;
export async function createOps(options?: CreateOpsOptions): Promise<Ops | WorkerOps>;
export async function createOps(options: CreateOpsOptions = {}): Promise<Ops | WorkerOps> {
  const { backend, wasmBinary, scratch, worker, float16 } = checkOptions(options);
  if (worker) return workerOps(options);
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
 * One of the library's files that only the engines needing it load (each a
 * literal import(), which bundlers split off or inline and module loaders
 * resolve beside this file): where it cannot be loaded, UNSUPPORTED_ENGINE
 * naming it, with the loader's own reason (and, in a service worker, where
 * import() is never allowed, the rule and the ways round it).
 */
const load = <T>(file: string, get: () => Promise<T>): Promise<T> => Promise.resolve().then(get).catch((e: Error) =>
  unsupported(`could not load ${file}, a file of the library's, from beside its main file: ${e?.message ?? String(e)}${
    typeof (globalThis as { ServiceWorkerGlobalScope?: unknown }).ServiceWorkerGlobalScope === 'function'
      ? '; a service worker may not use dynamic import (HTML standard): bundle it, or import onnx-ops-wasm/js there' : ''}`));

/** Ops on the module built without SIMD128, a file of its own that only engines needing it load. */
async function scalarOps(scratch: number, float16: TypedArrayConstructor | undefined): Promise<Ops> {
  const { default: createScalar } = await load('onnx-ops-wasm-scalar.js', () => import('./wasm/onnx-ops-wasm-scalar.js'));
  return new Ops(new WasmBackend(await createScalar({ printErr: () => {} }), scratch, float16));
}

/** Ops on the JavaScript kernels, a file of their own that only engines needing them load. */
async function jsOps(float16: TypedArrayConstructor | undefined): Promise<Ops> {
  const { JsBackend } = await load('backend-js.js', () => import('./backend/js/backend.js'));
  return new Ops(new JsBackend(LENT, float16));
}

/** The worker form (worker/client.ts), a file of its own that only it loads; the worker runs createOps() with the same options, `worker` aside. */
async function workerOps({ worker: _, ...options }: CreateOpsOptions): Promise<WorkerOps> {
  const { createWorkerOps } = await load('worker-client.js', () => import('./worker/client.js'));
  return createWorkerOps(LENT, startWebWorker!, options);
}

export * from './public.js';
