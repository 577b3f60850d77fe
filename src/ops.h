// The library's two entry points, one per op, each over one call: tensors in
// memory with their shapes (the module's entries, bindings/bindings.cpp, read
// a Call that the JS layer laid out in wasm memory). Opset rules (which dtype
// is allowed at which operator version, same-shape inputs before Max-8) are
// the API layer's; these accept every dtype they have a kernel for.
#pragma once

#include <cstdint>

#include "plan/broadcast.h"
#include "status.h"

namespace onnx_ops {

// n inputs of one dtype (ONNX TensorProto number), each with its shape, and
// the output with its shape. out may be exactly one of the inputs that has
// the output's shape (in place); no other overlap is allowed.
struct Call {
  int32_t dtype;
  int n;
  const void* const* inputs;
  const Shape* shapes;
  void* out;
  Shape out_shape;
};

// ONNX Max of the inputs, with numpy broadcasting: out_shape must be their
// broadcast. Statuses: BadDtype, BadArity (n < 1), BadShape, Incompatible,
// OutShapeMismatch, TooLarge.
Status max(const Call& call);

// ONNX Relu of the one input; out_shape must be its shape. BadArity for
// other than one input, BadShape, OutShapeMismatch, TooLarge, BadDtype for
// unsigned dtypes.
Status relu(const Call& call);

}  // namespace onnx_ops
