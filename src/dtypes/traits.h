// Per-dtype traits: each op's primitives for each dtype (what Max and Relu
// mean), and nothing about speed (the op policies, src/kernels/policies.h,
// make the kernels' operations of them; which kernel a dtype gets is
// src/config/'s, and the tuning constants are src/tuning.h's).
//
// Each traits struct has
//   T                       the storage type (float16/bfloat16: raw uint16 bits)
//   kFormat                 how T's bits encode a number (Format below)
//   max1(a, b), relu1(x)    the scalar semantics (used for remainders, and the
//                           reference the vector code must match bit for bit)
//   isnan1(x)               whether x is a NaN (always false for integers)
//   vmax(a, b), vrelu(x)    the same on a 128-bit vector of 16/sizeof(T) lanes
//                           (8/16/32-bit integers have no vrelu: their Relu is
//                           Max with zero)
//
// Semantics (identical for both paths, documented in the README):
//   * NaN propagates. max(a, b) with a NaN returns the first NaN operand,
//     bit for bit (payload and sign kept); relu(NaN) returns that NaN.
//   * Signed zeros: +0 is greater than -0, so max(-0, +0) = max(+0, -0) = +0
//     and relu(-0) = +0 (as IEEE 754-2019 maximum and JavaScript Math.max).
//   * float16/bfloat16 compare as the numbers they encode (subnormals kept).
//   * 64-bit integers compare exactly; uint64 compares unsigned.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../simd128.h"

namespace onnx_ops {

enum class Format { Ieee, Half16, Integer };

// ---- IEEE binary32 / binary64 -------------------------------------------

#ifdef ONNX_OPS_VECTOR
// The lane operations of each IEEE width, so that one body serves both.
template <class F>
struct IeeeLanes;
#define ONNX_OPS_IEEE_LANES(fx, ix, Int)                                                        \
  static v128_t lt(v128_t a, v128_t b) { return wasm_##fx##_lt(a, b); }                         \
  static v128_t eq(v128_t a, v128_t b) { return wasm_##fx##_eq(a, b); }                         \
  static v128_t ne(v128_t a, v128_t b) { return wasm_##fx##_ne(a, b); }                         \
  static v128_t add(v128_t a, v128_t b) { return wasm_##fx##_add(a, b); }                       \
  static v128_t pmax(v128_t a, v128_t b) { return wasm_##fx##_pmax(a, b); }                     \
  static v128_t is_pos_zero(v128_t x) { return wasm_##ix##_eq(x, wasm_##ix##_splat(0)); }       \
  /* Lanes whose bits, read as a signed integer, are at or below -inf's pattern. */             \
  static v128_t at_or_below_neg_inf(v128_t x) { return wasm_##ix##_lt(x, wasm_##ix##_splat(kNegInf + 1)); }
template <>
struct IeeeLanes<float> {
  static constexpr int32_t kNegInf = int32_t(0xff800000u);
  ONNX_OPS_IEEE_LANES(f32x4, i32x4, int32_t)
};
template <>
struct IeeeLanes<double> {
  static constexpr int64_t kNegInf = int64_t(0xfff0000000000000ull);
  ONNX_OPS_IEEE_LANES(f64x2, i64x2, int64_t)
  static v128_t is_neg_zero(v128_t x) { return wasm_i64x2_eq(x, wasm_i64x2_splat(INT64_MIN)); }
};
#undef ONNX_OPS_IEEE_LANES
#endif

// The scalar max1 and relu1 below select without branches: the scalar build
// runs whole tensors through them, and on random signs and NaNs a branch per
// element mispredicts about half the time.
template <class F, class Bits>
struct IeeeTraits {
  using T = F;
  using S = std::make_signed_t<Bits>;
  static constexpr Format kFormat = Format::Ieee;
  static constexpr Bits kMagnitude = Bits(~Bits(0)) >> 1;
  static constexpr Bits kInfBits = sizeof(F) == 4 ? Bits(0x7f800000u) : Bits(0x7ff0000000000000ull);
  static bool isnan1(T x) { return x != x; }
  static Bits bits1(T x) {
    Bits u;
    std::memcpy(&u, &x, sizeof u);
    return u;
  }
  static T from_bits1(Bits u) {
    T x;
    std::memcpy(&x, &u, sizeof x);
    return x;
  }
  // The first NaN, else the larger number (+0 above -0): b where a is no NaN
  // and not at or above b; where a == b, a & b (the same bits, or +0 from -0
  // and +0). Float compares, integer selects (a float select would branch).
  static T max1(T a, T b) {
    const Bits ua = bits1(a), ub = bits1(b);
    const Bits r = a == b ? ua & ub : ua;
    return from_bits1((!(a >= b) & (a == a)) ? ub : r);
  }
  // +0 for the patterns at or below -inf's as signed integers (-0 down to
  // -inf: sign set and no NaN), else x.
  static T relu1(T x) {
    const Bits u = bits1(x);
    return from_bits1(u & (Bits(0) - Bits(static_cast<S>(u) > static_cast<S>(kInfBits | ~kMagnitude))));
  }
#ifdef ONNX_OPS_VECTOR
  using L = IeeeLanes<F>;
  static v128_t vmax(v128_t a, v128_t b) {
    // Take b where a is not NaN and (a < b or b is NaN); then, where a == b,
    // a & b turns (-0, +0) into +0 and leaves equal values alone.
    const v128_t take_b = wasm_v128_andnot(wasm_v128_or(L::lt(a, b), L::ne(b, b)), L::ne(a, a));
    const v128_t r = wasm_v128_bitselect(b, a, take_b);
    return wasm_v128_andnot(r, wasm_v128_andnot(L::eq(a, b), b));
  }
  // Read as integers, the values that become +0 (sign set and not NaN: -0
  // down to -inf) are exactly those at or below -inf's pattern; negative
  // NaNs lie above it.
  static v128_t vrelu(v128_t x) { return wasm_v128_andnot(x, simd_opaque(L::at_or_below_neg_inf(x))); }
#endif
};
using Float32Traits = IeeeTraits<float, uint32_t>;
using Float64Traits = IeeeTraits<double, uint64_t>;

// ---- 16-bit floats as raw bits -------------------------------------------
// For a non-NaN value u, key(u) = u ^ ((u >> 15) & 0x7fff) read as int16 orders
// exactly like the numbers (with -0 just below +0). NaN is detected from the
// bits: |u| above the infinity pattern.
template <uint16_t kInfBits>
struct Half16Traits {
  using T = uint16_t;
  static constexpr Format kFormat = Format::Half16;
  static constexpr uint16_t kInf = kInfBits;
  static bool isnan1(T u) { return (u & 0x7fff) > kInfBits; }
  static int16_t key1(T u) {
    const int16_t s = static_cast<int16_t>(u);
    return static_cast<int16_t>(s ^ ((s >> 15) & 0x7fff));
  }
  // Without branches, as IeeeTraits's: the first NaN, else the larger number.
  static T max1(T a, T b) {
    const int take_b = int(!isnan1(a)) & (int(isnan1(b)) | int(key1(b) > key1(a)));
    return static_cast<T>(a ^ ((a ^ b) & (0 - take_b)));
  }
  // +0 for the patterns at or below -inf's as int16 (sign set and no NaN).
  static T relu1(T x) {
    return static_cast<T>(x & (0 - int(static_cast<int16_t>(x) > static_cast<int16_t>(0x8000 | kInfBits))));
  }
#ifdef ONNX_OPS_VECTOR
  static v128_t visnan(v128_t u) {
    return wasm_i16x8_gt(wasm_v128_and(u, wasm_i16x8_splat(0x7fff)), wasm_i16x8_splat(kInfBits));
  }
  static v128_t vkey(v128_t u) {
    return wasm_v128_xor(u, wasm_v128_and(wasm_i16x8_shr(u, 15), wasm_i16x8_splat(0x7fff)));
  }
  static v128_t vmax(v128_t a, v128_t b) {
    const v128_t take_b =
        wasm_v128_andnot(wasm_v128_or(wasm_i16x8_gt(vkey(b), vkey(a)), visnan(b)), visnan(a));
    return wasm_v128_bitselect(b, a, take_b);
  }
  static v128_t vrelu(v128_t x) {
    // +0 where x, read as int16, is at or below -inf's pattern (sign set, not NaN).
    return wasm_v128_andnot(
        x, simd_opaque(wasm_i16x8_lt(x, wasm_i16x8_splat(int16_t(int16_t(0x8000 | kInfBits) + 1)))));
  }
#endif
};
using Float16Traits = Half16Traits<0x7c00>;
using Bfloat16Traits = Half16Traits<0x7f80>;

// ---- integers ---------------------------------------------------------------

template <class I>
struct IntScalar {
  using T = I;
  static constexpr Format kFormat = Format::Integer;
  static bool isnan1(T) { return false; }
  static T max1(T a, T b) { return a > b ? a : b; }
  static T relu1(T x) { return x > T(0) ? x : T(0); }
};

// 8/16/32-bit integers have a one-instruction vector max.
#ifdef ONNX_OPS_VECTOR
#define ONNX_OPS_INT_VMAX(f) \
  static v128_t vmax(v128_t a, v128_t b) { return f(a, b); }
#else
#define ONNX_OPS_INT_VMAX(f)
#endif
struct Int8Traits : IntScalar<int8_t> { ONNX_OPS_INT_VMAX(wasm_i8x16_max) };
struct Uint8Traits : IntScalar<uint8_t> { ONNX_OPS_INT_VMAX(wasm_u8x16_max) };
struct Int16Traits : IntScalar<int16_t> { ONNX_OPS_INT_VMAX(wasm_i16x8_max) };
struct Uint16Traits : IntScalar<uint16_t> { ONNX_OPS_INT_VMAX(wasm_u16x8_max) };
struct Int32Traits : IntScalar<int32_t> { ONNX_OPS_INT_VMAX(wasm_i32x4_max) };
struct Uint32Traits : IntScalar<uint32_t> { ONNX_OPS_INT_VMAX(wasm_u32x4_max) };
#undef ONNX_OPS_INT_VMAX

struct Int64Traits : IntScalar<int64_t> {
#ifdef ONNX_OPS_VECTOR
  static v128_t vmax(v128_t a, v128_t b) { return wasm_v128_bitselect(b, a, wasm_i64x2_gt(b, a)); }
  // x & ~(0 > x): zero for negative x. The compare is one instruction (x64
  // pcmpgtq); the equivalent x >> 63, which LLVM would turn it into, is not
  // (no 64-bit arithmetic shift before AVX-512): the zero is kept opaque.
  static v128_t vrelu(v128_t x) {
    return wasm_v128_andnot(x, simd_opaque(wasm_i64x2_gt(simd_opaque(wasm_i64x2_splat(0)), x)));
  }
#endif
};

struct Uint64Traits : IntScalar<uint64_t> {
#ifdef ONNX_OPS_VECTOR
  static v128_t vmax(v128_t a, v128_t b) {
    // Unsigned order = signed order after flipping the top bit. (Opaque:
    // LLVM would see an unsigned compare, which wasm lacks for i64x2, and
    // split it into scalar compares lane by lane.)
    const v128_t flip = wasm_i64x2_splat(INT64_MIN);
    return wasm_v128_bitselect(
        b, a, wasm_i64x2_gt(simd_opaque(wasm_v128_xor(b, flip)), simd_opaque(wasm_v128_xor(a, flip))));
  }
#endif
};

}  // namespace onnx_ops
