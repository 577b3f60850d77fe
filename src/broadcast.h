// Numpy-style multidirectional broadcasting: the output shape, and an
// iteration plan that never materialises an expanded input.
//
// The plan drops the output's size-1 dims and merges neighbouring dims that
// every input walks contiguously (or broadcasts over both), so that, e.g.,
// [R,1024] against [1024] becomes one outer dim of R and one inner run of
// 1024 where the second input restarts each row. Along the innermost run an
// input is either contiguous (stride 1) or a single repeated value (stride 0),
// which picks the micro-kernel variant.
#pragma once

#include <cstdint>
#include <vector>

#include "dtype.h"

namespace onnx_ops {

constexpr int kMaxRank = 64;
// Largest element count accepted anywhere (also JavaScript's safe integers).
constexpr int64_t kMaxElements = (int64_t(1) << 53) - 1;

struct Shape {
  const int64_t* dims;
  int rank;
};

// The broadcast of n shapes into *out. Errors: BadShape (negative dim, rank
// above kMaxRank), Incompatible (two dims differ and neither is 1),
// TooLarge (the product exceeds kMaxElements). *bad_input names the offending
// input for BadShape/Incompatible.
Status broadcast_shape(int n, const Shape* shapes, std::vector<int64_t>* out, int* bad_input = nullptr);

// Element count of a shape, or -1 when it exceeds kMaxElements.
int64_t element_count(const Shape& shape);

struct BroadcastPlan {
  int n_inputs = 0;
  int rank = 0;                  // collapsed rank, >= 1
  int64_t total = 0;             // output element count
  std::vector<int64_t> dims;     // collapsed output dims; dims[rank-1] is the inner run
  std::vector<int64_t> strides;  // strides[i * rank + k]: input i's element step along dim k (0: broadcast)

  int64_t stride(int input, int dim) const { return strides[size_t(input) * rank + dim]; }
  int64_t inner() const { return dims[rank - 1]; }
};

// Plans out = f(inputs...) where out_shape must equal the broadcast of the
// inputs (OutShapeMismatch otherwise).
Status plan_broadcast(int n, const Shape* inputs, const Shape& out_shape, BroadcastPlan* plan);

}  // namespace onnx_ops
