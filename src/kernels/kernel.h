// What every kernel file shares: the attributes and loop pragmas that keep
// the generated code as intended, the contract checks, splats, and Rows, the
// walk of the row kernels.
//
// A kernel is a leaf loop: a main loop, a remainder, no call to another
// kernel; which kernel runs for a dtype and an operand is src/config/'s. Each
// states its contract in a sentence and asserts it (assert: compiled out in
// the release wasm, kept in the native test and fuzz builds).
//
// The kernels walk pointers (a += 16 / sizeof(T) per vector), not an index:
// the four loads of a block then share one address with constant offsets
// (v128.load offset=16, 32, 48), which V8 folds into the addressing mode;
// index arithmetic costs several integer instructions per load.
#pragma once

#include <cassert>
#include <cstddef>
#include <cstdint>

#include "../dtypes/traits.h"
#include "../tuning.h"

namespace onnx_ops {

// Kernels stay out of line (code size: 12 dtypes x kernels), and their
// scalar remainder loops are not auto-vectorised again by the compiler.
#define ONNX_OPS_KERNEL __attribute__((noinline))
#define ONNX_OPS_COLD __attribute__((noinline, cold))
#if defined(__clang__)
// Copy and fill loops stay vector loops: LLVM would make them memcpy/memset
// calls, and the libc linked here (-Oz) does those a byte at a time, far
// slower than a vector loop.
#define ONNX_OPS_NO_BUILTINS __attribute__((no_builtin("memcpy"), no_builtin("memset"), no_builtin("memmove")))
#define ONNX_OPS_SCALAR_LOOP _Pragma("clang loop vectorize(disable) unroll(disable)")
#define ONNX_OPS_VECTOR_LOOP _Pragma("clang loop unroll(disable)")
// Two 4-vector blocks per iteration, for loops of one instruction per vector:
// the loop's own integer instructions (V8's interrupt check among them) cost
// about as much as a block otherwise; for the other loops not worth the bytes.
#define ONNX_OPS_TWO_BLOCK_LOOP _Pragma("clang loop unroll_count(2)")
#else
#define ONNX_OPS_NO_BUILTINS
#define ONNX_OPS_SCALAR_LOOP
#define ONNX_OPS_VECTOR_LOOP
#define ONNX_OPS_TWO_BLOCK_LOOP
#endif

// The kernels' in-place rule, for their asserts: an input (x_bytes at x) is
// either the output itself (the same start) or apart from it (out_bytes at
// out); in a partial overlap a store would change a load still to come.
inline bool same_or_apart(const void* x, size_t x_bytes, const void* out, size_t out_bytes) {
  const uintptr_t xa = reinterpret_cast<uintptr_t>(x), oa = reinterpret_cast<uintptr_t>(out);
  return xa == oa || xa + x_bytes <= oa || oa + out_bytes <= xa;
}
// The same for two runs of n elements.
template <class T>
inline bool same_or_apart(const T* x, const T* out, size_t n) {
  return same_or_apart(x, n * sizeof(T), out, n * sizeof(T));
}

// `count` rows of `len` elements, out's rows one after another; row r of the
// first operand starts x_step elements after row r - 1's, of the second
// y_step after (0: one row, or one value, reused).
struct Rows {
  size_t count, len, x_step, y_step;
};

#ifdef ONNX_OPS_VECTOR
template <class T>
inline v128_t splat_value(T x) {
  T lanes[16 / sizeof(T)];
  for (T& l : lanes) l = x;
  return wasm_v128_load(lanes);
}

// Stores f(0), f(1), f(2), f(3) as the four vectors at out, all computed
// before any is stored (so that in place, every load comes first).
template <class T, class F>
inline void store4(T* out, F f) {
  constexpr size_t kLanes = 16 / sizeof(T);
  const v128_t r0 = f(0), r1 = f(1), r2 = f(2), r3 = f(3);
  wasm_v128_store(out, r0);
  wasm_v128_store(out + kLanes, r1);
  wasm_v128_store(out + 2 * kLanes, r2);
  wasm_v128_store(out + 3 * kLanes, r3);
}

// The value of `size` bytes (1, 2, 4 or 8) at value, in every lane of its width.
inline v128_t splat_bytes(size_t size, const unsigned char* value) {
  return size == 1   ? wasm_v128_load8_splat(value)
         : size == 2 ? wasm_v128_load16_splat(value)
         : size == 4 ? wasm_v128_load32_splat(value)
                     : wasm_v128_load64_splat(value);
}
#endif

}  // namespace onnx_ops
