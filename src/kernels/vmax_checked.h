// The float dtypes' Max of two or three runs (vmax_checked, vmax3_checked): a
// fast formula, checked a chunk at a time, with the exact vmax redoing only
// the chunks it flags. Vector builds only: without the vector path there is
// nothing to check (src/config/max_config.cpp picks vmax, vmax3 then).
#pragma once

#include <cstddef>

#include "kernel.h"

namespace onnx_ops {

#ifdef ONNX_OPS_VECTOR
// Fast<Tr>: the fast formula of a float dtype and what makes it inexact.
// vmax_fast(a, b, flags) returns a vector that is the max wherever flags (of
// all vectors, merged) are not suspicious(); vmax3_fast the same for three.
template <class Tr, Format = Tr::kFormat>
struct Fast;

// IEEE: pmax(a, b) = (a < b ? b : a) is the max except where b is NaN (pmax
// keeps a) or where the result is -0 (-0 against +0 keeps -0; a -0 that is
// right is redone too, rarely worth a test of its own). A NaN a is already
// right: pmax returns it. A vector's Flags are its b and a -0 mark of its
// result: merge sums the b's (the sum is NaN iff a b was, or, harmlessly, if
// infinities of both signs met) and merges the marks.
template <class Tr>
struct Fast<Tr, Format::Ieee> {
  using F = typename Tr::T;
  using L = IeeeLanes<F>;
  static constexpr bool kFloat32 = sizeof(F) == 4;
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
  static v128_t vmax_fast(v128_t a, v128_t b, Flags& flags) {
    const v128_t r = L::pmax(a, b);
    flags = {b, neg_zero_mark(r)};
    return r;
  }
  // pmax(pmax(a, b), c) returns the first maximal operand, which is exact
  // unless b or c is NaN or the result is -0 (another maximal operand may be +0).
  static v128_t vmax3_fast(v128_t a, v128_t b, v128_t c, Flags& flags) {
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
// merged by max.
template <class Tr>
struct Fast<Tr, Format::Half16> {
  static constexpr uint16_t kInf = Tr::kInf;
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
    return wasm_v128_any_true(wasm_v128_or(wasm_u16x8_gt(f.hi, wasm_i16x8_splat(int16_t(uint16_t(0x8000 | kInf)))),
                                           wasm_i16x8_gt(f.pos, wasm_i16x8_splat(int16_t(kInf)))));
  }
};

// Max of two runs, or of three (kThree), for the float dtypes: the fast
// results go straight to the output, chunk by chunk (tuning.h), while each
// vector's flags are merged into one running Flags; at the end of a chunk,
// one test: a suspicious chunk is recomputed exactly, out of line. No branch
// per block and no result held back.
// In place, for the IEEE types, the operand o that out overwrites goes first
// in the fast chain, pmax(pmax(o, x), y): its NaN is what pmax keeps, the
// flags cover the others, and the exact recompute of a chunk reads the fast
// result r where o was. That recompute is still exact: r is o when o is NaN,
// is never NaN otherwise (so the first NaN is still the first of the intact
// operands), and is an operand of the largest value, +0 whenever o was +0
// and that value is zero: the max over the operands with r for o is the max
// over the operands. The float16/bfloat16 fast formula keeps nothing of a
// NaN, so there, in place, a chunk goes to a stack buffer first and is
// copied out once it passed.
template <class Tr, bool kThree>
struct CheckedMax {
  using T = typename Tr::T;
  using Fx = Fast<Tr>;
  static constexpr size_t kLanes = 16 / sizeof(T);
  static constexpr size_t kChunk = kCheckedChunkBytes / sizeof(T);
  static constexpr size_t kTinyChunk = kCheckedTinyChunkBytes / sizeof(T);
  static constexpr size_t kCalm = kCheckedCalmBytes / sizeof(T);
  static constexpr bool kReorder = Tr::kFormat == Format::Ieee;  // see above

  // out[0..m) exactly; m is a multiple of kLanes.
  ONNX_OPS_COLD static void exact(size_t m, const T* a, const T* b, const T* c, T* out) {
    for (; m > 0; m -= kLanes, a += kLanes, b += kLanes, c += kThree ? kLanes : 0, out += kLanes) {
      v128_t r = Tr::vmax(wasm_v128_load(a), wasm_v128_load(b));
      if constexpr (kThree) r = Tr::vmax(r, wasm_v128_load(c));
      wasm_v128_store(out, r);
    }
  }

  ONNX_OPS_NO_BUILTINS static void run(size_t n, const T* a, const T* b, const T* c, T* out) {
    auto fast = [&](const T* pa, const T* pb, const T* pc, size_t k, typename Fx::Flags& f) {
      const v128_t va = wasm_v128_load(pa + k * kLanes);
      const v128_t vb = wasm_v128_load(pb + k * kLanes);
      if constexpr (kThree) return Fx::vmax3_fast(va, vb, wasm_v128_load(pc + k * kLanes), f);
      else return Fx::vmax_fast(va, vb, f);
    };
    // The fast chain reads (a, b, c) as (x, y, z): b or c goes first when out is it (see above).
    const bool buffered = !kReorder && (out == a || out == b || (kThree && out == c));
    alignas(16) T buf[kReorder ? 1 : kChunk];
    const T *x = a, *y = b, *z = c;
    if (kReorder && out == b) x = b, y = a;
    else if (kReorder && kThree && out == c) x = c, y = a, z = b;
    size_t passed = kCalm;  // elements that passed since the last redo (smaller chunks until kCalm)
    size_t done = 0;
    while (n - done >= kLanes) {
      const size_t chunk = kTinyChunk << 2 * ((passed >= kChunk) + (passed >= kCalm));  // 256 B, 1 KiB or 4 KiB
      const size_t m = n - done < chunk ? (n - done) / kLanes * kLanes : chunk;
      const T* px = x + done;
      const T* py = y + done;
      const T* pz = kThree ? z + done : nullptr;
      T* po = buffered ? buf : out + done;
      typename Fx::Flags s{};
      size_t left = m;
      ONNX_OPS_VECTOR_LOOP  // not unrolled: more vectors and flags would spill
      for (; left >= 4 * kLanes; left -= 4 * kLanes) {
        typename Fx::Flags f0, f1, f2, f3;
        wasm_v128_store(po, fast(px, py, pz, 0, f0));
        wasm_v128_store(po + kLanes, fast(px, py, pz, 1, f1));
        wasm_v128_store(po + 2 * kLanes, fast(px, py, pz, 2, f2));
        wasm_v128_store(po + 3 * kLanes, fast(px, py, pz, 3, f3));
        s = Fx::merge(s, Fx::merge(Fx::merge(f0, f1), Fx::merge(f2, f3)));  // one merge on the carried chain
        px += 4 * kLanes;
        py += 4 * kLanes;
        pz += kThree ? 4 * kLanes : 0;
        po += 4 * kLanes;
      }
      ONNX_OPS_VECTOR_LOOP
      for (; left > 0; left -= kLanes) {
        typename Fx::Flags f;
        wasm_v128_store(po, fast(px, py, pz, 0, f));
        s = Fx::merge(s, f);
        px += kLanes;
        py += kLanes;
        pz += kThree ? kLanes : 0;
        po += kLanes;
      }
      const bool redo = Fx::suspicious(s);
      if (redo) {
        exact(m, a + done, b + done, kThree ? c + done : nullptr, out + done);
      } else if (buffered) {
        // Inline, not copy_bytes: a call per chunk made Max in place slower.
        for (size_t i = 0; i < m; i += kLanes) wasm_v128_store(out + done + i, wasm_v128_load(buf + i));
      }
      passed = redo ? 0 : passed + m;
      done += m;
    }
    ONNX_OPS_SCALAR_LOOP
    for (size_t i = done; i < n; ++i) {
      T r = Tr::max1(a[i], b[i]);
      if constexpr (kThree) r = Tr::max1(r, c[i]);
      out[i] = r;
    }
  }
};

// vmax_checked: out[i] = max(a[i], b[i]) over two runs of a float dtype
// (Fast<Tr>), checked per chunk. out may be exactly a or b; partial overlap
// is not allowed.
template <class Tr>
ONNX_OPS_KERNEL void vmax_checked(size_t n, const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out) {
  assert(n == 0 || (a && b && out));
  assert(same_or_apart(a, out, n) && same_or_apart(b, out, n));
  if (n == 0) return;
  CheckedMax<Tr, false>::run(n, a, b, nullptr, out);
}

// vmax3_checked: out[i] = max(max(a[i], b[i]), c[i]) over three runs of a
// float dtype in one pass (16 bytes moved per float32 element instead of 24
// for two passes), checked per chunk; the first NaN still wins. out may be
// exactly one input; partial overlap is not allowed.
template <class Tr>
ONNX_OPS_KERNEL void vmax3_checked(size_t n, const typename Tr::T* a, const typename Tr::T* b,
                                   const typename Tr::T* c, typename Tr::T* out) {
  assert(n == 0 || (a && b && c && out));
  assert(same_or_apart(a, out, n) && same_or_apart(b, out, n) && same_or_apart(c, out, n));
  CheckedMax<Tr, true>::run(n, a, b, c, out);
}
#endif

}  // namespace onnx_ops
