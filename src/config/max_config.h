// Max's kernels for a dtype, as max_config.cpp picks them (the one place
// that decides which loop Max runs).
#pragma once

#include <cstdint>

#include "binary_kernels.h"

namespace onnx_ops {

// The Max kernels of a dtype; op2 is null for a number that is no dtype.
BinaryKernels max_kernels(int32_t dtype);

}  // namespace onnx_ops
