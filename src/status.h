// Results of the C++ entry point (src/ops.h); the JS layer turns them into
// typed errors. The numbers are the module's ABI.
#pragma once

#include <cstdint>

namespace onnx_ops {

enum class Status : int32_t {
  Ok = 0,
  BadDtype = 1,         // not a dtype, or one the op has no kernel for
  BadArity = 2,         // Max with no inputs, Relu with other than one
  BadShape = 3,         // negative dim, or rank above kMaxRank
  Incompatible = 4,     // shapes do not broadcast
  OutShapeMismatch = 5, // the output shape is not the broadcast of the inputs
  TooLarge = 6,         // element count does not fit in memory's address space
  BadOp = 7,            // the call's op is no op (src/ops.h's OpId)
};

}  // namespace onnx_ops
