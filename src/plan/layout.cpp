#include "layout.h"

namespace onnx_ops {

Layout layout_of(const BroadcastPlan& plan, int i) {
  const int outer_rank = plan.rank - 1;
  const bool repeats = plan.stride(i, outer_rank) == 0;  // one value along the run
  bool dense = !repeats, reused = true;
  int64_t out_stride = plan.inner();  // the output's element step along dim k
  for (int k = outer_rank - 1; k >= 0; --k) {
    dense = dense && plan.stride(i, k) == out_stride;
    reused = reused && plan.stride(i, k) == 0;
    out_stride *= plan.dims[k];
  }
  return dense ? Layout::Dense : !reused ? Layout::Gathered : repeats ? Layout::Value : Layout::Row;
}

}  // namespace onnx_ops
