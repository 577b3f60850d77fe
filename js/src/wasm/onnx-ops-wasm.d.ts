// Types of the Emscripten module built from bindings/bindings.cpp: the Embind
// functions, and the same functions as plain wasm exports (_onnx_ops_*).
// scripts/build-js.mjs resolves index.ts's import of it to the glue, given the wasm.
export interface OnnxOpsModule {
  max(descriptor: number): number;
  relu(descriptor: number): number;
  run(descriptor: number): number;
  alloc(bytes: number): number;
  release(address: number): void;
  heapInUse(): number;
  simd(): number;
  _onnx_ops_max(descriptor: number): number;
  _onnx_ops_relu(descriptor: number): number;
  _onnx_ops_run(descriptor: number): number;
  _onnx_ops_alloc(bytes: number): number;
  _onnx_ops_release(address: number): void;
  _onnx_ops_heap_in_use(): number;
  _onnx_ops_simd(): number;
  readonly HEAP8: Int8Array;
  readonly HEAPU8: Uint8Array;
  readonly HEAP16: Int16Array;
  readonly HEAPU16: Uint16Array;
  readonly HEAP32: Int32Array;
  readonly HEAPU32: Uint32Array;
  readonly HEAPF32: Float32Array;
  readonly HEAPF64: Float64Array;
}

declare function createOnnxOpsModule(options?: {
  wasmBinary?: ArrayBuffer | ArrayBufferView;
  printErr?: (text: string) => void;
  /** Emscripten's hook: instantiate the wasm with the glue's `imports`, then call `receive`. */
  instantiateWasm?: (imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance, module: WebAssembly.Module) => void) => object;
}): Promise<OnnxOpsModule>;
export default createOnnxOpsModule;

/**
 * The wasm as a WebAssembly.Module, where the bundler imported it as one (the
 * entry of the 'workerd' and 'edge-light' conditions; scripts/build-js.mjs),
 * else undefined.
 */
export declare const builtinModule: WebAssembly.Module | undefined;
