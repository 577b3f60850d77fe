// The two operators over whole tensors: dtype dispatch, broadcasting, tiling.
// Opset rules (which dtype is allowed at which operator version, same-shape
// inputs before Max-8) are the API layer's; these functions accept every
// dtype they have a kernel for.
#pragma once

#include <cstddef>
#include <cstdint>

#include "broadcast.h"
#include "dtype.h"

namespace onnx_ops {

// One op call over tensors in memory: n inputs of one dtype (ONNX
// TensorProto number), each with its shape, and the output with its shape.
struct Call {
  int32_t dtype;
  int n;
  const void* const* inputs;
  const Shape* shapes;
  void* out;
  Shape out_shape;
};

// ONNX Max of the call's inputs, with numpy broadcasting: out_shape must be
// their broadcast. Statuses as max_forward's.
Status max(const Call& call);

// ONNX Relu of the call's one input; out_shape must be its shape. BadArity
// for other than one input, OutShapeMismatch, BadDtype for unsigned dtypes.
Status relu(const Call& call);

// out = Max(inputs[0..n)) with numpy broadcasting; out has out_shape, which
// must be the broadcast of the input shapes. out may be one of the inputs that
// has the output's shape (in place); no other overlap is allowed.
// Statuses: BadDtype, BadArity (n < 1), BadShape, Incompatible,
// OutShapeMismatch, TooLarge.
Status max_forward(int32_t dtype, int n, const void* const* inputs, const Shape* shapes, void* out,
                   const Shape& out_shape);

// out[i] = Relu(x[i]) for i < count; out may be x. BadDtype for unsigned dtypes.
Status relu_forward(int32_t dtype, const void* x, void* out, size_t count);

// out = Max(inputs) where every input is either `count` contiguous elements
// laid out as out (scalar[i] = 0) or a single value (scalar[i] = 1): the
// common no-planner case (same shapes, scalars). Same aliasing rules.
Status max_forward_flat(int32_t dtype, int n, const void* const* inputs, const unsigned char* scalar, void* out,
                        size_t count);

// Same, with a plan made beforehand (plan_broadcast); lets callers reuse plans.
Status max_forward_planned(int32_t dtype, const BroadcastPlan& plan, const void* const* inputs, void* out);

}  // namespace onnx_ops
