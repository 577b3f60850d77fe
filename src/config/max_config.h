// Max's kernels for a dtype, as max_config.cpp picks them (the one place
// that decides which loop runs), behind plain function pointers, so that
// everything around them (the planner, folding, grouping, the odometer:
// ops/max.cpp) is compiled once, not once per dtype.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../kernels/kernel.h"

namespace onnx_ops {

struct MaxKernels {
  size_t esize;  // bytes per element
  // out = max(a, b) over a run of n; each operand a run, or one value (single).
  void (*max2)(size_t n, const void* a, bool a_single, const void* b, bool b_single, void* out);
  // out = max(a, b, c) over three runs in one pass; null: fold by twos.
  void (*max3)(size_t n, const void* a, const void* b, const void* c, void* out);
  // Whether n values hold no NaN and no +0 (PmaxClean::clean_all); null: no
  // pmax shortcuts (and no pmax_rows, pmaxc_rows).
  bool (*clean_all)(size_t n, const void* x);
  // pmax of rows against a clean row, reused (vmax_rows on PmaxClean).
  void (*pmax_rows)(const Rows& rows, const void* x, const void* y, void* out);
  // pmax of rows against a clean value per row (vmaxc_rows on PmaxClean).
  void (*pmaxc_rows)(const Rows& rows, const void* x, const void* v, void* out);
};

// The Max kernels of a dtype; max2 is null for a number that is no dtype.
MaxKernels max_kernels(int32_t dtype);

}  // namespace onnx_ops
