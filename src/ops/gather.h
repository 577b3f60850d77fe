// Gathering rows of an input into a tile, row after row as the output's, so
// that grouped rows (ops/elementwise.cpp) run as one contiguous run.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../plan/broadcast.h"

namespace onnx_ops {

// Rows [q, q + rows) of input i (at x, es bytes per element) into tile: its
// run of plan.inner() for each output row, or that value repeated when the
// input is one value along the run. The tile needs 16 bytes of slack.
void gather_rows(const BroadcastPlan& plan, int i, const unsigned char* x, size_t es, int64_t q, size_t rows,
                 unsigned char* tile);

}  // namespace onnx_ops
