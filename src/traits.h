// Per-dtype traits: the only place where Max and Relu differ between dtypes.
//
// Each traits struct has
//   T                       the storage type (float16/bfloat16: raw uint16 bits)
//   max1(a, b), relu1(x)    the scalar semantics (used for remainders, and the
//                           reference the vector code must match bit for bit)
//   isnan1(x)               whether x is a NaN (always false for integers)
//   vmax(a, b), vrelu(x)    the same on a 128-bit vector of 16/sizeof(T) lanes
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

#include "simd128.h"

namespace onnx_ops {

// ---- IEEE binary32 / binary64 -------------------------------------------

template <class F, class Bits>
inline F and_bits(F a, F b) {
  Bits x, y;
  std::memcpy(&x, &a, sizeof x);
  std::memcpy(&y, &b, sizeof y);
  x &= y;
  F r;
  std::memcpy(&r, &x, sizeof r);
  return r;
}

#ifdef ONNX_OPS_VECTOR
// The lane operations of each IEEE width, so that one body serves both.
template <class F>
struct IeeeLanes;
template <>
struct IeeeLanes<float> {
  static v128_t lt(v128_t a, v128_t b) { return wasm_f32x4_lt(a, b); }
  static v128_t eq(v128_t a, v128_t b) { return wasm_f32x4_eq(a, b); }
  static v128_t ne(v128_t a, v128_t b) { return wasm_f32x4_ne(a, b); }
  static v128_t add(v128_t a, v128_t b) { return wasm_f32x4_add(a, b); }
  static v128_t pmax(v128_t a, v128_t b) { return wasm_f32x4_pmax(a, b); }
  static v128_t is_pos_zero(v128_t x) { return wasm_i32x4_eq(x, wasm_i32x4_splat(0)); }
  // Lanes whose bits, read as a signed integer, are at or below -inf's pattern.
  static v128_t at_or_below_neg_inf(v128_t x) { return wasm_i32x4_lt(x, wasm_i32x4_splat(int32_t(0xff800000u) + 1)); }
  // The -0 check of the fast Max path (see IeeeTraits): -0's pattern is the
  // lowest int32, so the signed minimum of the results, kept as they are,
  // holds it iff a result was -0. One instruction per vector.
  static v128_t neg_zero_mark(v128_t r) { return r; }
  static v128_t merge_neg_zero(v128_t x, v128_t y) { return wasm_i32x4_min(x, y); }
  static v128_t saw_neg_zero(v128_t m) { return wasm_i32x4_eq(m, wasm_i32x4_splat(INT32_MIN)); }
  // The +0 check of a clean-row scan: +0's pattern is the lowest uint32, so
  // the unsigned minimum of the values holds 0 iff one was +0.
  static v128_t pos_zero_init() { return wasm_i32x4_splat(-1); }
  static v128_t pos_zero_mark(v128_t x) { return x; }
  static v128_t merge_pos_zero(v128_t x, v128_t y) { return wasm_u32x4_min(x, y); }
  static bool saw_pos_zero(v128_t m) { return wasm_v128_any_true(is_pos_zero(m)); }
};
template <>
struct IeeeLanes<double> {
  static v128_t lt(v128_t a, v128_t b) { return wasm_f64x2_lt(a, b); }
  static v128_t eq(v128_t a, v128_t b) { return wasm_f64x2_eq(a, b); }
  static v128_t ne(v128_t a, v128_t b) { return wasm_f64x2_ne(a, b); }
  static v128_t add(v128_t a, v128_t b) { return wasm_f64x2_add(a, b); }
  static v128_t pmax(v128_t a, v128_t b) { return wasm_f64x2_pmax(a, b); }
  static v128_t is_neg_zero(v128_t x) { return wasm_i64x2_eq(x, wasm_i64x2_splat(INT64_MIN)); }
  static v128_t is_pos_zero(v128_t x) { return wasm_i64x2_eq(x, wasm_i64x2_splat(0)); }
  static v128_t at_or_below_neg_inf(v128_t x) {
    return wasm_i64x2_lt(x, wasm_i64x2_splat(int64_t(0xfff0000000000000ull) + 1));
  }
  // A mask of -0 results, merged by or: two instructions per vector. One
  // would do, as float32's: -0's high word is the lowest int32, so the signed
  // 32-bit minimum of the results flags it in the high-word lanes (the test
  // masking the low words off). That form is faster in the caches but slower
  // beyond L2, where float64 Max is bound by memory and this form keeps up
  // with pmax; both loops, chosen by run size, did not fit the package's size
  // budget (docs/PERFORMANCE.md).
  static v128_t neg_zero_mark(v128_t r) { return is_neg_zero(r); }
  static v128_t merge_neg_zero(v128_t x, v128_t y) { return wasm_v128_or(x, y); }
  static v128_t saw_neg_zero(v128_t m) { return m; }
  static v128_t pos_zero_init() { return wasm_i64x2_splat(0); }
  static v128_t pos_zero_mark(v128_t x) { return is_pos_zero(x); }
  static v128_t merge_pos_zero(v128_t x, v128_t y) { return wasm_v128_or(x, y); }
  static bool saw_pos_zero(v128_t m) { return wasm_v128_any_true(m); }
};
#endif

template <class F, class Bits>
struct IeeeTraits {
  using T = F;
  static bool isnan1(T x) { return x != x; }
  static T max1(T a, T b) {
    if (a != a) return a;
    if (b != b) return b;
    if (a == b) return and_bits<F, Bits>(a, b);  // max(-0, +0) = +0
    return a > b ? a : b;
  }
  static T relu1(T x) {
    if (x != x) return x;
    return x > T(0) ? x : T(0);
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
  // Fast path, for kernels that check a chunk of vectors at once. pmax(a, b)
  // = (a < b ? b : a) is the max except where b is NaN (pmax keeps a) or
  // where the result is -0 (-0 against +0 keeps -0; a -0 that is right is
  // redone too, rarely worth a test of its own). A NaN a is already right:
  // pmax returns it. A vector's Flags are its b and a -0 mark of its result
  // (IeeeLanes::neg_zero_mark): merge sums the b's (the sum is NaN iff a b
  // was, or, harmlessly, if infinities of both signs met) and merges the
  // marks. A suspicious chunk is recomputed with vmax, so the fast result is
  // used only where it is exact.
  static constexpr bool kFastMax = true;
  // pmax(a, b) is a when a is NaN, and never NaN when a is not: the fast
  // result may stand in for a (in place, see FastMax in kernels.h).
  static constexpr bool kFastKeepsFirst = true;
  struct Flags {
    v128_t sum, neg_zero;  // zero-initialised: sum +0, no mark
  };
  static v128_t vmax_fast(v128_t a, v128_t b, Flags& flags) {
    const v128_t r = L::pmax(a, b);
    flags = {b, L::neg_zero_mark(r)};
    return r;
  }
  // Three operands: pmax(pmax(a, b), c) returns the first maximal operand,
  // which is exact unless b or c is NaN or the result is -0 (another maximal
  // operand may be +0).
  static v128_t vmax3_fast(v128_t a, v128_t b, v128_t c, Flags& flags) {
    const v128_t r = L::pmax(L::pmax(a, b), c);
    flags = {L::add(b, c), L::neg_zero_mark(r)};
    return r;
  }
  static Flags merge(const Flags& f, const Flags& g) {
    return {L::add(f.sum, g.sum), L::merge_neg_zero(f.neg_zero, g.neg_zero)};
  }
  static bool suspicious(const Flags& f) {
    return wasm_v128_any_true(wasm_v128_or(L::ne(f.sum, f.sum), L::saw_neg_zero(f.neg_zero)));
  }
  // Read as integers, the values that become +0 (sign set and not NaN: -0
  // down to -inf) are exactly those at or below -inf's pattern; negative
  // NaNs lie above it.
  static v128_t vrelu(v128_t x) { return wasm_v128_andnot(x, simd_opaque(L::at_or_below_neg_inf(x))); }
  // float32 only: float64 Relu already keeps up with the load/store loop
  // without it, not worth the package bytes of a second loop.
  static constexpr bool kStreamRelu = sizeof(F) == 4;
#endif
};
using Float32Traits = IeeeTraits<float, uint32_t>;
using Float64Traits = IeeeTraits<double, uint64_t>;

// max(a, b) where every b is known to be neither NaN nor +0 (a repeated
// value, checked once): pmax(a, b) alone is then exact. A NaN a is returned
// as is; -0 against +0 cannot occur with a = -0 first; any other tie has
// equal bits (and +0 against -0 keeps the +0).
template <class F, class Bits>
struct IeeeCleanBTraits : IeeeTraits<F, Bits> {
  static bool clean(F b) { return b == b && !(b == F(0) && !std::signbit(b)); }
  // Whether every x[0..n) is clean: for a row that every output row reuses.
  // Vectors: a running sum, NaN iff some value was a NaN (or, rarely, +inf
  // and -inf met: then "not clean", which costs only the faster path), and a
  // +0 mark (IeeeLanes::pos_zero_mark); two instructions per float32 vector,
  // four vectors per step (one sum would be a chain of adds). The last few
  // values go one by one.
  static bool clean_all(size_t n, const F* x) {
#ifdef ONNX_OPS_VECTOR
    using L = IeeeLanes<F>;
    constexpr size_t kLanes = 16 / sizeof(F);
    v128_t sum = wasm_i32x4_splat(0), zero = L::pos_zero_init();
    for (; n >= 4 * kLanes; n -= 4 * kLanes, x += 4 * kLanes) {
      const v128_t a = wasm_v128_load(x), b = wasm_v128_load(x + kLanes);
      const v128_t c = wasm_v128_load(x + 2 * kLanes), d = wasm_v128_load(x + 3 * kLanes);
      sum = L::add(sum, L::add(L::add(a, b), L::add(c, d)));
      zero = L::merge_pos_zero(zero, L::merge_pos_zero(L::merge_pos_zero(L::pos_zero_mark(a), L::pos_zero_mark(b)),
                                                       L::merge_pos_zero(L::pos_zero_mark(c), L::pos_zero_mark(d))));
    }
    if (wasm_v128_any_true(L::ne(sum, sum)) || L::saw_pos_zero(zero)) return false;
#endif
    for (size_t i = 0; i < n; ++i)
      if (!clean(x[i])) return false;
    return true;
  }
#ifdef ONNX_OPS_VECTOR
  static constexpr bool kFastMax = false;
  static constexpr bool kUnrollMax = true;  // one instruction per vector: the loop's own cost shows
  static v128_t vmax(v128_t a, v128_t b) { return IeeeLanes<F>::pmax(a, b); }
#endif
};

// ---- 16-bit floats as raw bits -------------------------------------------
// For a non-NaN value u, key(u) = u ^ ((u >> 15) & 0x7fff) read as int16 orders
// exactly like the numbers (with -0 just below +0). NaN is detected from the
// bits: |u| above the infinity pattern.
template <uint16_t kInfBits>
struct Half16Traits {
  using T = uint16_t;
  static constexpr uint16_t kInf = kInfBits;
  static bool isnan1(T u) { return (u & 0x7fff) > kInfBits; }
  static int16_t key1(T u) {
    const int16_t s = static_cast<int16_t>(u);
    return static_cast<int16_t>(s ^ ((s >> 15) & 0x7fff));
  }
  static T max1(T a, T b) {
    if (isnan1(a)) return a;
    if (isnan1(b)) return b;
    return key1(b) > key1(a) ? b : a;
  }
  static T relu1(T x) { return (x & 0x8000) && !isnan1(x) ? T(0) : x; }
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
  // Fast path (see IeeeTraits): on NaN-free lanes of sign-magnitude numbers,
  // with hi and lo the unsigned max and min of a and b: when both are
  // non-negative (hi is), the max is hi; otherwise it is lo (a non-negative
  // operand is below any negative one as unsigned; of two negatives the
  // smaller magnitude wins). So max = max_u(lo, max_s(hi, 0)): the signed max
  // with zero keeps a non-negative hi and turns a negative one into 0, below
  // any lo. +0 vs -0 gives +0. Four instructions; hi serves the flags too.
  // Flags: a NaN with the sign set is the largest unsigned pattern there is,
  // so hi is above -inf's pattern iff one is such a NaN (hi); a NaN without
  // the sign comes out as the result whatever the other operand (if that is
  // no negative NaN), so the signed max of the results is above inf's pattern
  // iff one was (pos). Both merged by max.
  static constexpr bool kFastMax = true;
  struct Flags {
    v128_t hi, pos;  // zero-initialised
  };
  static v128_t vmax_fast(v128_t a, v128_t b, Flags& flags) {
    const v128_t hi = wasm_u16x8_max(a, b);
    const v128_t r = wasm_u16x8_max(wasm_u16x8_min(a, b), wasm_i16x8_max(hi, wasm_i16x8_splat(0)));
    flags = {hi, r};
    return r;
  }
  static v128_t vmax3_fast(v128_t a, v128_t b, v128_t c, Flags& flags) {
    Flags f;
    const v128_t r = vmax_fast(vmax_fast(a, b, f), c, flags);
    flags = merge(flags, f);
    return r;
  }
  static Flags merge(const Flags& f, const Flags& g) {
    return {wasm_u16x8_max(f.hi, g.hi), wasm_i16x8_max(f.pos, g.pos)};
  }
  static bool suspicious(const Flags& f) {
    return wasm_v128_any_true(
        wasm_v128_or(wasm_u16x8_gt(f.hi, wasm_i16x8_splat(int16_t(uint16_t(0x8000 | kInfBits)))),
                     wasm_i16x8_gt(f.pos, wasm_i16x8_splat(int16_t(kInfBits)))));
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

// Max(a, b) for a repeated b that is no NaN (max_with_value in ops.cpp): the
// fast formula above is exact then, but for an a that is a NaN with the sign
// set (it yields b). Read as int16, those a are exactly the negative ones
// above -inf's pattern; a & (a > -inf) keeps them and the non-negative a, and
// an unsigned max with the result lets them through: a non-negative a is never
// above the max as unsigned. Seven instructions per vector, no checks.
template <uint16_t kInfBits>
struct Half16NonNanBTraits : Half16Traits<kInfBits> {
#ifdef ONNX_OPS_VECTOR
  static constexpr bool kFastMax = false;
  static v128_t vmax(v128_t a, v128_t b) {
    typename Half16Traits<kInfBits>::Flags unused;
    const v128_t r = Half16Traits<kInfBits>::vmax_fast(a, b, unused);
    const v128_t above_minus_inf = wasm_i16x8_gt(a, wasm_i16x8_splat(int16_t(0x8000 | kInfBits)));
    return wasm_u16x8_max(r, wasm_v128_and(a, simd_opaque(above_minus_inf)));
  }
#endif
};

// ---- integers ---------------------------------------------------------------

template <class I>
struct IntScalar {
  using T = I;
  static bool isnan1(T) { return false; }
  static T max1(T a, T b) { return a > b ? a : b; }
  static T relu1(T x) { return x > T(0) ? x : T(0); }
};

// 8/16/32-bit integers have a one-instruction vector max, and no vrelu: their
// Relu is max(x, 0), the Max kernel with a repeated zero (kReluIsMaxZero).
#ifdef ONNX_OPS_VECTOR
#define ONNX_OPS_INT_TRAITS(Name, I, vmax_fn)                                \
  struct Name : IntScalar<I> {                                               \
    static constexpr bool kReluIsMaxZero = true;                             \
    static v128_t vmax(v128_t a, v128_t b) { return vmax_fn(a, b); }         \
  };
#else
#define ONNX_OPS_INT_TRAITS(Name, I, vmax_fn) \
  struct Name : IntScalar<I> {                \
    static constexpr bool kReluIsMaxZero = true; \
  };
#endif
ONNX_OPS_INT_TRAITS(Int8Traits, int8_t, wasm_i8x16_max)
ONNX_OPS_INT_TRAITS(Uint8Traits, uint8_t, wasm_u8x16_max)
ONNX_OPS_INT_TRAITS(Int16Traits, int16_t, wasm_i16x8_max)
ONNX_OPS_INT_TRAITS(Uint16Traits, uint16_t, wasm_u16x8_max)
ONNX_OPS_INT_TRAITS(Int32Traits, int32_t, wasm_i32x4_max)
ONNX_OPS_INT_TRAITS(Uint32Traits, uint32_t, wasm_u32x4_max)
#undef ONNX_OPS_INT_TRAITS

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
