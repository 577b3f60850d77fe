// ONNX Relu over one call: one input of the output's shape, one kernel run.
#include "relu.h"

#include "../config/relu_config.h"

namespace onnx_ops {

Status relu(const Call& c) {
  if (c.n != 1) return Status::BadArity;
  if (!valid_shape(c.shapes[0])) return Status::BadShape;
  if (!same_shape(c.shapes[0], c.out_shape)) return Status::OutShapeMismatch;
  const int64_t count = element_count(c.out_shape);
  if (count < 0 || uint64_t(count) > SIZE_MAX / 8) return Status::TooLarge;
  return run_relu(c.dtype, size_t(count), c.inputs[0], c.out) ? Status::Ok : Status::BadDtype;
}

}  // namespace onnx_ops
