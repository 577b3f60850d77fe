// The 128-bit vector layer every kernel is written against.
//
// In a wasm build with -msimd128 this is exactly <wasm_simd128.h>. Natively
// (g++/clang, for the sanitizer and fuzz builds) the same intrinsic names are
// provided by a lane-by-lane emulation that follows the WebAssembly SIMD spec
// for the operations used here, so the native tests execute the very same
// kernel bodies, bit for bit, that run in wasm.
//
// Define ONNX_OPS_SCALAR to compile the kernels without any vector path (the
// scalar remainder loop then does all the work); the tests run that way too.
#pragma once

#if !defined(ONNX_OPS_SCALAR)
#define ONNX_OPS_VECTOR 1
#endif

#if defined(__wasm_simd128__)
#include <wasm_simd128.h>
#define ONNX_OPS_NATIVE_SIMD 1
#else
#include <cstdint>
#include <cstring>
#include <type_traits>

namespace onnx_ops_emul {
struct v128 {
  alignas(16) unsigned char bytes[16];
};

template <class L>
inline L lane(const v128& v, int i) {
  L x;
  std::memcpy(&x, v.bytes + i * sizeof(L), sizeof(L));
  return x;
}
template <class L>
inline void set_lane(v128& v, int i, L x) {
  std::memcpy(v.bytes + i * sizeof(L), &x, sizeof(L));
}
// All-ones / all-zeros lane of the lane's width, as wasm comparisons produce.
template <class L>
inline L mask_lane(bool m) {
  using U = std::conditional_t<sizeof(L) == 1, uint8_t,
            std::conditional_t<sizeof(L) == 2, uint16_t,
            std::conditional_t<sizeof(L) == 4, uint32_t, uint64_t>>>;
  U u = m ? static_cast<U>(~U(0)) : U(0);
  L x;
  std::memcpy(&x, &u, sizeof(L));
  return x;
}
template <class L, class F>
inline v128 map1(v128 a, F f) {
  v128 r;
  for (int i = 0; i < int(16 / sizeof(L)); ++i) set_lane<L>(r, i, f(lane<L>(a, i)));
  return r;
}
template <class L, class F>
inline v128 map2(v128 a, v128 b, F f) {
  v128 r;
  for (int i = 0; i < int(16 / sizeof(L)); ++i)
    set_lane<L>(r, i, f(lane<L>(a, i), lane<L>(b, i)));
  return r;
}
template <class L, class F>
inline v128 cmp2(v128 a, v128 b, F f) {
  v128 r;
  for (int i = 0; i < int(16 / sizeof(L)); ++i)
    set_lane(r, i, mask_lane<L>(f(lane<L>(a, i), lane<L>(b, i))));
  return r;
}
template <class L>
inline v128 splat(L x) {
  v128 r;
  for (int i = 0; i < int(16 / sizeof(L)); ++i) set_lane<L>(r, i, x);
  return r;
}
}  // namespace onnx_ops_emul

typedef onnx_ops_emul::v128 v128_t;

inline v128_t wasm_v128_load(const void* p) {
  v128_t r;
  std::memcpy(r.bytes, p, 16);
  return r;
}
inline void wasm_v128_store(void* p, v128_t v) { std::memcpy(p, v.bytes, 16); }

#define ONNX_OPS_EMUL_BITWISE(name, expr)                                           \
  inline v128_t name(v128_t a, v128_t b) {                                          \
    return onnx_ops_emul::map2<uint8_t>(a, b, [](uint8_t x, uint8_t y) {            \
      return static_cast<uint8_t>(expr);                                            \
    });                                                                             \
  }
ONNX_OPS_EMUL_BITWISE(wasm_v128_and, x & y)
ONNX_OPS_EMUL_BITWISE(wasm_v128_or, x | y)
ONNX_OPS_EMUL_BITWISE(wasm_v128_xor, x ^ y)
ONNX_OPS_EMUL_BITWISE(wasm_v128_andnot, x & ~y)
#undef ONNX_OPS_EMUL_BITWISE

// bitselect(a, b, m): bits of a where m is 1, bits of b where m is 0.
inline v128_t wasm_v128_bitselect(v128_t a, v128_t b, v128_t m) {
  v128_t r;
  for (int i = 0; i < 16; ++i)
    r.bytes[i] = static_cast<unsigned char>((a.bytes[i] & m.bytes[i]) | (b.bytes[i] & ~m.bytes[i]));
  return r;
}

#define ONNX_OPS_EMUL_SPLAT(name, L) \
  inline v128_t name(L x) { return onnx_ops_emul::splat<L>(x); }
ONNX_OPS_EMUL_SPLAT(wasm_i16x8_splat, int16_t)
ONNX_OPS_EMUL_SPLAT(wasm_i32x4_splat, int32_t)
ONNX_OPS_EMUL_SPLAT(wasm_i64x2_splat, int64_t)
#undef ONNX_OPS_EMUL_SPLAT
#define ONNX_OPS_EMUL_LOAD_SPLAT(name, L) \
  inline v128_t name(const void* p) {     \
    L x;                                  \
    std::memcpy(&x, p, sizeof x);         \
    return onnx_ops_emul::splat<L>(x);    \
  }
ONNX_OPS_EMUL_LOAD_SPLAT(wasm_v128_load8_splat, uint8_t)
ONNX_OPS_EMUL_LOAD_SPLAT(wasm_v128_load16_splat, uint16_t)
ONNX_OPS_EMUL_LOAD_SPLAT(wasm_v128_load32_splat, uint32_t)
ONNX_OPS_EMUL_LOAD_SPLAT(wasm_v128_load64_splat, uint64_t)
#undef ONNX_OPS_EMUL_LOAD_SPLAT

// Each integer lane type's max and min, as wasm has them (an op's traits
// primitive may be either).
#define ONNX_OPS_EMUL_MINMAX(lanes, L)                                                          \
  inline v128_t wasm_##lanes##_max(v128_t a, v128_t b) {                                        \
    return onnx_ops_emul::map2<L>(a, b, [](L x, L y) { return x > y ? x : y; });                \
  }                                                                                             \
  inline v128_t wasm_##lanes##_min(v128_t a, v128_t b) {                                        \
    return onnx_ops_emul::map2<L>(a, b, [](L x, L y) { return x < y ? x : y; });                \
  }
ONNX_OPS_EMUL_MINMAX(i8x16, int8_t)
ONNX_OPS_EMUL_MINMAX(u8x16, uint8_t)
ONNX_OPS_EMUL_MINMAX(i16x8, int16_t)
ONNX_OPS_EMUL_MINMAX(u16x8, uint16_t)
ONNX_OPS_EMUL_MINMAX(i32x4, int32_t)
ONNX_OPS_EMUL_MINMAX(u32x4, uint32_t)
#undef ONNX_OPS_EMUL_MINMAX

#define ONNX_OPS_EMUL_CMP(name, L, op) \
  inline v128_t name(v128_t a, v128_t b) { return onnx_ops_emul::cmp2<L>(a, b, [](L x, L y) { return x op y; }); }
ONNX_OPS_EMUL_CMP(wasm_i16x8_gt, int16_t, >)
ONNX_OPS_EMUL_CMP(wasm_i32x4_eq, int32_t, ==)
ONNX_OPS_EMUL_CMP(wasm_i64x2_eq, int64_t, ==)
ONNX_OPS_EMUL_CMP(wasm_i64x2_gt, int64_t, >)
ONNX_OPS_EMUL_CMP(wasm_i64x2_lt, int64_t, <)
ONNX_OPS_EMUL_CMP(wasm_i32x4_lt, int32_t, <)
ONNX_OPS_EMUL_CMP(wasm_i16x8_lt, int16_t, <)
ONNX_OPS_EMUL_CMP(wasm_u16x8_gt, uint16_t, >)
ONNX_OPS_EMUL_CMP(wasm_f32x4_eq, float, ==)
ONNX_OPS_EMUL_CMP(wasm_f32x4_ne, float, !=)
ONNX_OPS_EMUL_CMP(wasm_f32x4_lt, float, <)
ONNX_OPS_EMUL_CMP(wasm_f64x2_eq, double, ==)
ONNX_OPS_EMUL_CMP(wasm_f64x2_ne, double, !=)
ONNX_OPS_EMUL_CMP(wasm_f64x2_lt, double, <)
#undef ONNX_OPS_EMUL_CMP

// pmax(a, b) = a < b ? b : a, lane by lane (the wasm "pseudo-maximum").
inline v128_t wasm_f32x4_pmax(v128_t a, v128_t b) {
  return onnx_ops_emul::map2<float>(a, b, [](float x, float y) { return x < y ? y : x; });
}
inline v128_t wasm_f64x2_pmax(v128_t a, v128_t b) {
  return onnx_ops_emul::map2<double>(a, b, [](double x, double y) { return x < y ? y : x; });
}
inline v128_t wasm_f32x4_add(v128_t a, v128_t b) {
  return onnx_ops_emul::map2<float>(a, b, [](float x, float y) { return x + y; });
}
inline v128_t wasm_f64x2_add(v128_t a, v128_t b) {
  return onnx_ops_emul::map2<double>(a, b, [](double x, double y) { return x + y; });
}
inline bool wasm_v128_any_true(v128_t a) {
  for (unsigned char b : a.bytes)
    if (b) return true;
  return false;
}

// Arithmetic shifts right; the count is taken modulo the lane width (wasm spec).
inline v128_t wasm_i16x8_shr(v128_t a, uint32_t n) {
  return onnx_ops_emul::map1<int16_t>(a, [n](int16_t x) { return static_cast<int16_t>(x >> (n & 15)); });
}
inline v128_t wasm_i16x8_shl(v128_t a, uint32_t n) {
  return onnx_ops_emul::map1<uint16_t>(a, [n](uint16_t x) { return static_cast<uint16_t>(x << (n & 15)); });
}
#endif

// simd_opaque(v) is v, through a value the optimiser cannot look into. It keeps
// andnot(x, compare-mask) an andnot: LLVM otherwise re-forms it into a select,
// which becomes a v128.bitselect (three instructions in V8 on x64, not one).
#if defined(ONNX_OPS_NATIVE_SIMD)
inline v128_t simd_opaque(v128_t v) {
  __asm__("" : "+r"(v));
  return v;
}
#else
inline v128_t simd_opaque(v128_t v) { return v; }
#endif
