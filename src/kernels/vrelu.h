// vrelu: out[i] = relu(x[i]). out may be x.
#pragma once

#include <cstddef>

#include "kernel.h"
#include "vmaxc.h"

namespace onnx_ops {

template <class Tr>
ONNX_OPS_KERNEL void vrelu(size_t n, const typename Tr::T* x, typename Tr::T* out) {
  using T = typename Tr::T;
  if constexpr (Tr::kFormat == Format::Integer && sizeof(T) <= 4) {
    // A one-instruction vector max and no vrelu: Relu is Max with zero, its code shared.
    const T zero = 0;
    vmaxc_lanes<Tr, true>(n, x, &zero, out);
  } else {
#ifdef ONNX_OPS_VECTOR
    constexpr size_t kLanes = 16 / sizeof(T);
    ONNX_OPS_TWO_BLOCK_LOOP
    for (; n >= 4 * kLanes; n -= 4 * kLanes, x += 4 * kLanes, out += 4 * kLanes) {
      store4(out, [&](size_t k) { return Tr::vrelu(wasm_v128_load(x + k * kLanes)); });
    }
    ONNX_OPS_VECTOR_LOOP
    for (; n >= kLanes; n -= kLanes, x += kLanes, out += kLanes) wasm_v128_store(out, Tr::vrelu(wasm_v128_load(x)));
#endif
    ONNX_OPS_SCALAR_LOOP
    for (size_t i = 0; i < n; ++i) out[i] = Tr::relu1(x[i]);
  }
}

}  // namespace onnx_ops
