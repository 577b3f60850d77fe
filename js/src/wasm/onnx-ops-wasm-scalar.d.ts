// The module built without SIMD128 (the `wasm-scalar` CMake preset): the same
// interface as the SIMD128 one, its own file in dist/ (scripts/build-js.mjs).
export { default } from './onnx-ops-wasm.js';
