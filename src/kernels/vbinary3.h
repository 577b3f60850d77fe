// vbinary3: out[i] = op(op(a[i], b[i]), c[i]) over three runs in one pass,
// by the op policy's vector form, one vector a step. The fold is left to
// right (for Max, the first NaN still wins). out may be exactly one input;
// partial overlap is not allowed.
#pragma once

#include <cstddef>

#include "kernel.h"

namespace onnx_ops {

template <class Tr, template <class> class Op>
ONNX_OPS_KERNEL void vbinary3(size_t n, const typename Tr::T* a, const typename Tr::T* b, const typename Tr::T* c,
                              typename Tr::T* out) {
  assert(n == 0 || (a && b && c && out));
  assert(same_or_apart(a, out, n) && same_or_apart(b, out, n) && same_or_apart(c, out, n));
#ifdef ONNX_OPS_VECTOR
  constexpr size_t kLanes = 16 / sizeof(typename Tr::T);
  ONNX_OPS_VECTOR_LOOP
  for (; n >= kLanes; n -= kLanes, a += kLanes, b += kLanes, c += kLanes, out += kLanes)
    wasm_v128_store(out, Op<Tr>::vop(Op<Tr>::vop(wasm_v128_load(a), wasm_v128_load(b)), wasm_v128_load(c)));
#endif
  ONNX_OPS_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) out[i] = Op<Tr>::op1(Op<Tr>::op1(a[i], b[i]), c[i]);
}

}  // namespace onnx_ops
