// Element-wise micro-kernels: one template body per op, every dtype through
// its traits (traits.h). Uniform shape, as XNNPACK's: (count, inputs, output),
// a 4-vector main loop, a 1-vector loop, a scalar remainder. Broadcasting is
// the caller's business (ops.cpp): an operand is either a contiguous run
// (kScalar = false) or one value repeated (kScalar = true).
//
// out may be exactly one of the inputs (in place); partial overlap is not allowed.
#pragma once

#include <cstddef>
#include <cstring>

#include "traits.h"

namespace onnx_ops {

// Kernels stay out of line (code size: 12 dtypes x variants), and their
// scalar remainder loops are not auto-vectorised again by the compiler.
#if defined(__clang__)
#define ONNX_OPS_KERNEL __attribute__((noinline))
#define ONNX_OPS_COLD __attribute__((noinline, cold))
#define ONNX_OPS_SCALAR_LOOP _Pragma("clang loop vectorize(disable) unroll(disable)")
#define ONNX_OPS_VECTOR_LOOP _Pragma("clang loop unroll(disable)")
#else
#define ONNX_OPS_KERNEL __attribute__((noinline))
#define ONNX_OPS_COLD __attribute__((noinline, cold))
#define ONNX_OPS_SCALAR_LOOP
#define ONNX_OPS_VECTOR_LOOP
#endif

#ifdef ONNX_OPS_VECTOR
// Whether the traits offer vmax_fast (see Float32Traits).
template <class Tr>
constexpr auto has_fast_max(int) -> decltype(Tr::kFastMax) { return Tr::kFastMax; }
template <class Tr>
constexpr bool has_fast_max(long) { return false; }

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

#ifdef ONNX_OPS_VECTOR
// The exact path of one 4-vector block whose fast result was suspicious (a
// NaN, a -0): out of line, so that the fast loop keeps nothing alive for it
// (V8 would spill the loaded vectors to the stack otherwise).
template <class Tr, bool kAScalar, bool kBScalar>
ONNX_OPS_COLD void max_block_exact(const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out) {
  constexpr size_t kLanes = 16 / sizeof(typename Tr::T);
  for (size_t k = 0; k < 4 * kLanes; k += kLanes) {
    const v128_t va = kAScalar ? splat_value(*a) : wasm_v128_load(a + k);
    const v128_t vb = kBScalar ? splat_value(*b) : wasm_v128_load(b + k);
    wasm_v128_store(out + k, Tr::vmax(va, vb));
  }
}
template <class Tr>
ONNX_OPS_COLD void max3_block_exact(const typename Tr::T* a, const typename Tr::T* b, const typename Tr::T* c,
                                    typename Tr::T* out) {
  constexpr size_t kLanes = 16 / sizeof(typename Tr::T);
  for (size_t k = 0; k < 4 * kLanes; k += kLanes)
    wasm_v128_store(out + k, Tr::vmax(Tr::vmax(wasm_v128_load(a + k), wasm_v128_load(b + k)), wasm_v128_load(c + k)));
}
#endif

// out[i] = max(a[i], b[i]); a or b may be a repeated single value.
template <class Tr, bool kAScalar, bool kBScalar>
ONNX_OPS_KERNEL void max_kernel(size_t n, const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out) {
  if (n == 0) return;
#ifdef ONNX_OPS_VECTOR
  using T = typename Tr::T;
  constexpr size_t kLanes = 16 / sizeof(T);
  constexpr size_t da = kAScalar ? 0 : 1, db = kBScalar ? 0 : 1;
  const v128_t sa = kAScalar ? splat_value(*a) : v128_t{};
  const v128_t sb = kBScalar ? splat_value(*b) : v128_t{};
  auto va = [&](size_t k) { return kAScalar ? sa : wasm_v128_load(a + k * kLanes); };
  auto vb = [&](size_t k) { return kBScalar ? sb : wasm_v128_load(b + k * kLanes); };
  ONNX_OPS_VECTOR_LOOP
  for (; n >= 4 * kLanes; n -= 4 * kLanes, a += da * 4 * kLanes, b += db * 4 * kLanes, out += 4 * kLanes) {
    if constexpr (has_fast_max<Tr>(0)) {
      v128_t f0, f1, f2, f3;
      const v128_t r0 = Tr::vmax_fast(va(0), vb(0), f0);
      const v128_t r1 = Tr::vmax_fast(va(1), vb(1), f1);
      const v128_t r2 = Tr::vmax_fast(va(2), vb(2), f2);
      const v128_t r3 = Tr::vmax_fast(va(3), vb(3), f3);
      if (Tr::suspicious(Tr::merge(Tr::merge(f0, f1), Tr::merge(f2, f3)))) {
        max_block_exact<Tr, kAScalar, kBScalar>(a, b, out);
        continue;
      }
      wasm_v128_store(out, r0);
      wasm_v128_store(out + kLanes, r1);
      wasm_v128_store(out + 2 * kLanes, r2);
      wasm_v128_store(out + 3 * kLanes, r3);
    } else {
      const v128_t r0 = Tr::vmax(va(0), vb(0));
      const v128_t r1 = Tr::vmax(va(1), vb(1));
      const v128_t r2 = Tr::vmax(va(2), vb(2));
      const v128_t r3 = Tr::vmax(va(3), vb(3));
      wasm_v128_store(out, r0);
      wasm_v128_store(out + kLanes, r1);
      wasm_v128_store(out + 2 * kLanes, r2);
      wasm_v128_store(out + 3 * kLanes, r3);
    }
  }
  ONNX_OPS_VECTOR_LOOP
  for (; n >= kLanes; n -= kLanes, a += da * kLanes, b += db * kLanes, out += kLanes)
    wasm_v128_store(out, Tr::vmax(va(0), vb(0)));
#endif
  ONNX_OPS_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) out[i] = Tr::max1(kAScalar ? *a : a[i], kBScalar ? *b : b[i]);
}

// out[i] = max(max(a[i], b[i]), c[i]): three contiguous inputs in one pass
// (16 bytes moved per float32 element instead of 24 for two passes). The
// fold is left to right, so the first NaN still wins.
template <class Tr>
ONNX_OPS_KERNEL void max3_kernel(size_t n, const typename Tr::T* a, const typename Tr::T* b,
                                 const typename Tr::T* c, typename Tr::T* out) {
#ifdef ONNX_OPS_VECTOR
  using T = typename Tr::T;
  constexpr size_t kLanes = 16 / sizeof(T);
  auto exact = [&](size_t k) {
    return Tr::vmax(Tr::vmax(wasm_v128_load(a + k * kLanes), wasm_v128_load(b + k * kLanes)),
                    wasm_v128_load(c + k * kLanes));
  };
  ONNX_OPS_VECTOR_LOOP
  for (; n >= 4 * kLanes; n -= 4 * kLanes, a += 4 * kLanes, b += 4 * kLanes, c += 4 * kLanes, out += 4 * kLanes) {
    auto ld = [](const T* p) { return wasm_v128_load(p); };
    if constexpr (has_fast_max<Tr>(0)) {
      v128_t f0, f1, f2, f3;
      const v128_t r0 = Tr::vmax3_fast(ld(a), ld(b), ld(c), f0);
      const v128_t r1 = Tr::vmax3_fast(ld(a + kLanes), ld(b + kLanes), ld(c + kLanes), f1);
      const v128_t r2 = Tr::vmax3_fast(ld(a + 2 * kLanes), ld(b + 2 * kLanes), ld(c + 2 * kLanes), f2);
      const v128_t r3 = Tr::vmax3_fast(ld(a + 3 * kLanes), ld(b + 3 * kLanes), ld(c + 3 * kLanes), f3);
      if (Tr::suspicious(Tr::merge(Tr::merge(f0, f1), Tr::merge(f2, f3)))) {
        max3_block_exact<Tr>(a, b, c, out);
        continue;
      }
      wasm_v128_store(out, r0);
      wasm_v128_store(out + kLanes, r1);
      wasm_v128_store(out + 2 * kLanes, r2);
      wasm_v128_store(out + 3 * kLanes, r3);
    } else {
      const v128_t r0 = exact(0);
      const v128_t r1 = exact(1);
      const v128_t r2 = exact(2);
      const v128_t r3 = exact(3);
      wasm_v128_store(out, r0);
      wasm_v128_store(out + kLanes, r1);
      wasm_v128_store(out + 2 * kLanes, r2);
      wasm_v128_store(out + 3 * kLanes, r3);
    }
  }
  ONNX_OPS_VECTOR_LOOP
  for (; n >= kLanes; n -= kLanes, a += kLanes, b += kLanes, c += kLanes, out += kLanes)
    wasm_v128_store(out, exact(0));
#endif
  ONNX_OPS_SCALAR_LOOP
  for (size_t i = 0; i < n; ++i) out[i] = Tr::max1(Tr::max1(a[i], b[i]), c[i]);
}

// Whether Relu of the dtype is max(x, 0) (traits with kReluIsMaxZero).
template <class Tr>
constexpr auto relu_is_max_zero(int) -> decltype(Tr::kReluIsMaxZero) { return Tr::kReluIsMaxZero; }
template <class Tr>
constexpr bool relu_is_max_zero(long) { return false; }

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
    ONNX_OPS_VECTOR_LOOP
    for (; n >= 4 * kLanes; n -= 4 * kLanes, x += 4 * kLanes, out += 4 * kLanes) {
      const v128_t r0 = Tr::vrelu(wasm_v128_load(x));
      const v128_t r1 = Tr::vrelu(wasm_v128_load(x + kLanes));
      const v128_t r2 = Tr::vrelu(wasm_v128_load(x + 2 * kLanes));
      const v128_t r3 = Tr::vrelu(wasm_v128_load(x + 3 * kLanes));
      wasm_v128_store(out, r0);
      wasm_v128_store(out + kLanes, r1);
      wasm_v128_store(out + 2 * kLanes, r2);
      wasm_v128_store(out + 3 * kLanes, r3);
    }
    ONNX_OPS_VECTOR_LOOP
    for (; n >= kLanes; n -= kLanes, x += kLanes, out += kLanes) wasm_v128_store(out, Tr::vrelu(wasm_v128_load(x)));
#endif
    ONNX_OPS_SCALAR_LOOP
    for (size_t i = 0; i < n; ++i) out[i] = Tr::relu1(x[i]);
  }
}

// out[i] = x[i] (or the one value x[0] repeated): Max of a single input.
template <class T, bool kScalar>
void copy_kernel(size_t n, const T* x, T* out) {
  if (n == 0) return;
  if (kScalar) {
    const T v = *x;
    ONNX_OPS_SCALAR_LOOP
    for (size_t i = 0; i < n; ++i) out[i] = v;
  } else if (out != x) {
    std::memmove(out, x, n * sizeof(T));
  }
}

}  // namespace onnx_ops
