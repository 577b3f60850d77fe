// PmaxClean<Tr>: the Max policy (policies.h) for float32/float64 whose vop
// is pmax alone, exact when every second operand is clean: neither NaN nor
// +0 (checked once, by clean or clean_all). A NaN first operand is returned
// as is; -0 against +0 cannot occur with -0 first; any other tie has equal
// bits (and +0 against -0 keeps the +0). Max's config runs the row kernels
// (vbinary_rows.h) with it.
#pragma once

#include <cmath>
#include <cstddef>

#include "kernel.h"
#include "policies.h"

namespace onnx_ops {

template <class Tr>
struct PmaxClean : MaxOp<Tr> {
  using F = typename Tr::T;
  static bool clean(F b) { return b == b && !(b == F(0) && !std::signbit(b)); }
  // Whether every x[0..n) is clean. Vectors: a running sum, NaN iff some
  // value was a NaN (or, rarely, +inf and -inf met: then "not clean", which
  // costs only the faster path), and a +0 mark: float32's +0 is the lowest
  // uint32, so the unsigned minimum of the values holds 0 iff one was +0
  // (float64: a mask of +0s, merged by or). Four vectors per step (one sum
  // would be a chain of adds); the last few values go one by one.
  static bool clean_all(size_t n, const F* x) {
#ifdef ONNX_OPS_VECTOR
    using L = IeeeLanes<F>;
    constexpr bool kFloat32 = sizeof(F) == 4;
    constexpr size_t kLanes = 16 / sizeof(F);
    auto mark = [](v128_t v) { return kFloat32 ? v : L::is_pos_zero(v); };
    auto merge = [](v128_t p, v128_t q) { return kFloat32 ? wasm_u32x4_min(p, q) : wasm_v128_or(p, q); };
    v128_t sum = wasm_i32x4_splat(0), zero = wasm_i32x4_splat(kFloat32 ? -1 : 0);
    for (; n >= 4 * kLanes; n -= 4 * kLanes, x += 4 * kLanes) {
      const v128_t a = wasm_v128_load(x), b = wasm_v128_load(x + kLanes);
      const v128_t c = wasm_v128_load(x + 2 * kLanes), d = wasm_v128_load(x + 3 * kLanes);
      sum = L::add(sum, L::add(L::add(a, b), L::add(c, d)));
      zero = merge(zero, merge(merge(mark(a), mark(b)), merge(mark(c), mark(d))));
    }
    const bool saw_zero = wasm_v128_any_true(kFloat32 ? L::is_pos_zero(zero) : zero);
    if (wasm_v128_any_true(L::ne(sum, sum)) || saw_zero) return false;
#endif
    for (size_t i = 0; i < n; ++i)
      if (!clean(x[i])) return false;
    return true;
  }
#ifdef ONNX_OPS_VECTOR
  static v128_t vop(v128_t a, v128_t b) { return IeeeLanes<F>::pmax(a, b); }
#endif
};

}  // namespace onnx_ops
