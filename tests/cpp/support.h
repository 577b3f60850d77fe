// Test support: value generators with the awkward cases of every dtype, and a
// reference Max/Relu written independently of src/dtypes/traits.h (numbers decoded to
// double, NaN and signed-zero rules spelled out).
#pragma once

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <type_traits>
#include <vector>

#include "dtypes/dtype.h"
#include "dtypes/traits.h"

namespace test {

using namespace onnx_ops;

template <class T>
bool same_bits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

template <class To, class From>
To bit_cast(From f) {
  static_assert(sizeof(To) == sizeof(From), "sizes");
  To t;
  std::memcpy(&t, &f, sizeof t);
  return t;
}

// float16 / bfloat16 bits -> double (NaN for NaN patterns).
template <class Tr>
constexpr bool is_half = std::is_same_v<Tr, Float16Traits> || std::is_same_v<Tr, Bfloat16Traits>;

inline double decode16(uint16_t u, int mant_bits) {
  const int exp_bits = 15 - mant_bits;
  const int exp_max = (1 << exp_bits) - 1;
  const int bias = exp_max / 2;
  const bool neg = (u & 0x8000) != 0;
  const int e = (u >> mant_bits) & exp_max;
  const int m = u & ((1 << mant_bits) - 1);
  double v;
  if (e == exp_max) v = m ? std::numeric_limits<double>::quiet_NaN() : std::numeric_limits<double>::infinity();
  else if (e == 0) v = std::ldexp(double(m), 1 - bias - mant_bits);
  else v = std::ldexp(double(m + (1 << mant_bits)), e - bias - mant_bits);
  return neg ? -v : v;
}

template <class Tr>
double as_double(typename Tr::T x) {
  if constexpr (std::is_same_v<Tr, Float16Traits>) return decode16(x, 10);
  else if constexpr (std::is_same_v<Tr, Bfloat16Traits>) return decode16(x, 7);
  else return double(x);
}

template <class Tr>
constexpr bool is_float = is_half<Tr> || std::is_floating_point_v<typename Tr::T>;

// Reference semantics (README, "Semantics").
template <class Tr>
typename Tr::T ref_max(typename Tr::T a, typename Tr::T b) {
  if constexpr (is_float<Tr>) {
    const double da = as_double<Tr>(a), db = as_double<Tr>(b);
    if (std::isnan(da)) return a;
    if (std::isnan(db)) return b;
    if (da > db) return a;
    if (db > da) return b;
    return std::signbit(da) ? b : a;  // equal: only -0 vs +0 differ in bits
  } else {
    return a < b ? b : a;
  }
}

template <class Tr>
typename Tr::T ref_relu(typename Tr::T x) {
  if constexpr (is_float<Tr>) {
    const double d = as_double<Tr>(x);
    if (std::isnan(d) || d > 0) return x;
    return typename Tr::T(0);
  } else {
    return x > 0 ? x : typename Tr::T(0);
  }
}

// Values that break naive kernels: NaNs with payloads and signs, signed
// zeros, infinities, subnormals, extremes.
template <class Tr>
std::vector<typename Tr::T> specials() {
  using T = typename Tr::T;
  if constexpr (std::is_same_v<Tr, Float16Traits>) {
    return {0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e00, 0x7c01, 0xfe01, 0x7fff,
            0x0001, 0x8001, 0x03ff, 0x83ff, 0x0400, 0x7bff, 0xfbff};
  } else if constexpr (std::is_same_v<Tr, Bfloat16Traits>) {
    return {0x0000, 0x8000, 0x3f80, 0xbf80, 0x7f80, 0xff80, 0x7fc0, 0x7f81, 0xffc1, 0x7fff,
            0x0001, 0x8001, 0x007f, 0x807f, 0x0080, 0x7f7f, 0xff7f};
  } else if constexpr (std::is_floating_point_v<T>) {
    using L = std::numeric_limits<T>;
    using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    constexpr int shift = sizeof(T) * 8 - 1;
    const Bits sign = Bits(1) << shift;
    const T nan_payload = bit_cast<T>(bit_cast<Bits>(L::quiet_NaN()) | Bits(0x1234));
    const T neg_nan = bit_cast<T>(bit_cast<Bits>(L::quiet_NaN()) | sign | Bits(7));
    const T snan = bit_cast<T>(bit_cast<Bits>(L::infinity()) | Bits(1));
    return {T(0), -T(0), T(1), T(-1), L::infinity(), -L::infinity(), L::quiet_NaN(), nan_payload, neg_nan,
            snan, L::denorm_min(), -L::denorm_min(), L::min(), -L::min(), L::max(), L::lowest(), T(0.5)};
  } else {
    using L = std::numeric_limits<T>;
    return {T(0), T(1), T(L::max()), T(L::min()), T(L::max() - 1), T(L::min() + 1), T(L::max() / 2),
            T(-1), T(2), T(L::min() / 2)};
  }
}

// Random values: often specials, often small numbers (so ties happen), else random bits.
template <class Tr>
typename Tr::T random_value(std::mt19937_64& rng) {
  using T = typename Tr::T;
  static const std::vector<T> sp = specials<Tr>();
  const uint64_t r = rng();
  switch (r % 4) {
    case 0: return sp[(r >> 8) % sp.size()];
    case 1: {
      const int small = int((r >> 8) % 9) - 4;
      if constexpr (std::is_same_v<Tr, Float16Traits>) {
        const uint16_t table[9] = {0xc400, 0xc200, 0xc000, 0xbc00, 0x0000, 0x3c00, 0x4000, 0x4200, 0x4400};
        return table[small + 4];
      } else if constexpr (std::is_same_v<Tr, Bfloat16Traits>) {
        const uint16_t table[9] = {0xc080, 0xc040, 0xc000, 0xbf80, 0x0000, 0x3f80, 0x4000, 0x4040, 0x4080};
        return table[small + 4];
      } else if constexpr (std::is_unsigned_v<T>) {
        return T(small + 4);
      } else {
        return T(small);
      }
    }
    default: {
      uint64_t bits = rng();
      T t;
      std::memcpy(&t, &bits, sizeof t);
      return t;
    }
  }
}

template <class Tr>
std::vector<typename Tr::T> random_vector(std::mt19937_64& rng, size_t n) {
  std::vector<typename Tr::T> v(n);
  for (auto& x : v) x = random_value<Tr>(rng);
  return v;
}

template <class Tr>
constexpr DType dtype_of() {
  if constexpr (std::is_same_v<Tr, Float32Traits>) return DType::Float32;
  else if constexpr (std::is_same_v<Tr, Float64Traits>) return DType::Float64;
  else if constexpr (std::is_same_v<Tr, Float16Traits>) return DType::Float16;
  else if constexpr (std::is_same_v<Tr, Bfloat16Traits>) return DType::Bfloat16;
  else if constexpr (std::is_same_v<Tr, Int8Traits>) return DType::Int8;
  else if constexpr (std::is_same_v<Tr, Int16Traits>) return DType::Int16;
  else if constexpr (std::is_same_v<Tr, Int32Traits>) return DType::Int32;
  else if constexpr (std::is_same_v<Tr, Int64Traits>) return DType::Int64;
  else if constexpr (std::is_same_v<Tr, Uint8Traits>) return DType::Uint8;
  else if constexpr (std::is_same_v<Tr, Uint16Traits>) return DType::Uint16;
  else if constexpr (std::is_same_v<Tr, Uint32Traits>) return DType::Uint32;
  else return DType::Uint64;
}

}  // namespace test

#define ONNX_OPS_ALL_TRAITS                                                                        \
  onnx_ops::Float32Traits, onnx_ops::Float64Traits, onnx_ops::Float16Traits, onnx_ops::Bfloat16Traits, \
      onnx_ops::Int8Traits, onnx_ops::Int16Traits, onnx_ops::Int32Traits, onnx_ops::Int64Traits,         \
      onnx_ops::Uint8Traits, onnx_ops::Uint16Traits, onnx_ops::Uint32Traits, onnx_ops::Uint64Traits
#define ONNX_OPS_SIGNED_TRAITS                                                                     \
  onnx_ops::Float32Traits, onnx_ops::Float64Traits, onnx_ops::Float16Traits, onnx_ops::Bfloat16Traits, \
      onnx_ops::Int8Traits, onnx_ops::Int16Traits, onnx_ops::Int32Traits, onnx_ops::Int64Traits
