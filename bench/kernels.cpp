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
//                     stores only (beyond L2 the library's float32 Relu, with
//                     one more instruction, runs faster: see relu_kernel)
//   bench_maxrow_<t>  the library's Max of [R, C] with a reused [C] row, through
//                     its C++ entry point (max_forward: planning, the row's
//                     NaN/+0 scan, then one pmax pass over all rows)
//   bench_prow_<t>    that last pass alone (the library's max_rows_kernel with
//                     pmax): two loads and a store per vector
//   bench_maxval_<t>  the library's Max of [n] with a rank-0 value (max_forward)
//   bench_pmaxval_<t> pmax with a repeated value: the loop the library runs for a
//                     value that is no NaN and no +0 (max_row_values_kernel, one row)
//
// for t = f32, f64. Built by CMake (target onnx_ops_bench_kernels) into
// build/wasm/bench/bench-kernels.cjs; bench/run.mjs loads it when present.
#include <emscripten.h>

#include <cstddef>
#include <cstdlib>

#include "kernels.h"
#include "ops.h"

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

// Max through the library's C++ entry point (planning included).
int32_t max_entry(int32_t dtype, const void* a, const int64_t* a_dims, int a_rank, const void* b, const int64_t* b_dims,
                  int b_rank, void* out) {
  const onnx_ops::Shape shapes[2] = {{a_dims, a_rank}, {b_dims, b_rank}};
  const void* inputs[2] = {a, b};
  return int32_t(onnx_ops::max_forward(dtype, 2, inputs, shapes, out, shapes[0]));
}

// The Relu loop with no work per vector: loads and stores only.
template <class F>
struct IdentityTraits {
  using T = F;
  static T relu1(T x) { return x; }
  static v128_t vrelu(v128_t x) { return x; }
};
}  // namespace

#define BENCH_KERNELS(t, F, Exact, Bits, Dtype)                                                                \
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
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE int32_t bench_maxrow_##t(size_t rows, size_t len, const F* x,     \
                                                           const F* row, F* o) {                    \
    const int64_t x_dims[2] = {int64_t(rows), int64_t(len)}, row_dims[1] = {int64_t(len)};         \
    return max_entry(Dtype, x, x_dims, 2, row, row_dims, 1, o);                                     \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_prow_##t(size_t rows, size_t len, const F* x,          \
                                                      const F* row, F* o) {                         \
    onnx_ops::max_rows_kernel<onnx_ops::IeeeCleanBTraits<F, Bits>>(rows, len, x, row, o);           \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE int32_t bench_maxval_##t(size_t n, const F* x, const F* v, F* o) { \
    const int64_t x_dims[1] = {int64_t(n)};                                                         \
    return max_entry(Dtype, x, x_dims, 1, v, nullptr, 0, o);                                        \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_pmaxval_##t(size_t n, const F* x, const F* v, F* o) {  \
    onnx_ops::max_row_values_kernel<onnx_ops::IeeeCleanBTraits<F, Bits>>(1, n, x, 0, v, 0, o);      \
  }

BENCH_KERNELS(f32, float, Float32Traits, uint32_t, 1)
BENCH_KERNELS(f64, double, Float64Traits, uint64_t, 11)

extern "C" EMSCRIPTEN_KEEPALIVE void* bench_alloc(size_t bytes) { return aligned_alloc(64, (bytes + 63) / 64 * 64); }
