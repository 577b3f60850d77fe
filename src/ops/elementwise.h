// The engine of the binary elementwise ops: a call walked over the op's
// kernels (config/binary_kernels.h).
#pragma once

#include "../config/binary_kernels.h"
#include "../ops.h"

namespace onnx_ops {

// The call's inputs folded by the op, left to right, with numpy
// broadcasting (src/ops.h's run() has the statuses).
Status elementwise(const Call& call, const BinaryKernels& k);

}  // namespace onnx_ops
