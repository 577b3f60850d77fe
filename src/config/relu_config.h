// Relu's kernel for a dtype, as relu_config.cpp picks it.
#pragma once

#include <cstddef>
#include <cstdint>

namespace onnx_ops {

// out = Relu(x) over n elements; false (nothing done) for a dtype without Relu.
bool run_relu(int32_t dtype, size_t n, const void* x, void* out);

}  // namespace onnx_ops
