/**
 * onnx-ops-wasm: ONNX Max and Relu on WebAssembly SIMD, with fallbacks for
 * engines without SIMD128 or WebAssembly.
 *
 *   const ops = await createOps();
 *   ops.relu({ dtype: 'float32', shape: [2, 3], data: new Float32Array([-3, -1, 0, 1, 2, 3]) });
 *   ops.max([a, b, c], { opset: 13 });
 */
import createOnnxOpsModule, { builtinModule } from './wasm/onnx-ops-wasm.js';
import { Ops } from './api/ops.js';
import { isOpsModule } from './backend/wasm/exports.js';
import { WasmBackend } from './backend/wasm/backend.js';
import type { TypedArrayConstructor } from './dtypes.js';
import { LENT } from './lent.js';
import type { WorkerOps } from './worker/client.js';
import { startWebWorker } from './worker/start.js';
import { type CheckedOptions, type CreateOpsOptions, NOT_OURS, checkOptions, invalid, isWasmModule, unsupported } from './options.js';

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
  const wasm = (globalThis as { WebAssembly?: typeof WebAssembly }).WebAssembly;
  const noWasm = 'this engine cannot compile WebAssembly: it has none (interpreters, JIT-less modes)';
  // A compiled module, given or imported by the bundler (the entry of the
  // 'workerd' and 'edge-light' conditions), is instantiated as it is: hosts
  // that forbid compiling from bytes run it.
  const compiled = isWasmModule(wasmBinary) ? wasmBinary : wasmBinary || backend === 'wasm' ? undefined : builtinModule;
  if (compiled) {
    if (!wasm) unsupported(noWasm);
    return wasmOps(compiled, wasmBinary, scratch, float16);
  }
  // What the engine can run, probed before anything is inflated or compiled:
  // whether it compiles wasm from bytes at all (its first 8 bytes), then a
  // module with a v128 instruction (i8x16.splat).
  const probe = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 8, 1, 6, 0, 65, 0, 253, 15, 11]);
  let refused: string | undefined;
  try {
    new wasm!.Module(probe.subarray(0, 8));
  } catch (e) {
    // Why, from the engine's own error (a host's rule, a CSP), in a file that only such hosts load.
    refused = wasm ? (await host()).refusal(e, !!builtinModule) : noWasm;
  }
  if (refused) {
    if (backend !== undefined || wasmBinary !== undefined) unsupported(refused);
    return jsOps(float16, refused);
  }
  const simd = wasm!.validate(probe);
  const noSimd = 'this engine has no WebAssembly SIMD128 (Chrome and Edge 91+, Firefox 89+, Safari 16.4+ and Node 16.4+ have it)';
  if (backend === 'wasm-simd' && !simd) unsupported(noSimd);
  if (wasmBinary === undefined && (backend === 'wasm' || (backend === undefined && !simd))) return scalarOps(scratch, float16, backend ? undefined : noSimd);
  try {
    return await wasmOps(wasmBinary, wasmBinary, scratch, float16);
  } catch (e) {
    // The loader names what the runtime lacks to inflate the built-in wasm
    // (see scripts/build-js.mjs); the scalar module, not compressed, runs there.
    const missing = (e as { missing?: unknown } | null)?.missing;
    if (wasmBinary !== undefined || typeof missing !== 'string') {
      if (wasmBinary !== undefined && !simd) unsupported(noSimd);
      throw e;
    }
    const lacks = `this runtime lacks ${missing} to inflate the built-in wasm`;
    if (backend === undefined) return scalarOps(scratch, float16, lacks);
    return unsupported(`${lacks}: pass the bytes of onnx-ops-wasm/wasm as wasmBinary`);
  }
}

/**
 * Ops on the SIMD module: from `source` (bytes, a compiled module, or
 * undefined for the built-in bytes); `given`, the wasmBinary option, whose
 * failures are INVALID_ARGUMENT.
 */
async function wasmOps(source: CheckedOptions['wasmBinary'], given: unknown, scratch: number, float16: TypedArrayConstructor | undefined): Promise<Ops> {
  // Load errors come back as the rejection; Emscripten's own messages about
  // them (printErr) would only repeat it on the console.
  const options: Parameters<typeof createOnnxOpsModule>[0] = { printErr: () => {} };
  // A compiled module through the glue's hook, whose failures come back as `failed`.
  let failed: Promise<never> | undefined;
  if (isWasmModule(source)) failed = (await host()).instantiateFrom(source, options);
  else if (source) options.wasmBinary = source;
  let module;
  try {
    module = await (failed ? Promise.race([failed, createOnnxOpsModule(options)]) : createOnnxOpsModule(options));
  } catch (e) {
    if (given === undefined) {
      if (!failed) throw e;
      unsupported(`the built-in wasm, imported as a WebAssembly.Module, did not load: ${(e as Error)?.message ?? String(e)}`);
    }
    if (e === NOT_OURS) invalid(NOT_OURS);
    invalid(`wasmBinary did not load: ${(e as Error)?.message ?? String(e)}`);
  }
  if (!isOpsModule(module!)) invalid(NOT_OURS);
  return new Ops(new WasmBackend(module!, scratch, float16));
}

/** The rare paths: a compiled module, a refusal to compile (backend/wasm/host.ts). */
const host = () => load('wasm-host.js', () => import('./backend/wasm/host.js'));

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
async function scalarOps(scratch: number, float16: TypedArrayConstructor | undefined, reason?: string): Promise<Ops> {
  const { default: createScalar } = await load('onnx-ops-wasm-scalar.js', () => import('./wasm/onnx-ops-wasm-scalar.js'));
  return new Ops(new WasmBackend(await createScalar({ printErr: () => {} }), scratch, float16), reason);
}

/** Ops on the JavaScript kernels, a file of their own that only engines needing them load. */
async function jsOps(float16: TypedArrayConstructor | undefined, reason?: string): Promise<Ops> {
  const { JsBackend } = await load('backend-js.js', () => import('./backend/js/backend.js'));
  return new Ops(new JsBackend(LENT, float16), reason);
}

/** The worker form (worker/client.ts), a file of its own that only it loads; the worker runs createOps() with the same options, `worker` aside. */
async function workerOps({ worker: _, ...options }: CreateOpsOptions): Promise<WorkerOps> {
  const { createWorkerOps } = await load('worker-client.js', () => import('./worker/client.js'));
  return createWorkerOps(LENT, startWebWorker!, options);
}

export * from './public.js';
