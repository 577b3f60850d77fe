// The binary elementwise ops: one row each, its id and where its kernels
// come from. An op with fast paths of its own has a config of its own (as
// Max); one that is its traits' primitive alone (as a selection: Min) takes
// select_kernels over its policy, defined here beside its row.
//
//   op    kernels
//   Max   max_kernels (max_config.cpp): checked, fused and pmax kernels
#include "binary_config.h"

#include "../ops.h"
#include "max_config.h"

namespace onnx_ops {

bool binary_kernels(int32_t op, int32_t dtype, BinaryKernels* k) {
  switch (static_cast<OpId>(op)) {
    case OpId::Max: *k = max_kernels(dtype); return true;
    default: return false;
  }
}

}  // namespace onnx_ops
