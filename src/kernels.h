// Element-wise micro-kernels: one template body per op, every dtype through
// its traits (traits.h). Uniform shape, as XNNPACK's: (count, inputs, output),
// a 4-vector main loop, a 1-vector loop, a scalar remainder. Broadcasting is
// the caller's business (ops.cpp): an operand is either a contiguous run
// (kScalar = false) or one value repeated (kScalar = true).
//
// out may be exactly one of the inputs (in place); partial overlap is not allowed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "traits.h"

namespace onnx_ops {

// Kernels stay out of line (code size: 12 dtypes x variants), and their
// scalar remainder loops are not auto-vectorised again by the compiler.
#if defined(__clang__)
#define ONNX_OPS_KERNEL __attribute__((noinline))
#define ONNX_OPS_COLD __attribute__((noinline, cold))
// Copy and fill loops stay vector loops: LLVM would make them memcpy/memset
// calls, and the libc linked here (-Oz) does those a byte at a time, far
// slower than a vector loop.
#define ONNX_OPS_NO_BUILTINS __attribute__((no_builtin("memcpy"), no_builtin("memset"), no_builtin("memmove")))
#define ONNX_OPS_SCALAR_LOOP _Pragma("clang loop vectorize(disable) unroll(disable)")
#define ONNX_OPS_VECTOR_LOOP _Pragma("clang loop unroll(disable)")
// Relu's main loop: two 4-vector blocks per iteration (the loop's own integer
// instructions, V8's interrupt check among them, cost about as much as a
// block of Relu otherwise; for Max, the code size is not worth it).
#define ONNX_OPS_RELU_LOOP _Pragma("clang loop unroll_count(2)")
#else
#define ONNX_OPS_KERNEL __attribute__((noinline))
#define ONNX_OPS_COLD __attribute__((noinline, cold))
#define ONNX_OPS_NO_BUILTINS
#define ONNX_OPS_SCALAR_LOOP
#define ONNX_OPS_VECTOR_LOOP
#define ONNX_OPS_RELU_LOOP
#endif

#ifdef ONNX_OPS_VECTOR
// Whether the traits offer vmax_fast (see Float32Traits).
template <class Tr>
constexpr auto has_fast_max(int) -> decltype(Tr::kFastMax) { return Tr::kFastMax; }
template <class Tr>
constexpr bool has_fast_max(long) { return false; }

// Whether the simple Max loop runs two blocks per iteration (Tr::kUnrollMax).
template <class Tr>
constexpr auto unroll_max(int) -> decltype(Tr::kUnrollMax) { return Tr::kUnrollMax; }
template <class Tr>
constexpr bool unroll_max(long) { return false; }

template <class T>
inline v128_t splat_value(T x) {
  T lanes[16 / sizeof(T)];
  for (T& l : lanes) l = x;
  return wasm_v128_load(lanes);
}
#endif

// The loops below walk pointers (a += 16 / sizeof(T) per vector), not an
// index: the four loads of a block then share one address with constant
// offsets (v128.load offset=16, 32, 48), which V8 folds into the addressing
// mode; index arithmetic costs several integer instructions per load.

// Bytes per chunk of the fast Max path below (one check per chunk): 4 KiB;
// after a chunk had to be redone, 256 B until 4 KiB in a row pass, then 1 KiB
// until 64 KiB do. Big chunks keep the per-chunk test and loop exit rare on
// data without NaNs; after a redo, tiny chunks keep NaNs a few KiB apart from
// putting one in nearly every chunk (each such chunk is computed twice), and
// the long stretch of 1 KiB chunks keeps NaNs tens of KiB apart from costing
// a 4 KiB redo each. Measured with bench/kernels.cpp (docs/PERFORMANCE.md,
// "Figures behind the code").
constexpr size_t kFastMaxChunkBytes = 4096;
constexpr size_t kFastMaxSmallChunkBytes = 1024;
constexpr size_t kFastMaxTinyChunkBytes = 256;
constexpr size_t kFastMaxCalmBytes = 65536;
// The chunk is computed as tiny << 2 * (steps passed), the smallest code.
static_assert(kFastMaxSmallChunkBytes == 4 * kFastMaxTinyChunkBytes && kFastMaxChunkBytes == 4 * kFastMaxSmallChunkBytes,
              "FastMax::run's chunk formula");

#ifdef ONNX_OPS_VECTOR
// Whether a fast Max result may stand in for the chain's first operand in the
// exact recompute (traits with kFastKeepsFirst; see FastMax).
template <class Tr>
constexpr auto fast_keeps_first(int) -> decltype(Tr::kFastKeepsFirst) { return Tr::kFastKeepsFirst; }
template <class Tr>
constexpr bool fast_keeps_first(long) { return false; }

// Max of two contiguous operands, or of three (kThree), for the dtypes with a
// fast path (Tr::kFastMax: the floats).
// The fast results go straight to the output, chunk by chunk, while each
// vector's flags are merged into one running Flags (Tr::merge); at the end of a
// chunk, one test: a suspicious chunk (a NaN, a -0, see the traits) is
// recomputed exactly, out of line. No branch per block and no result held
// back.
// In place, for the IEEE types (Tr::kFastKeepsFirst), the operand o that out
// overwrites goes first in the fast chain, pmax(pmax(o, x), y): its NaN is
// what pmax keeps, the flags cover the others, and the exact recompute of a
// chunk reads the fast result r where o was. That recompute is still exact: r
// is o when o is NaN, is never NaN otherwise (so the first NaN is still the
// first of the intact operands), and is an operand of the largest value, +0
// whenever o was +0 and that value is zero: the max over the operands with r
// for o is the max over the operands. The float16/bfloat16 fast formula keeps
// nothing of a NaN, so there, in place, a chunk goes to a stack buffer first
// and is copied out once it passed.
template <class Tr, bool kThree>
struct FastMax {
  using T = typename Tr::T;
  static constexpr size_t kLanes = 16 / sizeof(T);
  static constexpr size_t kChunk = kFastMaxChunkBytes / sizeof(T);
  static constexpr size_t kTinyChunk = kFastMaxTinyChunkBytes / sizeof(T);
  static constexpr size_t kCalm = kFastMaxCalmBytes / sizeof(T);

  // out[0..m) exactly; m is a multiple of kLanes.
  ONNX_OPS_COLD static void exact(size_t m, const T* a, const T* b, const T* c, T* out) {
    for (; m > 0; m -= kLanes, a += kLanes, b += kLanes, c += kThree ? kLanes : 0, out += kLanes) {
      v128_t r = Tr::vmax(wasm_v128_load(a), wasm_v128_load(b));
      if constexpr (kThree) r = Tr::vmax(r, wasm_v128_load(c));
      wasm_v128_store(out, r);
    }
  }

  ONNX_OPS_NO_BUILTINS static void run(size_t n, const T* a, const T* b, const T* c, T* out) {
    auto fast = [&](const T* pa, const T* pb, const T* pc, size_t k, typename Tr::Flags& f) {
      const v128_t va = wasm_v128_load(pa + k * kLanes);
      const v128_t vb = wasm_v128_load(pb + k * kLanes);
      if constexpr (kThree) return Tr::vmax3_fast(va, vb, wasm_v128_load(pc + k * kLanes), f);
      else return Tr::vmax_fast(va, vb, f);
    };
    // The fast chain reads (a, b, c) as (x, y, z): b or c goes first when out is it (see above).
    constexpr bool kReorder = fast_keeps_first<Tr>(0);
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
      typename Tr::Flags s{};
      size_t left = m;
      ONNX_OPS_VECTOR_LOOP  // not unrolled: more vectors and flags would spill
      for (; left >= 4 * kLanes; left -= 4 * kLanes) {
        typename Tr::Flags f0, f1, f2, f3;
        wasm_v128_store(po, fast(px, py, pz, 0, f0));
        wasm_v128_store(po + kLanes, fast(px, py, pz, 1, f1));
        wasm_v128_store(po + 2 * kLanes, fast(px, py, pz, 2, f2));
        wasm_v128_store(po + 3 * kLanes, fast(px, py, pz, 3, f3));
        s = Tr::merge(s, Tr::merge(Tr::merge(f0, f1), Tr::merge(f2, f3)));  // one merge on the carried chain
        px += 4 * kLanes;
        py += 4 * kLanes;
        pz += kThree ? 4 * kLanes : 0;
        po += 4 * kLanes;
      }
      ONNX_OPS_VECTOR_LOOP
      for (; left > 0; left -= kLanes) {
        typename Tr::Flags f;
        wasm_v128_store(po, fast(px, py, pz, 0, f));
        s = Tr::merge(s, f);
        px += kLanes;
        py += kLanes;
        pz += kThree ? kLanes : 0;
        po += kLanes;
      }
      const bool redo = Tr::suspicious(s);
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
#endif

// out[i] = max(a[i], b[i]); a or b may be a repeated single value.
template <class Tr, bool kAScalar, bool kBScalar>
ONNX_OPS_KERNEL void max_kernel(size_t n, const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out) {
  if (n == 0) return;
#ifdef ONNX_OPS_VECTOR
  // The fast path pays for two streams; a repeated value that needs checks at
  // all (NaN, +0 for the IEEE types: see max_with_value in ops.cpp) is rare.
  if constexpr (has_fast_max<Tr>(0) && !kAScalar && !kBScalar) {
    FastMax<Tr, false>::run(n, a, b, nullptr, out);
    return;
  } else {
    using T = typename Tr::T;
    constexpr size_t kLanes = 16 / sizeof(T);
    constexpr size_t da = kAScalar ? 0 : 1, db = kBScalar ? 0 : 1;
    const v128_t sa = kAScalar ? splat_value(*a) : v128_t{};
    const v128_t sb = kBScalar ? splat_value(*b) : v128_t{};
    auto va = [&](size_t k) { return kAScalar ? sa : wasm_v128_load(a + k * kLanes); };
    auto vb = [&](size_t k) { return kBScalar ? sb : wasm_v128_load(b + k * kLanes); };
    // The exact select of a float type with a repeated value (a rare case: a
    // NaN value, or a float16/bfloat16 one) goes one vector at a time (size).
    if constexpr (!has_fast_max<Tr>(0)) {
      auto block = [&] {
        const v128_t r0 = Tr::vmax(va(0), vb(0));
        const v128_t r1 = Tr::vmax(va(1), vb(1));
        const v128_t r2 = Tr::vmax(va(2), vb(2));
        const v128_t r3 = Tr::vmax(va(3), vb(3));
        wasm_v128_store(out, r0);
        wasm_v128_store(out + kLanes, r1);
        wasm_v128_store(out + 2 * kLanes, r2);
        wasm_v128_store(out + 3 * kLanes, r3);
      };
      if constexpr (unroll_max<Tr>(0)) {
        // pmax alone (a clean operand): two blocks per iteration, as Relu.
        ONNX_OPS_RELU_LOOP
        for (; n >= 4 * kLanes; n -= 4 * kLanes, a += da * 4 * kLanes, b += db * 4 * kLanes, out += 4 * kLanes) block();
      } else {
        ONNX_OPS_VECTOR_LOOP
        for (; n >= 4 * kLanes; n -= 4 * kLanes, a += da * 4 * kLanes, b += db * 4 * kLanes, out += 4 * kLanes) block();
      }
    }
    ONNX_OPS_VECTOR_LOOP
    for (; n >= kLanes; n -= kLanes, a += da * kLanes, b += db * kLanes, out += kLanes)
      wasm_v128_store(out, Tr::vmax(va(0), vb(0)));
  }
#endif
  ONNX_OPS_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) out[i] = Tr::max1(kAScalar ? *a : a[i], kBScalar ? *b : b[i]);
}

// out = max(x, row) over `rows` consecutive rows of x (and of out), `len`
// elements each, all against one row: Max [R, C] with a reused [C], every row
// in one call (a call per row shows in the time even for rows of 1024
// floats). For traits whose vmax is one instruction: IeeeCleanBTraits, pmax,
// exact against a row that holds no NaN and no +0 (checked once per call,
// ops.cpp).
template <class Tr>
ONNX_OPS_KERNEL void max_rows_kernel(size_t rows, size_t len, const typename Tr::T* x, const typename Tr::T* row,
                                     typename Tr::T* out) {
  using T = typename Tr::T;
  for (; rows > 0; --rows) {
    const T* r = row;
    size_t i = 0;
#ifdef ONNX_OPS_VECTOR
    constexpr size_t kLanes = 16 / sizeof(T);
    auto one = [&](size_t k) { return Tr::vmax(wasm_v128_load(x + k * kLanes), wasm_v128_load(r + k * kLanes)); };
    ONNX_OPS_VECTOR_LOOP
    for (; i + 4 * kLanes <= len; i += 4 * kLanes, x += 4 * kLanes, r += 4 * kLanes, out += 4 * kLanes) {
      const v128_t r0 = one(0), r1 = one(1), r2 = one(2), r3 = one(3);
      wasm_v128_store(out, r0);
      wasm_v128_store(out + kLanes, r1);
      wasm_v128_store(out + 2 * kLanes, r2);
      wasm_v128_store(out + 3 * kLanes, r3);
    }
    ONNX_OPS_VECTOR_LOOP
    for (; i + kLanes <= len; i += kLanes, x += kLanes, r += kLanes, out += kLanes) wasm_v128_store(out, one(0));
#endif
    ONNX_OPS_SCALAR_LOOP
    for (; i < len; ++i) *out++ = Tr::max1(*x++, *r++);
  }
}

// out row r = max(x row r, v[r * vstep]) for `rows` rows of `len` elements:
// Max [R, C] with a value per row ([R, 1]). x's rows start every xstep
// elements: len (rows that follow each other) or 0 (one reused row: the
// outer product [1, C] with [R, 1]). For IeeeCleanBTraits, every v clean, so
// that pmax against the value's splat is exact. A row's last part vector is
// one that ends at the row's end, overlapping the one before it: it may read
// what that one wrote, in place, which max with the same value leaves as it is.
template <class Tr>
ONNX_OPS_KERNEL void max_row_values_kernel(size_t rows, size_t len, const typename Tr::T* x, size_t xstep,
                                           const typename Tr::T* v, size_t vstep, typename Tr::T* out) {
  using T = typename Tr::T;
  for (; rows > 0; --rows, x += xstep, v += vstep) {
    const T* px = x;
    size_t n = len;
#ifdef ONNX_OPS_VECTOR
    constexpr size_t kLanes = 16 / sizeof(T);
    if (n >= kLanes) {
      const v128_t s = splat_value(*v);
      ONNX_OPS_RELU_LOOP  // as Relu's: one instruction per vector (see there)
      for (; n >= 4 * kLanes; n -= 4 * kLanes, px += 4 * kLanes, out += 4 * kLanes) {
        const v128_t r0 = Tr::vmax(wasm_v128_load(px), s), r1 = Tr::vmax(wasm_v128_load(px + kLanes), s);
        const v128_t r2 = Tr::vmax(wasm_v128_load(px + 2 * kLanes), s);
        const v128_t r3 = Tr::vmax(wasm_v128_load(px + 3 * kLanes), s);
        wasm_v128_store(out, r0);
        wasm_v128_store(out + kLanes, r1);
        wasm_v128_store(out + 2 * kLanes, r2);
        wasm_v128_store(out + 3 * kLanes, r3);
      }
      ONNX_OPS_VECTOR_LOOP
      for (; n >= kLanes; n -= kLanes, px += kLanes, out += kLanes) wasm_v128_store(out, Tr::vmax(wasm_v128_load(px), s));
      if (n > 0) {  // the last vector, ending at the row's end
        px += n;
        out += n;
        wasm_v128_store(out - kLanes, Tr::vmax(wasm_v128_load(px - kLanes), s));
      }
      continue;
    }
#endif
    ONNX_OPS_SCALAR_LOOP
    for (; n > 0; --n) *out++ = Tr::max1(*px++, *v);
  }
}

#ifdef ONNX_OPS_VECTOR
// max_row_values_kernel for rows of more than 16 and at most 32 bytes: the
// row's first and last 16 bytes, both read before either is written (in
// place), no loop per row (with one, rows of two vectors ran slower than the
// grouped path).
template <class Tr>
ONNX_OPS_KERNEL void max_short_row_values_kernel(size_t rows, size_t len, const typename Tr::T* x, size_t xstep,
                                                 const typename Tr::T* v, size_t vstep, typename Tr::T* out) {
  const size_t tail = len - 16 / sizeof(typename Tr::T);
  ONNX_OPS_VECTOR_LOOP
  for (; rows > 0; --rows, x += xstep, v += vstep, out += len) {
    const v128_t s = splat_value(*v);
    const v128_t a = Tr::vmax(wasm_v128_load(x), s), b = Tr::vmax(wasm_v128_load(x + tail), s);
    wasm_v128_store(out, a);
    wasm_v128_store(out + tail, b);
  }
}
#endif

// out[i] = max(max(a[i], b[i]), c[i]): three contiguous inputs in one pass
// (16 bytes moved per float32 element instead of 24 for two passes). The
// fold is left to right, so the first NaN still wins.
template <class Tr>
ONNX_OPS_KERNEL void max3_kernel(size_t n, const typename Tr::T* a, const typename Tr::T* b,
                                 const typename Tr::T* c, typename Tr::T* out) {
#ifdef ONNX_OPS_VECTOR
  if constexpr (has_fast_max<Tr>(0)) {
    FastMax<Tr, true>::run(n, a, b, c, out);
    return;
  } else {
    constexpr size_t kLanes = 16 / sizeof(typename Tr::T);
    ONNX_OPS_VECTOR_LOOP
    for (; n >= kLanes; n -= kLanes, a += kLanes, b += kLanes, c += kLanes, out += kLanes)
      wasm_v128_store(out, Tr::vmax(Tr::vmax(wasm_v128_load(a), wasm_v128_load(b)), wasm_v128_load(c)));
  }
#endif
  ONNX_OPS_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) out[i] = Tr::max1(Tr::max1(a[i], b[i]), c[i]);
}

// Whether Relu of the dtype is max(x, 0) (traits with kReluIsMaxZero).
template <class Tr>
constexpr auto relu_is_max_zero(int) -> decltype(Tr::kReluIsMaxZero) { return Tr::kReluIsMaxZero; }
template <class Tr>
constexpr bool relu_is_max_zero(long) { return false; }

// Relu of data beyond L2 (runs of kStreamBytes or more, traits with
// kStreamRelu: float32): every result is xored with a zero the compiler
// cannot see before it is stored. Found by measurement, not derived: beyond
// L2 the loop with the extra instruction ran faster than without it (and
// than a load/store-only loop); in the caches it is slower, hence the
// threshold, near where the two cross. Other variants helped less or not at
// all. Machine and figures: docs/PERFORMANCE.md.
template <class Tr>
constexpr auto stream_relu(int) -> decltype(Tr::kStreamRelu) { return Tr::kStreamRelu; }
template <class Tr>
constexpr bool stream_relu(long) { return false; }
constexpr size_t kStreamBytes = 512 * 1024;
inline int32_t stream_zero() {
  volatile int32_t z = 0;
  return z;
}

// out[i] = relu(x[i]).
template <class Tr>
ONNX_OPS_KERNEL void relu_kernel(size_t n, const typename Tr::T* x, typename Tr::T* out) {
  if constexpr (relu_is_max_zero<Tr>(0)) {
    const typename Tr::T zero = 0;
    max_kernel<Tr, false, true>(n, x, &zero, out);
  } else {
#ifdef ONNX_OPS_VECTOR
    using T = typename Tr::T;
    constexpr size_t kLanes = 16 / sizeof(T);
    auto loop = [&](auto stream) {
      const v128_t zero = decltype(stream)::value ? wasm_i32x4_splat(stream_zero()) : v128_t{};
      auto f = [&](v128_t v) {
        const v128_t r = Tr::vrelu(v);
        if constexpr (decltype(stream)::value) return wasm_v128_xor(r, zero);
        else return r;
      };
      ONNX_OPS_RELU_LOOP
      for (; n >= 4 * kLanes; n -= 4 * kLanes, x += 4 * kLanes, out += 4 * kLanes) {
        const v128_t r0 = f(wasm_v128_load(x));
        const v128_t r1 = f(wasm_v128_load(x + kLanes));
        const v128_t r2 = f(wasm_v128_load(x + 2 * kLanes));
        const v128_t r3 = f(wasm_v128_load(x + 3 * kLanes));
        wasm_v128_store(out, r0);
        wasm_v128_store(out + kLanes, r1);
        wasm_v128_store(out + 2 * kLanes, r2);
        wasm_v128_store(out + 3 * kLanes, r3);
      }
    };
    if (stream_relu<Tr>(0) && n * sizeof(T) >= kStreamBytes) loop(std::true_type{});
    else loop(std::false_type{});
    ONNX_OPS_VECTOR_LOOP
    for (; n >= kLanes; n -= kLanes, x += kLanes, out += kLanes) wasm_v128_store(out, Tr::vrelu(wasm_v128_load(x)));
#endif
    ONNX_OPS_SCALAR_LOOP
    for (size_t i = 0; i < n; ++i) out[i] = Tr::relu1(x[i]);
  }
}

// out[0..bytes) = x[0..bytes), which it does not partly overlap (Max of one
// input, and rows gathered in ops.cpp, some of a few bytes: the rest goes 8,
// 4, 2, 1 bytes at a time: a byte loop made short rows measurably slower).
ONNX_OPS_KERNEL ONNX_OPS_NO_BUILTINS inline void copy_bytes(size_t bytes, const unsigned char* x, unsigned char* out) {
#ifdef ONNX_OPS_VECTOR
  ONNX_OPS_VECTOR_LOOP
  for (; bytes >= 16; bytes -= 16, x += 16, out += 16) wasm_v128_store(out, wasm_v128_load(x));
#endif
  ONNX_OPS_SCALAR_LOOP
  for (; bytes >= 8; bytes -= 8, x += 8, out += 8) __builtin_memcpy(out, x, 8);
  if (bytes & 4) {
    __builtin_memcpy(out, x, 4);
    x += 4;
    out += 4;
  }
  if (bytes & 2) {
    __builtin_memcpy(out, x, 2);
    x += 2;
    out += 2;
  }
  if (bytes & 1) *out = *x;
}

#ifdef ONNX_OPS_VECTOR
// The value of `size` bytes (1, 2, 4 or 8) at value, in every lane of its width.
inline v128_t splat_bytes(size_t size, const unsigned char* value) {
  return size == 1   ? wasm_v128_load8_splat(value)
         : size == 2 ? wasm_v128_load16_splat(value)
         : size == 4 ? wasm_v128_load32_splat(value)
                     : wasm_v128_load64_splat(value);
}
#endif

// n copies of the value of `size` bytes (1, 2, 4 or 8) at out.
ONNX_OPS_KERNEL ONNX_OPS_NO_BUILTINS inline void fill_bytes(size_t n, size_t size, const unsigned char* value,
                                                            unsigned char* out) {
  alignas(16) unsigned char pattern[16];
  size_t bytes = n * size;
#ifdef ONNX_OPS_VECTOR
  const v128_t p = splat_bytes(size, value);
  wasm_v128_store(pattern, p);
  ONNX_OPS_VECTOR_LOOP
  for (; bytes >= 16; bytes -= 16, out += 16) wasm_v128_store(out, p);
#else
  ONNX_OPS_SCALAR_LOOP
  for (size_t i = 0; i < 16; ++i) pattern[i] = value[i & (size - 1)];  // size is a power of two
#endif
  ONNX_OPS_SCALAR_LOOP
  for (size_t i = 0; i < bytes; ++i) out[i] = pattern[i % 16];  // 16 is a multiple of size
}

// out[i] = *value: a run whose result is one value (Max of two repeated
// values, or of a NaN first one).
template <class T>
void fill_kernel(size_t n, const T* value, T* out) {
  fill_bytes(n, sizeof(T), reinterpret_cast<const unsigned char*>(value), reinterpret_cast<unsigned char*>(out));
}

}  // namespace onnx_ops
