// Byte copies and fills of any element size: Max of one input, a run whose
// result is one value, and the tiles of grouped rows (ops/gather.cpp).
#pragma once

#include <cstddef>

#include "kernel.h"

namespace onnx_ops {

// out[0..bytes) = x[0..bytes), which it does not partly overlap. Some rows
// are a few bytes: the rest goes 8, 4, 2, 1 bytes at a time (a byte loop
// made short rows measurably slower).
ONNX_OPS_KERNEL ONNX_OPS_NO_BUILTINS inline void copy_bytes(size_t bytes, const unsigned char* x, unsigned char* out) {
  assert(bytes == 0 || (x && out));
  assert(same_or_apart(x, bytes, out, bytes));
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

// n copies of the value of `size` bytes (1, 2, 4 or 8) at out.
ONNX_OPS_KERNEL ONNX_OPS_NO_BUILTINS inline void fill_bytes(size_t n, size_t size, const unsigned char* value,
                                                            unsigned char* out) {
  assert(size == 1 || size == 2 || size == 4 || size == 8);
  assert(n == 0 || (value && out));
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

}  // namespace onnx_ops
