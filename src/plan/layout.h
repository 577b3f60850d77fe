// How one input walks the output's rows (the plan's inner runs): what picks
// grouped execution and the clean-row shortcuts (ops/elementwise.cpp).
#pragma once

#include "broadcast.h"

namespace onnx_ops {

enum class Layout {
  Dense,     // laid out as the output: its rows follow each other
  Row,       // one row that every output row reuses ([C] against [R, C])
  Value,     // one value for the whole output
  Gathered,  // anything else: a value per row ([R, 1]), or rows reused in part ([A, 1, C])
};

// Input i's layout along the plan (rank >= 2 for anything but Dense or Value).
Layout layout_of(const BroadcastPlan& plan, int i);

}  // namespace onnx_ops
