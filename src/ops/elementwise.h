// The engine of the binary elementwise ops: a call walked over its op's
// kernels (config/binary_config.h).
#pragma once

#include "../ops.h"

namespace onnx_ops {

// The call's inputs folded by its op, left to right, with numpy
// broadcasting (src/ops.h's run() has the statuses); BadOp for an op that is
// no binary elementwise op. `op` is the call's op field, or the op of the
// module's entry that runs it.
Status elementwise(const Call& call, int32_t op);

}  // namespace onnx_ops
