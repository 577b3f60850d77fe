// Half16MaxNonNan<Tr>: the Max policy (policies.h) for float16/bfloat16 that
// vbinaryc runs against a repeated value that is no NaN.
#pragma once

#include "kernel.h"
#include "max_fast.h"
#include "policies.h"

namespace onnx_ops {

// Max(a, c) for float16/bfloat16 and a c that is no NaN: the fast formula
// (max_fast.h) is exact then, but for an a that is a NaN with the sign
// set (it yields c). Read as int16, those a are exactly the negative ones
// above -inf's pattern; a & (a > -inf) keeps them and the non-negative a, and
// an unsigned max with the result lets them through: a non-negative a is never
// above the max as unsigned. Seven instructions per vector, no checks.
template <class Tr>
struct Half16MaxNonNan : MaxOp<Tr> {
#ifdef ONNX_OPS_VECTOR
  static v128_t vop(v128_t a, v128_t b) {
    typename MaxFast<Tr>::Flags unused;
    const v128_t r = MaxFast<Tr>::vop_fast(a, b, unused);
    const v128_t above_minus_inf = wasm_i16x8_gt(a, wasm_i16x8_splat(int16_t(0x8000 | Tr::kInf)));
    return wasm_u16x8_max(r, wasm_v128_and(a, simd_opaque(above_minus_inf)));
  }
#endif
};

}  // namespace onnx_ops
