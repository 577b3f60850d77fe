// The library's entry point: run(), one call of any op, which the call names
// (the module's entry, bindings/bindings.cpp, reads a Call that the JS layer
// laid out in wasm memory). Opset rules (which dtype is allowed at which
// operator version, same-shape inputs before Max-8) are the API layer's; the
// ops accept every dtype they have a kernel for.
#pragma once

#include <cstdint>

#include "plan/broadcast.h"
#include "status.h"

namespace onnx_ops {

// The ops by number: the module's ABI (js/src/backend/wasm/abi.ts names them).
enum class OpId : int32_t {
  Max = 0,   // variadic, broadcasting (ops/elementwise.cpp, config/binary_config.cpp)
  Relu = 1,  // one input (ops/relu.cpp)
};

// One call of an op: n inputs of one dtype (ONNX TensorProto number), each
// with its shape, and the output with its shape. out may be exactly one of
// the inputs that has the output's shape (in place); no other overlap is
// allowed.
struct Call {
  int32_t dtype;
  int n;
  const void* const* inputs;
  const Shape* shapes;
  void* out;
  Shape out_shape;
  int32_t op;  // an OpId
};

// The op the call names. A binary elementwise op (Max) runs over its
// inputs with numpy broadcasting: out_shape must be their broadcast;
// statuses BadDtype, BadArity (n < 1), BadShape, Incompatible,
// OutShapeMismatch, TooLarge. Relu takes one input, out_shape its shape:
// BadArity for other than one input, BadShape, OutShapeMismatch, TooLarge,
// BadDtype for unsigned dtypes. BadOp for a number that is no op.
Status run(const Call& call);

}  // namespace onnx_ops
