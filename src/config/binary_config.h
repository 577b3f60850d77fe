// The binary elementwise ops, each with its kernels (binary_config.cpp's
// table): what ops/elementwise.cpp runs for an op id.
#pragma once

#include <cstdint>

#include "binary_kernels.h"

namespace onnx_ops {

// The kernels of op (an OpId, src/ops.h) for a dtype into *k; false for an
// op that is no binary elementwise op. k->op2 is null for a dtype the op has
// no kernel for.
bool binary_kernels(int32_t op, int32_t dtype, BinaryKernels* k);

}  // namespace onnx_ops
