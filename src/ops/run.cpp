// run(): the op a call names, to its engine.
#include "../config/binary_config.h"
#include "../ops.h"
#include "elementwise.h"
#include "relu.h"

namespace onnx_ops {

Status run(const Call& c) {
  if (c.op == int32_t(OpId::Relu)) return relu(c);
  BinaryKernels k;
  if (!binary_kernels(c.op, c.dtype, &k)) return Status::BadOp;
  return elementwise(c, k);
}

}  // namespace onnx_ops
