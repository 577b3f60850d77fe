// Benchmark-only wasm module (never shipped): the library's own micro-kernels
// (src/kernels/, same compiler flags) next to yardsticks built from the very
// same loop bodies, so that a ratio between two of them measures only what the
// traits do per vector:
//
//   bench_max_<t>     the library's NaN-exact Max kernel (two inputs, vmax_checked)
//   bench_max3_<t>    the library's fused three-input Max kernel (vmax3_checked)
//   bench_pmax_<t>    the same loop with wasm's pmax (a < b ? b : a) and no
//                     checks: no NaN propagation, -0/+0 unordered (what a
//                     "fast" Max does)
//   bench_pmax3_<t>   pmax(pmax(a, b), c) in the same three-input loop
//   bench_relu_<t>    the library's Relu kernel
//   bench_vcopy_<t>   the Relu loop with an identity body: 128-bit loads and
//                     stores only (beyond L2 the library's float32 Relu, with
//                     one more instruction, runs faster: see vrelu)
//   bench_maxrow_<t>  the library's Max of [R, C] with a reused [C] row, through
//                     its C++ entry point (onnx_ops::max: planning, the row's
//                     NaN/+0 scan, then one pmax pass over all rows)
//   bench_prow_<t>    that last pass alone (the library's vmax_rows with
//                     pmax): two loads and a store per vector
//   bench_maxval_<t>  the library's Max of [n] with a rank-0 value (onnx_ops::max)
//   bench_pmaxval_<t> pmax with a repeated value: the loop the library runs for a
//                     value that is no NaN and no +0 (vmaxc_rows, one row)
//
// for t = f32, f64. Built by CMake (target onnx_ops_bench_kernels) into
// build/wasm/bench/bench-kernels.cjs; bench/run.mjs loads it when present.
#include <emscripten.h>

#include <cstddef>
#include <cstdlib>

#include "kernels/pmax_clean.h"
#include "kernels/vmax_checked.h"
#include "kernels/vmax_rows.h"
#include "kernels/vrelu.h"
#include "ops.h"

namespace {
using onnx_ops::Float32Traits;
using onnx_ops::Float64Traits;

// pmax through the library's own checked loop (chunks, stores, flags), with
// flags that are constant zero and a check that never fires: what remains of
// the difference to ours is the NaN / -0 check itself.
template <class F>
struct PmaxTraits {
  using T = F;
  using L = onnx_ops::IeeeLanes<F>;
  static constexpr onnx_ops::Format kFormat = onnx_ops::Format::Ieee;
  static T max1(T a, T b) { return a < b ? b : a; }
  static v128_t vmax(v128_t a, v128_t b) { return L::pmax(a, b); }
};
}  // namespace

template <class F>
struct onnx_ops::Fast<PmaxTraits<F>, onnx_ops::Format::Ieee> {
  using L = onnx_ops::IeeeLanes<F>;
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

namespace {

// Max through the library's C++ entry point (planning included).
int32_t max_entry(int32_t dtype, const void* a, const int64_t* a_dims, int a_rank, const void* b, const int64_t* b_dims,
                  int b_rank, void* out) {
  const onnx_ops::Shape shapes[2] = {{a_dims, a_rank}, {b_dims, b_rank}};
  const void* inputs[2] = {a, b};
  return int32_t(onnx_ops::max(onnx_ops::Call{dtype, 2, inputs, shapes, out, shapes[0]}));
}

// The Relu loop with no work per vector: loads and stores only.
template <class F>
struct IdentityTraits {
  using T = F;
  static T relu1(T x) { return x; }
  static v128_t vrelu(v128_t x) { return x; }
};
}  // namespace

#define BENCH_KERNELS(t, F, Exact, Dtype)                                                                \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_max_##t(size_t n, const F* a, const F* b, F* o) {      \
    onnx_ops::vmax_checked<Exact>(n, a, b, o);                                 \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_max3_##t(size_t n, const F* a, const F* b, const F* c, \
                                                      F* o) {                                       \
    onnx_ops::vmax3_checked<Exact>(n, a, b, c, o);                                                 \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_pmax_##t(size_t n, const F* a, const F* b, F* o) {     \
    onnx_ops::vmax_checked<PmaxTraits<F>>(n, a, b, o);                         \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_pmax3_##t(size_t n, const F* a, const F* b, const F* c, \
                                                       F* o) {                                      \
    onnx_ops::vmax3_checked<PmaxTraits<F>>(n, a, b, c, o);                                         \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_relu_##t(size_t n, const F* x, F* o) {                 \
    onnx_ops::vrelu<Exact>(n, x, o);                                                          \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_vcopy_##t(size_t n, const F* x, F* o) {                \
    onnx_ops::vrelu<IdentityTraits<F>>(n, x, o);                                              \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE int32_t bench_maxrow_##t(size_t rows, size_t len, const F* x,     \
                                                           const F* row, F* o) {                    \
    const int64_t x_dims[2] = {int64_t(rows), int64_t(len)}, row_dims[1] = {int64_t(len)};         \
    return max_entry(Dtype, x, x_dims, 2, row, row_dims, 1, o);                                     \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_prow_##t(size_t rows, size_t len, const F* x,          \
                                                      const F* row, F* o) {                         \
    onnx_ops::vmax_rows<onnx_ops::PmaxClean<Exact>>(onnx_ops::Rows{rows, len, len, 0}, x, row, o);           \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE int32_t bench_maxval_##t(size_t n, const F* x, const F* v, F* o) { \
    const int64_t x_dims[1] = {int64_t(n)};                                                         \
    return max_entry(Dtype, x, x_dims, 1, v, nullptr, 0, o);                                        \
  }                                                                                                 \
  extern "C" EMSCRIPTEN_KEEPALIVE void bench_pmaxval_##t(size_t n, const F* x, const F* v, F* o) {  \
    onnx_ops::vmaxc_rows<onnx_ops::PmaxClean<Exact>>(onnx_ops::Rows{1, n, 0, 0}, x, v, o);      \
  }

BENCH_KERNELS(f32, float, Float32Traits, 1)
BENCH_KERNELS(f64, double, Float64Traits, 11)

extern "C" EMSCRIPTEN_KEEPALIVE void* bench_alloc(size_t bytes) { return aligned_alloc(64, (bytes + 63) / 64 * 64); }
