// The wasm module's surface. Tensors live in the module's heap; the JS layer
// (js/src/abi.ts) owns every allocation and passes addresses.
//
//   max(desc)     -> status   ONNX Max of the descriptor's inputs into its output
//   relu(desc)    -> status   ONNX Relu of its one input
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
// A descriptor, the same for both ops, is a run of int32 words in the heap:
//   dtype, n_inputs, out_address, out_rank, out_dims[out_rank],
//   then for each input: address, rank, dims[rank]
// Dims are element counts below 2^31 (no tensor in wasm memory, nor any chunk
// of the plain path, reaches 2 GiB).
#include <emscripten.h>
#ifdef ONNX_OPS_EMBIND
#include <emscripten/bind.h>
#endif
#include <malloc.h>

#include <cstdint>
#include <cstdlib>

#include "../src/ops.h"
#include "../src/simd128.h"
#include "../src/small_buf.h"

using onnx_ops::SmallBuf;
using onnx_ops::Shape;
using onnx_ops::Status;

namespace {
template <class T>
T* at(uint32_t address) {
  return reinterpret_cast<T*>(uintptr_t(address));
}

// Reads a descriptor (see above) into a Call and runs `op` on it.
int32_t with_call(uint32_t desc_address, Status (*op)(const onnx_ops::Call&)) {
  const int32_t* d = at<const int32_t>(desc_address);
  const int n = d[1];
  const int out_rank = d[3];
  if (n < 1) return int32_t(Status::BadArity);
  if (out_rank < 0 || out_rank > onnx_ops::kMaxRank) return int32_t(Status::BadShape);
  // First pass: check the ranks and count the dims, for one allocation.
  size_t total = size_t(out_rank);
  const int32_t* p = d + 4 + out_rank;
  for (int i = 0; i < n; ++i) {
    const int rank = p[1];
    if (rank < 0 || rank > onnx_ops::kMaxRank) return int32_t(Status::BadShape);
    total += size_t(rank);
    p += 2 + rank;
  }
  SmallBuf<int64_t, 64> dims(total);
  SmallBuf<Shape, 16> shapes(static_cast<size_t>(n));
  SmallBuf<const void*, 16> data(static_cast<size_t>(n));
  int64_t* q = dims.data();
  for (int k = 0; k < out_rank; ++k) q[k] = d[4 + k];
  const Shape out_shape{q, out_rank};
  q += out_rank;
  p = d + 4 + out_rank;
  for (int i = 0; i < n; ++i) {
    const int rank = p[1];
    data[size_t(i)] = at<const void>(uint32_t(p[0]));
    for (int k = 0; k < rank; ++k) q[k] = p[2 + k];
    shapes[size_t(i)] = Shape{q, rank};
    q += rank;
    p += 2 + rank;
  }
  return int32_t(op(onnx_ops::Call{d[0], n, data.data(), shapes.data(), at<void>(uint32_t(d[2])), out_shape}));
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE int32_t onnx_ops_max(uint32_t desc) { return with_call(desc, onnx_ops::max); }

EMSCRIPTEN_KEEPALIVE int32_t onnx_ops_relu(uint32_t desc) { return with_call(desc, onnx_ops::relu); }

// 16-byte aligned, so that every typed-array view and v128 access is aligned.
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
  emscripten::function("alloc", &onnx_ops_alloc);
  emscripten::function("release", &onnx_ops_release);
  emscripten::function("heapInUse", &onnx_ops_heap_in_use);
  emscripten::function("simd", &onnx_ops_simd);
}
#endif  // ONNX_OPS_EMBIND
