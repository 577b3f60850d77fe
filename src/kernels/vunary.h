// vunary: out[i] = op(x[i]) by the op policy's vector form (policies.h), two
// 4-vector blocks an iteration. out may be exactly x; partial overlap is not
// allowed.
#pragma once

#include <cstddef>

#include "kernel.h"

namespace onnx_ops {

template <class Tr, template <class> class Op>
ONNX_OPS_KERNEL void vunary(size_t n, const typename Tr::T* x, typename Tr::T* out) {
  assert(n == 0 || (x && out));
  assert(same_or_apart(x, out, n));
#ifdef ONNX_OPS_VECTOR
  using T = typename Tr::T;
  constexpr size_t kLanes = 16 / sizeof(T);
  ONNX_OPS_TWO_BLOCK_LOOP
  for (; n >= 4 * kLanes; n -= 4 * kLanes, x += 4 * kLanes, out += 4 * kLanes) {
    store4(out, [&](size_t k) { return Op<Tr>::vop(wasm_v128_load(x + k * kLanes)); });
  }
  ONNX_OPS_VECTOR_LOOP
  for (; n >= kLanes; n -= kLanes, x += kLanes, out += kLanes) wasm_v128_store(out, Op<Tr>::vop(wasm_v128_load(x)));
#else
  // Without the vector path, eight elements a step by pointers: the loop's
  // own instructions (an index's among them) cost about as much as an element.
  ONNX_OPS_VECTOR_LOOP
  for (; n >= 8; n -= 8, x += 8, out += 8) {
    for (size_t k = 0; k < 8; ++k) out[k] = Op<Tr>::op1(x[k]);
  }
#endif
  ONNX_OPS_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) out[i] = Op<Tr>::op1(x[i]);
}

}  // namespace onnx_ops
