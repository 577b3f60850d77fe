// The wasm module's surface. Tensors live in the module's heap; the JS layer
// (js/src/memory.ts) owns every allocation and passes addresses.
//
//   max(desc)                       -> status   general Max (descriptor below)
//   maxFlat(dtype, n, desc, out, count) -> status   Max of same-layout inputs and scalars
//   relu(dtype, x, out, count)      -> status
//   alloc(bytes)                    -> address, 0 when memory is exhausted
//   release(address)
//   heapInUse()                     -> bytes currently allocated by malloc
//   simd()                          -> true when built with wasm SIMD128
//
// Each function is registered with Embind under the name above (the module's
// Embind surface, for users of the raw module; -DONNX_OPS_EMBIND=OFF drops it)
// and is also a plain wasm export (`_onnx_ops_<name>`), which the JS layer
// calls on its hot paths: with -sDYNAMIC_EXECUTION=0, which a page under a
// strict Content-Security-Policy needs, Embind 3.1.6 cannot generate its fast
// invokers, and a call through its generic ones costs many times a plain
// export's. Status values are onnx_ops::Status.
//
// The general Max descriptor is a run of int32 words in the heap:
//   dtype, n_inputs, out_address, out_rank, out_dims[out_rank],
//   then for each input: address, rank, dims[rank]
// The flat descriptor is, for each input: address, is_scalar (0 or 1).
// Dims are element counts below 2^31 (the caller never sends empty outputs,
// and no tensor in wasm memory, nor any chunk of the plain path, reaches 2 GiB).
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
}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE int32_t onnx_ops_max(uint32_t desc_address) {
  const int32_t* d = at<const int32_t>(desc_address);
  const int32_t dtype = d[0];
  const int n = d[1];
  if (n < 1) return int32_t(Status::BadArity);
  void* out = at<void>(uint32_t(d[2]));
  const int out_rank = d[3];
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
  return int32_t(onnx_ops::max_forward(dtype, n, data.data(), shapes.data(), out, out_shape));
}

EMSCRIPTEN_KEEPALIVE int32_t onnx_ops_max_flat(int32_t dtype, int32_t n, uint32_t desc_address, uint32_t out,
                                               uint32_t count) {
  if (n < 1) return int32_t(Status::BadArity);
  SmallBuf<const void*, 16> data(static_cast<size_t>(n));
  SmallBuf<unsigned char, 16> scalar(static_cast<size_t>(n));
  const int32_t* d = at<const int32_t>(desc_address);
  for (int i = 0; i < n; ++i) {
    data[i] = at<const void>(uint32_t(d[2 * i]));
    scalar[i] = d[2 * i + 1] != 0;
  }
  return int32_t(onnx_ops::max_forward_flat(dtype, n, data.data(), scalar.data(), at<void>(out), size_t(count)));
}

EMSCRIPTEN_KEEPALIVE int32_t onnx_ops_relu(int32_t dtype, uint32_t x, uint32_t out, uint32_t count) {
  return int32_t(onnx_ops::relu_forward(dtype, at<const void>(x), at<void>(out), size_t(count)));
}

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
  emscripten::function("maxFlat", &onnx_ops_max_flat);
  emscripten::function("relu", &onnx_ops_relu);
  emscripten::function("alloc", &onnx_ops_alloc);
  emscripten::function("release", &onnx_ops_release);
  emscripten::function("heapInUse", &onnx_ops_heap_in_use);
  emscripten::function("simd", &onnx_ops_simd);
}
#endif  // ONNX_OPS_EMBIND
