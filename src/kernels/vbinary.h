// vbinary: out[i] = op(a[i], b[i]) over two runs, by the op policy's vector
// form (policies.h), four vectors a step. out may be exactly a or b (in
// place); partial overlap is not allowed.
#pragma once

#include <cstddef>

#include "kernel.h"

namespace onnx_ops {

template <class Tr, template <class> class Op>
ONNX_OPS_KERNEL void vbinary(size_t n, const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out) {
  assert(n == 0 || (a && b && out));
  assert(same_or_apart(a, out, n) && same_or_apart(b, out, n));
  if (n == 0) return;
#ifdef ONNX_OPS_VECTOR
  using T = typename Tr::T;
  constexpr size_t kLanes = 16 / sizeof(T);
  ONNX_OPS_VECTOR_LOOP
  for (; n >= 4 * kLanes; n -= 4 * kLanes, a += 4 * kLanes, b += 4 * kLanes, out += 4 * kLanes) {
    store4(out, [&](size_t k) { return Op<Tr>::vop(wasm_v128_load(a + k * kLanes), wasm_v128_load(b + k * kLanes)); });
  }
  ONNX_OPS_VECTOR_LOOP
  for (; n >= kLanes; n -= kLanes, a += kLanes, b += kLanes, out += kLanes)
    wasm_v128_store(out, Op<Tr>::vop(wasm_v128_load(a), wasm_v128_load(b)));
#else
  // Without the vector path, four elements a step by pointers, as vunary.
  ONNX_OPS_VECTOR_LOOP
  for (; n >= 4; n -= 4, a += 4, b += 4, out += 4) {
    for (size_t k = 0; k < 4; ++k) out[k] = Op<Tr>::op1(a[k], b[k]);
  }
#endif
  ONNX_OPS_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) out[i] = Op<Tr>::op1(a[i], b[i]);
}

}  // namespace onnx_ops
