// Element types, numbered as ONNX's TensorProto.DataType, and their sizes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace onnx_ops {

enum class DType : int32_t {
  Float32 = 1, Uint8 = 2, Int8 = 3, Uint16 = 4, Int16 = 5, Int32 = 6,
  Int64 = 7, Float16 = 10, Float64 = 11, Uint32 = 12, Uint64 = 13, Bfloat16 = 16,
};

// Bytes per element, or 0 for a number that is not one of the dtypes above.
inline size_t dtype_size(int32_t dtype) {
  switch (static_cast<DType>(dtype)) {
    case DType::Uint8:
    case DType::Int8:
      return 1;
    case DType::Uint16:
    case DType::Int16:
    case DType::Float16:
    case DType::Bfloat16:
      return 2;
    case DType::Float32:
    case DType::Int32:
    case DType::Uint32:
      return 4;
    case DType::Int64:
    case DType::Uint64:
    case DType::Float64:
      return 8;
  }
  return 0;
}

}  // namespace onnx_ops
