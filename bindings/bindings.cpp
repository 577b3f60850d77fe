// The wasm module's surface. Tensors live in the module's heap; the JS layer
// (js/src/backend/wasm/abi.ts) owns every allocation and passes addresses.
//
//   max(desc)     -> status   ONNX Max over the descriptor's inputs into its
//                             output, whatever its op field holds
//   relu(desc)    -> status   ONNX Relu of its one input, the same way
//   run(desc)     -> status   the op the descriptor's op field names: the
//                             entry of every op without one of its own
//   alloc(bytes)  -> address, 0 when memory is exhausted
//   release(address)
//   heapInUse()   -> bytes currently allocated by malloc
//   simd()        -> 1 when built with wasm SIMD128
//
// Each function is registered with Embind under the name above (the module's
// Embind surface, for users of the raw module; -DONNX_OPS_EMBIND=OFF drops it)
// and is also a plain wasm export (`_onnx_ops_<name>`), which the JS layer
// calls: with -sDYNAMIC_EXECUTION=0, which a page under a strict
// Content-Security-Policy needs, Embind 3.1.6 cannot generate its fast
// invokers, and its generic ones cost many times a plain export's call.
// Status values are onnx_ops::Status.
//
// A call descriptor, the same for every op, is the onnx_ops::Call itself
// (src/ops.h), laid out in the heap by js/src/backend/wasm/descriptor.ts: the
// entries read it in place, with no parsing or copying. Its wasm32 layout,
// pinned below and named in js/src/backend/wasm/abi.ts (tests/js/abi.test.ts
// compares the two, the op ids with src/ops.h and the status codes with
// src/status.h):
//   Call   dtype@0 n@4 inputs@8 shapes@12 out@16 out_shape@20 op@28 (32 bytes)
//   Shape  dims@0 (int64 elements, 8-byte aligned) rank@4 (8 bytes)
// The entries check what they read (ranks, dims) before they use it.
#include <emscripten.h>
#ifdef ONNX_OPS_EMBIND
#include <emscripten/bind.h>
#endif
#include <malloc.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "../src/ops.h"
#include "../src/ops/elementwise.h"
#include "../src/ops/relu.h"
#include "../src/simd128.h"

namespace {
template <class T>
T* at(uint32_t address) {
  return reinterpret_cast<T*>(uintptr_t(address));
}

}  // namespace

#ifdef __wasm32__
static_assert(offsetof(onnx_ops::Call, dtype) == 0 && offsetof(onnx_ops::Call, n) == 4 &&
                  offsetof(onnx_ops::Call, inputs) == 8 && offsetof(onnx_ops::Call, shapes) == 12 &&
                  offsetof(onnx_ops::Call, out) == 16 && offsetof(onnx_ops::Call, out_shape) == 20 &&
                  offsetof(onnx_ops::Call, op) == 28 && sizeof(onnx_ops::Call) == 32,
              "js/src/backend/wasm/abi.ts names this layout");
static_assert(offsetof(onnx_ops::Shape, dims) == 0 && offsetof(onnx_ops::Shape, rank) == 4 &&
                  sizeof(onnx_ops::Shape) == 8,
              "js/src/backend/wasm/abi.ts names this layout");
#endif

extern "C" {

// Max and Relu have an entry each, calling their op's engine alone: one
// entry for every op (run(), which reads the op field) made one function of
// both engines, whose locals every call sets up (+7-15 % on a 16-element call).
EMSCRIPTEN_KEEPALIVE int32_t onnx_ops_max(uint32_t call) {
  return int32_t(onnx_ops::elementwise(*at<const onnx_ops::Call>(call), int32_t(onnx_ops::OpId::Max)));
}

EMSCRIPTEN_KEEPALIVE int32_t onnx_ops_relu(uint32_t call) { return int32_t(onnx_ops::relu(*at<const onnx_ops::Call>(call))); }

// Every other op, by the descriptor's op field: a new op needs no entry here.
EMSCRIPTEN_KEEPALIVE int32_t onnx_ops_run(uint32_t call) { return int32_t(onnx_ops::run(*at<const onnx_ops::Call>(call))); }

EMSCRIPTEN_KEEPALIVE uint32_t onnx_ops_alloc(uint32_t bytes) {
  void* p = nullptr;
  if (posix_memalign(&p, 16, bytes == 0 ? 16 : bytes) != 0) return 0;
  return uint32_t(reinterpret_cast<uintptr_t>(p));
}

EMSCRIPTEN_KEEPALIVE void onnx_ops_release(uint32_t address) { std::free(at<void>(address)); }

EMSCRIPTEN_KEEPALIVE uint32_t onnx_ops_heap_in_use() { return uint32_t(mallinfo().uordblks); }

EMSCRIPTEN_KEEPALIVE int32_t onnx_ops_simd() {
#if defined(ONNX_OPS_NATIVE_SIMD) && defined(ONNX_OPS_VECTOR)
  return 1;
#else
  return 0;
#endif
}

}  // extern "C"

#ifdef ONNX_OPS_EMBIND
EMSCRIPTEN_BINDINGS(onnx_ops) {
  emscripten::function("max", &onnx_ops_max);
  emscripten::function("relu", &onnx_ops_relu);
  emscripten::function("run", &onnx_ops_run);
  emscripten::function("alloc", &onnx_ops_alloc);
  emscripten::function("release", &onnx_ops_release);
  emscripten::function("heapInUse", &onnx_ops_heap_in_use);
  emscripten::function("simd", &onnx_ops_simd);
}
#endif  // ONNX_OPS_EMBIND
