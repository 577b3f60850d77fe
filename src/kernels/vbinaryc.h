// An op of a run and one value c: out[i] = op(a[i], c). The value goes
// second (the configs swap it there for the ops that are symmetric, such as
// Max). Which of these loops runs for a value is src/config/'s.
#pragma once

#include <cstddef>

#include "kernel.h"

namespace onnx_ops {

// vbinaryc: the op policy's vector form against c's splat, four vectors a
// step when kBlocks (Max keeps the exact select of a float type to one
// vector a step, for its bytes: only a NaN c, which is rare, takes it). out
// may be exactly a; partial overlap is not allowed.
template <class Tr, template <class> class Op, bool kBlocks>
ONNX_OPS_KERNEL void vbinaryc(size_t n, const typename Tr::T* a, const typename Tr::T* c, typename Tr::T* out) {
  assert(n == 0 || (a && c && out));
  assert(same_or_apart(a, out, n));
  if (n == 0) return;
#ifdef ONNX_OPS_VECTOR
  using T = typename Tr::T;
  constexpr size_t kLanes = 16 / sizeof(T);
  const v128_t s = splat_value(*c);
  if constexpr (kBlocks) {
    ONNX_OPS_VECTOR_LOOP
    for (; n >= 4 * kLanes; n -= 4 * kLanes, a += 4 * kLanes, out += 4 * kLanes) {
      store4(out, [&](size_t k) { return Op<Tr>::vop(wasm_v128_load(a + k * kLanes), s); });
    }
  }
  ONNX_OPS_VECTOR_LOOP
  for (; n >= kLanes; n -= kLanes, a += kLanes, out += kLanes) wasm_v128_store(out, Op<Tr>::vop(wasm_v128_load(a), s));
#endif
  ONNX_OPS_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) out[i] = Op<Tr>::op1(a[i], *c);
}

// vbinaryc_nan: an op whose result is its first NaN operand (Max, Min) of a
// run and a NaN value c, which is the result wherever a is no NaN (a NaN a,
// first, wins). A scalar loop, inline in its caller: a NaN value is rare.
// out may be exactly a; partial overlap is not allowed.
template <class Tr>
inline void vbinaryc_nan(size_t n, const typename Tr::T* a, const typename Tr::T* c, typename Tr::T* out) {
  assert(n == 0 || (a && c && out && Tr::isnan1(*c)));
  assert(same_or_apart(a, out, n));
  ONNX_OPS_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) out[i] = Tr::isnan1(a[i]) ? a[i] : *c;
}

}  // namespace onnx_ops
