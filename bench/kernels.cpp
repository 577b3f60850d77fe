// Benchmark-only wasm module (never shipped): the library's own micro-kernels
// (src/kernels.h, same compiler flags) next to yardsticks built from the very
// same loop bodies, so that a ratio between two of them measures only what the
// traits do per vector:
//
//   bench_max_<t>     the library's NaN-exact Max kernel (two inputs)
//   bench_max3_<t>    the library's fused three-input Max kernel
//   bench_pmax_<t>    the same loop with wasm's pmax (a < b ? b : a) and no
//                     checks: no NaN propagation, -0/+0 unordered (what a
//                     "fast" Max does)
//   bench_pmax3_<t>   pmax(pmax(a, b), c) in the same three-input loop
//   bench_relu_<t>    the library's Relu kernel
//   bench_vcopy_<t>   the Relu loop with an identity body: 128-bit loads and
//                     stores only, the ceiling of any wasm SIMD kernel that
//                     reads one stream and writes one
//
// for t = f32, f64. Built by CMake (target onnx_ops_bench_kernels) into
// build/wasm/bench/bench-kernels.cjs; bench/run.mjs loads it when present.
#include <emscripten.h>

#include <cstddef>
#include <cstdlib>

#include "kernels.h"

namespace {
using onnx_ops::Float32Traits;
using onnx_ops::Float64Traits;

// pmax through the library's own fast-path loop (chunks, stores, flags), with
// flags that are constant zero and a check that never fires: what remains of
// the difference to ours is the NaN / -0 check itself.
template <class F>
struct PmaxTraits {
  using T = F;
  using L = onnx_ops::IeeeLanes<F>;
  static T max1(T a, T b) { return a < b ? b : a; }
  static v128_t vmax(v128_t a, v128_t b) { return L::pmax(a, b); }
  static constexpr bool kFastMax = true;
  using Flags = v128_t;
  static v128_t vmax_fast(v128_t a, v128_t b, v128_t& flag) {
    flag = wasm_i32x4_splat(0);
    return L::pmax(a, b);
  }
  static v128_t vmax3_fast(v128_t a, v128_t b, v128_t c, v128_t& flag) {
    flag = wasm_i32x4_splat(0);
    return L::pmax(L::pmax(a, b), c);
  }
  static v128_t merge(v128_t f, v128_t g) { return wasm_v128_or(f, g); }
  static bool suspicious(v128_t) { return false; }
};

// The Relu loop with no work per vector: loads and stores only.
template <class F>
struct IdentityTraits {
  using T = F;
  static T relu1(T x) { return x; }
  static v128_t vrelu(v128_t x) { return x; }
};
}  // namespace

#define BENCH_KERNELS(t, F, Exact)                                                                  \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_max_##t(size_t n, const F* a, const F* b, F* o) {      \
    onnx_ops::max_kernel<Exact, false, false>(n, a, b, o);                                        \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_max3_##t(size_t n, const F* a, const F* b, const F* c, \
                                                      F* o) {                                       \
    onnx_ops::max3_kernel<Exact>(n, a, b, c, o);                                                    \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_pmax_##t(size_t n, const F* a, const F* b, F* o) {     \
    onnx_ops::max_kernel<PmaxTraits<F>, false, false>(n, a, b, o);                                \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_pmax3_##t(size_t n, const F* a, const F* b, const F* c, \
                                                       F* o) {                                      \
    onnx_ops::max3_kernel<PmaxTraits<F>>(n, a, b, c, o);                                            \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_relu_##t(size_t n, const F* x, F* o) {                 \
    onnx_ops::relu_kernel<Exact>(n, x, o);                                                          \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_vcopy_##t(size_t n, const F* x, F* o) {                \
    onnx_ops::relu_kernel<IdentityTraits<F>>(n, x, o);                                              \
  }

BENCH_KERNELS(f32, float, Float32Traits)
BENCH_KERNELS(f64, double, Float64Traits)

extern "C" EMSCRIPTEN_KEEPALIVE void* bench_alloc(size_t bytes) { return aligned_alloc(64, (bytes + 63) / 64 * 64); }
