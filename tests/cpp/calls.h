// The entry point (src/ops.h's run) called with loose arguments, as the tests
// and fuzzers build them: each builds the one Call that
// js/src/backend/wasm/descriptor.ts would lay out in wasm memory for the
// module's entry.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "ops.h"

namespace test {

inline onnx_ops::Status call_max(int32_t dtype, int n, const void* const* inputs, const onnx_ops::Shape* shapes,
                                 void* out, const onnx_ops::Shape& out_shape) {
  return onnx_ops::run(onnx_ops::Call{dtype, n, inputs, shapes, out, out_shape, int32_t(onnx_ops::OpId::Max)});
}

// Max of n inputs that are each `count` elements laid out as the output
// ([count]) or a single value (single[i]: rank 0), into out ([count]).
inline onnx_ops::Status call_max_flat(int32_t dtype, int n, const void* const* inputs, const unsigned char* single,
                                      void* out, size_t count) {
  const int64_t dims[1] = {int64_t(count)};
  std::vector<onnx_ops::Shape> shapes;
  for (int i = 0; i < n; ++i) shapes.push_back(single[i] ? onnx_ops::Shape{nullptr, 0} : onnx_ops::Shape{dims, 1});
  return call_max(dtype, n, inputs, shapes.data(), out, onnx_ops::Shape{dims, 1});
}

// Relu of `count` elements ([count]) into out ([count]).
inline onnx_ops::Status call_relu(int32_t dtype, const void* x, void* out, size_t count) {
  const int64_t dims[1] = {int64_t(count)};
  const onnx_ops::Shape shape{dims, 1};
  return onnx_ops::run(onnx_ops::Call{dtype, 1, &x, &shape, out, shape, int32_t(onnx_ops::OpId::Relu)});
}

}  // namespace test
