// Embind surface of the wasm module. Tensors live in the module's heap; the
// JS layer (js/src/memory.ts) owns every allocation and passes addresses.
//
//   max(desc)                      -> status   (desc: call descriptor, below)
//   relu(dtype, x, out, count)     -> status
//   alloc(bytes)                   -> address, 0 when memory is exhausted
//   release(address)
//   heapInUse()                    -> bytes currently allocated by malloc
//   simd()                         -> true when built with wasm SIMD128
//
// The Max call descriptor is a run of int32 words in the heap:
//   dtype, n_inputs, out_address, out_rank, out_dims[out_rank],
//   then for each input: address, rank, dims[rank]
// Dims are element counts below 2^31 (the caller never sends empty outputs,
// and a non-empty tensor's dims are bounded by the 4 GiB address space).
#include <emscripten/bind.h>
#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

#include "../src/ops.h"

namespace {

using onnx_ops::Shape;
using onnx_ops::Status;

int32_t max_call(uintptr_t desc_address) {
  const int32_t* d = reinterpret_cast<const int32_t*>(desc_address);
  const int32_t dtype = d[0];
  const int n = d[1];
  if (n < 1) return int32_t(Status::BadArity);
  void* out = reinterpret_cast<void*>(uintptr_t(uint32_t(d[2])));
  const int out_rank = d[3];
  if (out_rank < 0 || out_rank > onnx_ops::kMaxRank) return int32_t(Status::BadShape);
  std::vector<int64_t> dims(d + 4, d + 4 + out_rank);
  const int32_t* p = d + 4 + out_rank;
  std::vector<const void*> data(static_cast<size_t>(n));
  std::vector<int> ranks(static_cast<size_t>(n));
  std::vector<size_t> starts(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    data[size_t(i)] = reinterpret_cast<const void*>(uintptr_t(uint32_t(p[0])));
    const int rank = p[1];
    if (rank < 0 || rank > onnx_ops::kMaxRank) return int32_t(Status::BadShape);
    ranks[size_t(i)] = rank;
    starts[size_t(i)] = dims.size();
    dims.insert(dims.end(), p + 2, p + 2 + rank);
    p += 2 + rank;
  }
  std::vector<Shape> shapes(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) shapes[size_t(i)] = Shape{dims.data() + starts[size_t(i)], ranks[size_t(i)]};
  const Shape out_shape{dims.data(), out_rank};
  return int32_t(onnx_ops::max_forward(dtype, n, data.data(), shapes.data(), out, out_shape));
}

int32_t relu_call(int32_t dtype, uintptr_t x, uintptr_t out, uint32_t count) {
  return int32_t(onnx_ops::relu_forward(dtype, reinterpret_cast<const void*>(x), reinterpret_cast<void*>(out),
                                        size_t(count)));
}

uintptr_t alloc(uint32_t bytes) {
  // 16-byte aligned so that every typed-array view and v128 access is aligned.
  void* p = nullptr;
  if (posix_memalign(&p, 16, bytes == 0 ? 16 : bytes) != 0) return 0;
  return reinterpret_cast<uintptr_t>(p);
}

void release(uintptr_t address) { std::free(reinterpret_cast<void*>(address)); }

uint32_t heap_in_use() { return uint32_t(mallinfo().uordblks); }

bool simd() {
#if defined(ONNX_OPS_NATIVE_SIMD) && defined(ONNX_OPS_VECTOR)
  return true;
#else
  return false;
#endif
}

}  // namespace

EMSCRIPTEN_BINDINGS(onnx_ops) {
  emscripten::function("max", &max_call);
  emscripten::function("relu", &relu_call);
  emscripten::function("alloc", &alloc);
  emscripten::function("release", &release);
  emscripten::function("heapInUse", &heap_in_use);
  emscripten::function("simd", &simd);
}
