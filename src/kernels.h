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
#define ONNX_OPS_SCALAR_LOOP _Pragma("clang loop vectorize(disable) unroll(disable)")
#define ONNX_OPS_VECTOR_LOOP _Pragma("clang loop unroll(disable)")
#else
#define ONNX_OPS_KERNEL __attribute__((noinline))
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

// out[i] = max(a[i], b[i]); a or b may be a repeated single value.
template <class Tr, bool kAScalar, bool kBScalar>
ONNX_OPS_KERNEL void max_kernel(size_t n, const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out) {
  if (n == 0) return;
  size_t i = 0;
#ifdef ONNX_OPS_VECTOR
  using T = typename Tr::T;
  constexpr size_t kLanes = 16 / sizeof(T);
  const v128_t sa = kAScalar ? splat_value(*a) : v128_t{};
  const v128_t sb = kBScalar ? splat_value(*b) : v128_t{};
  auto va = [&](size_t j) { return kAScalar ? sa : wasm_v128_load(a + j); };
  auto vb = [&](size_t j) { return kBScalar ? sb : wasm_v128_load(b + j); };
  ONNX_OPS_VECTOR_LOOP
  for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
    v128_t r0, r1, r2, r3;
    if constexpr (has_fast_max<Tr>(0)) {
      v128_t suspect = wasm_i32x4_splat(0);
      r0 = Tr::vmax_fast(va(i), vb(i), suspect);
      r1 = Tr::vmax_fast(va(i + kLanes), vb(i + kLanes), suspect);
      r2 = Tr::vmax_fast(va(i + 2 * kLanes), vb(i + 2 * kLanes), suspect);
      r3 = Tr::vmax_fast(va(i + 3 * kLanes), vb(i + 3 * kLanes), suspect);
      if (Tr::suspicious(suspect)) {
        r0 = Tr::vmax(va(i), vb(i));
        r1 = Tr::vmax(va(i + kLanes), vb(i + kLanes));
        r2 = Tr::vmax(va(i + 2 * kLanes), vb(i + 2 * kLanes));
        r3 = Tr::vmax(va(i + 3 * kLanes), vb(i + 3 * kLanes));
      }
    } else {
      r0 = Tr::vmax(va(i), vb(i));
      r1 = Tr::vmax(va(i + kLanes), vb(i + kLanes));
      r2 = Tr::vmax(va(i + 2 * kLanes), vb(i + 2 * kLanes));
      r3 = Tr::vmax(va(i + 3 * kLanes), vb(i + 3 * kLanes));
    }
    wasm_v128_store(out + i, r0);
    wasm_v128_store(out + i + kLanes, r1);
    wasm_v128_store(out + i + 2 * kLanes, r2);
    wasm_v128_store(out + i + 3 * kLanes, r3);
  }
  ONNX_OPS_VECTOR_LOOP
  for (; i + kLanes <= n; i += kLanes) wasm_v128_store(out + i, Tr::vmax(va(i), vb(i)));
#endif
  ONNX_OPS_SCALAR_LOOP
  for (; i < n; ++i) out[i] = Tr::max1(kAScalar ? *a : a[i], kBScalar ? *b : b[i]);
}

// out[i] = relu(x[i]).
template <class Tr>
ONNX_OPS_KERNEL void relu_kernel(size_t n, const typename Tr::T* x, typename Tr::T* out) {
  size_t i = 0;
#ifdef ONNX_OPS_VECTOR
  using T = typename Tr::T;
  constexpr size_t kLanes = 16 / sizeof(T);
  ONNX_OPS_VECTOR_LOOP
  for (; i + 4 * kLanes <= n; i += 4 * kLanes) {
    const v128_t r0 = Tr::vrelu(wasm_v128_load(x + i));
    const v128_t r1 = Tr::vrelu(wasm_v128_load(x + i + kLanes));
    const v128_t r2 = Tr::vrelu(wasm_v128_load(x + i + 2 * kLanes));
    const v128_t r3 = Tr::vrelu(wasm_v128_load(x + i + 3 * kLanes));
    wasm_v128_store(out + i, r0);
    wasm_v128_store(out + i + kLanes, r1);
    wasm_v128_store(out + i + 2 * kLanes, r2);
    wasm_v128_store(out + i + 3 * kLanes, r3);
  }
  ONNX_OPS_VECTOR_LOOP
  for (; i + kLanes <= n; i += kLanes) wasm_v128_store(out + i, Tr::vrelu(wasm_v128_load(x + i)));
#endif
  ONNX_OPS_SCALAR_LOOP
  for (; i < n; ++i) out[i] = Tr::relu1(x[i]);
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
