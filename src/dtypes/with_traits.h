// From a dtype's number to its traits (traits.h): the one switch over the
// dtypes that the op configs (src/config/) share.
#pragma once

#include <cstdint>

#include "dtype.h"
#include "traits.h"

namespace onnx_ops {

// Calls f(Traits{}) with the traits of `dtype`; false for a dtype with no
// kernel. kSigned: Relu, which has no unsigned dtypes (nor their code).
template <bool kSigned, class F>
bool with_traits(int32_t dtype, F&& f) {
  switch (static_cast<DType>(dtype)) {
    case DType::Float32: f(Float32Traits{}); return true;
    case DType::Float64: f(Float64Traits{}); return true;
    case DType::Float16: f(Float16Traits{}); return true;
    case DType::Bfloat16: f(Bfloat16Traits{}); return true;
    case DType::Int8: f(Int8Traits{}); return true;
    case DType::Int16: f(Int16Traits{}); return true;
    case DType::Int32: f(Int32Traits{}); return true;
    case DType::Int64: f(Int64Traits{}); return true;
    default: break;
  }
  if constexpr (!kSigned) {
    switch (static_cast<DType>(dtype)) {
      case DType::Uint8: f(Uint8Traits{}); return true;
      case DType::Uint16: f(Uint16Traits{}); return true;
      case DType::Uint32: f(Uint32Traits{}); return true;
      case DType::Uint64: f(Uint64Traits{}); return true;
      default: break;
    }
  }
  return false;
}

}  // namespace onnx_ops
