// ONNX Relu over one call (src/ops.h's run() has the statuses).
#pragma once

#include "../ops.h"

namespace onnx_ops {

Status relu(const Call& call);

}  // namespace onnx_ops
