// MaxFast<Tr>: Max's fast formula for the float dtypes and what makes it
// inexact: MaxOp's Fast, which the checked kernels (vbinary_checked.h) run.
// vop_fast(a, b, flags) returns a vector that is the max wherever flags (of
// all vectors, merged) are not suspicious(); vop3_fast the same for three.
// Vector builds only.
#pragma once

#include "kernel.h"
#include "policies.h"

namespace onnx_ops {

#ifdef ONNX_OPS_VECTOR
// IEEE: pmax(a, b) = (a < b ? b : a) is the max except where b is NaN (pmax
// keeps a) or where the result is -0 (-0 against +0 keeps -0; a -0 that is
// right is redone too, rarely worth a test of its own). A NaN a is already
// right: pmax returns it. A vector's Flags are its b and a -0 mark of its
// result: merge sums the b's (the sum is NaN iff a b was, or, harmlessly, if
// infinities of both signs met) and merges the marks.
// In place, the operand o that out overwrites may go first in the fast
// chain, pmax(pmax(o, x), y) (kReorder): its NaN is what pmax keeps, the
// flags cover the others, and the exact recompute of a chunk reads the fast
// result r where o was. That recompute is still exact: r is o when o is NaN,
// is never NaN otherwise (so the first NaN is still the first of the intact
// operands), and is an operand of the largest value, +0 whenever o was +0
// and that value is zero: the max over the operands with r for o is the max
// over the operands.
template <class Tr>
struct MaxFast<Tr, Format::Ieee> {
  using F = typename Tr::T;
  using L = IeeeLanes<F>;
  static constexpr bool kFloat32 = sizeof(F) == 4;
  static constexpr bool kReorder = true;
  // float32: -0's pattern is the lowest int32, so the signed minimum of the
  // results, kept as they are, holds it iff a result was -0 (one instruction
  // per vector). float64: a mask of -0 results, merged by or (two
  // instructions, but this form keeps up with pmax beyond L2, where float64
  // Max is bound by memory; both loops did not fit the size budget).
  static v128_t neg_zero_mark(v128_t r) {
    if constexpr (kFloat32) return r;
    else return L::is_neg_zero(r);
  }
  static v128_t merge_neg_zero(v128_t x, v128_t y) {
    if constexpr (kFloat32) return wasm_i32x4_min(x, y);
    else return wasm_v128_or(x, y);
  }
  static v128_t saw_neg_zero(v128_t m) {
    if constexpr (kFloat32) return wasm_i32x4_eq(m, wasm_i32x4_splat(INT32_MIN));
    else return m;
  }
  struct Flags {
    v128_t sum, neg_zero;  // zero-initialised: sum +0, no mark
  };
  static v128_t vop_fast(v128_t a, v128_t b, Flags& flags) {
    const v128_t r = L::pmax(a, b);
    flags = {b, neg_zero_mark(r)};
    return r;
  }
  // pmax(pmax(a, b), c) returns the first maximal operand, which is exact
  // unless b or c is NaN or the result is -0 (another maximal operand may be +0).
  static v128_t vop3_fast(v128_t a, v128_t b, v128_t c, Flags& flags) {
    const v128_t r = L::pmax(L::pmax(a, b), c);
    flags = {L::add(b, c), neg_zero_mark(r)};
    return r;
  }
  static Flags merge(const Flags& f, const Flags& g) {
    return {L::add(f.sum, g.sum), merge_neg_zero(f.neg_zero, g.neg_zero)};
  }
  static bool suspicious(const Flags& f) {
    return wasm_v128_any_true(wasm_v128_or(L::ne(f.sum, f.sum), saw_neg_zero(f.neg_zero)));
  }
};

// float16/bfloat16: on NaN-free lanes of sign-magnitude numbers, with hi and
// lo the unsigned max and min of a and b: when both are non-negative (hi is),
// the max is hi; otherwise it is lo (a non-negative operand is below any
// negative one as unsigned; of two negatives the smaller magnitude wins). So
// max = max_u(lo, max_s(hi, 0)): the signed max with zero keeps a
// non-negative hi and turns a negative one into 0, below any lo. +0 vs -0
// gives +0. Four instructions; hi serves the flags too. Flags: a NaN with the
// sign set is the largest unsigned pattern there is, so hi is above -inf's
// pattern iff one is such a NaN (hi); a NaN without the sign comes out as the
// result whatever the other operand (if that is no negative NaN), so the
// signed max of the results is above inf's pattern iff one was (pos). Both
// merged by max. The formula keeps nothing of a NaN: no reorder in place.
template <class Tr>
struct MaxFast<Tr, Format::Half16> {
  static constexpr uint16_t kInf = Tr::kInf;
  static constexpr bool kReorder = false;
  struct Flags {
    v128_t hi, pos;  // zero-initialised
  };
  static v128_t vop_fast(v128_t a, v128_t b, Flags& flags) {
    const v128_t hi = wasm_u16x8_max(a, b);
    const v128_t r = wasm_u16x8_max(wasm_u16x8_min(a, b), wasm_i16x8_max(hi, wasm_i16x8_splat(0)));
    flags = {hi, r};
    return r;
  }
  static v128_t vop3_fast(v128_t a, v128_t b, v128_t c, Flags& flags) {
    Flags f;
    const v128_t r = vop_fast(vop_fast(a, b, f), c, flags);
    flags = merge(flags, f);
    return r;
  }
  static Flags merge(const Flags& f, const Flags& g) {
    return {wasm_u16x8_max(f.hi, g.hi), wasm_i16x8_max(f.pos, g.pos)};
  }
  static bool suspicious(const Flags& f) {
    return wasm_v128_any_true(wasm_v128_or(wasm_u16x8_gt(f.hi, wasm_i16x8_splat(int16_t(uint16_t(0x8000 | kInf)))),
                                           wasm_i16x8_gt(f.pos, wasm_i16x8_splat(int16_t(kInf)))));
  }
};

#endif

}  // namespace onnx_ops
