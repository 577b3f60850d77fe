// Types of the Emscripten module built from bindings/bindings.cpp.
export interface OnnxOpsModule {
  max(descriptor: number): number;
  relu(dtype: number, x: number, out: number, count: number): number;
  alloc(bytes: number): number;
  release(address: number): void;
  heapInUse(): number;
  simd(): boolean;
  readonly HEAPU8: Uint8Array;
}

declare function createOnnxOpsModule(options?: { wasmBinary?: ArrayBuffer | Uint8Array }): Promise<OnnxOpsModule>;
export default createOnnxOpsModule;
