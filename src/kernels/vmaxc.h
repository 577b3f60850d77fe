// vmaxc: out[i] = max(a[i], c) for one value c, which goes second: callers
// swap a NaN-free first value in (max is symmetric bit for bit but for two
// NaNs). out may be a. The value picks the loop: +0 makes it Relu; for the
// IEEE types any other non-NaN c makes pmax exact (PmaxClean), one
// instruction per vector; for float16/bfloat16 a non-NaN c makes a
// seven-instruction select exact (Half16MaxNonNan).
#pragma once

#include <cstddef>
#include <cstring>

#include "kernel.h"
#include "pmax.h"
#include "vmax_checked.h"
#include "vmax_rows.h"

namespace onnx_ops {

template <class Tr>
void vrelu(size_t n, const typename Tr::T* x, typename Tr::T* out);  // vrelu.h

// Tr::vmax against c's splat: four vectors a step when kBlocks (the exact
// select of a float type is kept to one vector a step, for its bytes: only a
// NaN c, which is rare, takes it).
template <class Tr, bool kBlocks>
ONNX_OPS_KERNEL void vmaxc_lanes(size_t n, const typename Tr::T* a, const typename Tr::T* c, typename Tr::T* out) {
  if (n == 0) return;
#ifdef ONNX_OPS_VECTOR
  using T = typename Tr::T;
  constexpr size_t kLanes = 16 / sizeof(T);
  const v128_t s = splat_value(*c);
  if constexpr (kBlocks) {
    ONNX_OPS_VECTOR_LOOP
    for (; n >= 4 * kLanes; n -= 4 * kLanes, a += 4 * kLanes, out += 4 * kLanes) {
      store4(out, [&](size_t k) { return Tr::vmax(wasm_v128_load(a + k * kLanes), s); });
    }
  }
  ONNX_OPS_VECTOR_LOOP
  for (; n >= kLanes; n -= kLanes, a += kLanes, out += kLanes) wasm_v128_store(out, Tr::vmax(wasm_v128_load(a), s));
#endif
  ONNX_OPS_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) out[i] = Tr::max1(a[i], *c);
}

// Max(a, c) for float16/bfloat16 and a c that is no NaN: the fast formula
// (vmax_checked.h) is exact then, but for an a that is a NaN with the sign
// set (it yields c). Read as int16, those a are exactly the negative ones
// above -inf's pattern; a & (a > -inf) keeps them and the non-negative a, and
// an unsigned max with the result lets them through: a non-negative a is never
// above the max as unsigned. Seven instructions per vector, no checks.
template <class Tr>
struct Half16MaxNonNan : Tr {
#ifdef ONNX_OPS_VECTOR
  static v128_t vmax(v128_t a, v128_t b) {
    typename Fast<Tr>::Flags unused;
    const v128_t r = Fast<Tr>::vmax_fast(a, b, unused);
    const v128_t above_minus_inf = wasm_i16x8_gt(a, wasm_i16x8_splat(int16_t(0x8000 | Tr::kInf)));
    return wasm_u16x8_max(r, wasm_v128_and(a, simd_opaque(above_minus_inf)));
  }
#endif
};

// Inline: its one caller, the kernel table's max2, is the dtype's own
// function already (the loops it picks stay out of line).
template <class Tr>
inline void vmaxc(size_t n, const typename Tr::T* a, const typename Tr::T* c, typename Tr::T* out) {
  using T = typename Tr::T;
  if constexpr (Tr::kFormat != Format::Integer) {
    const T plus_zero{};  // +0 is all zero bits in each float type
    if (std::memcmp(c, &plus_zero, sizeof(T)) == 0) {
      vrelu<Tr>(n, a, out);
      return;
    }
  }
  if constexpr (Tr::kFormat == Format::Ieee) {
    if (PmaxClean<Tr>::clean(*c)) {
      vmaxc_rows<PmaxClean<Tr>>(Rows{1, n, 0, 0}, a, c, out);
      return;
    }
    vmaxc_lanes<Tr, false>(n, a, c, out);
  } else if constexpr (Tr::kFormat == Format::Half16) {
    if (!Tr::isnan1(*c)) {
      vmaxc_lanes<Half16MaxNonNan<Tr>, true>(n, a, c, out);
    } else {  // a NaN value (rare): it is the result wherever a is no NaN
      ONNX_OPS_SCALAR_LOOP
      for (size_t i = 0; i < n; ++i) out[i] = Tr::isnan1(a[i]) ? a[i] : *c;
    }
  } else {
    vmaxc_lanes<Tr, true>(n, a, c, out);
  }
}

}  // namespace onnx_ops

#include "vrelu.h"  // vrelu, for vmaxc's +0 (after vmaxc_lanes, which it uses)
