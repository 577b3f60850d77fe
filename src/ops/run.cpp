// run(): the op a call names, to its engine.
#include "../ops.h"
#include "elementwise.h"
#include "relu.h"

namespace onnx_ops {

Status run(const Call& c) {
  if (c.op == int32_t(OpId::Relu)) return relu(c);
  return elementwise(c, c.op);  // BadOp for a number that is no op
}

}  // namespace onnx_ops
