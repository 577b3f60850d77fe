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

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "../status.h"

namespace onnx_ops {

constexpr int kMaxRank = 64;
// Largest element count accepted anywhere (also JavaScript's safe integers).
constexpr int64_t kMaxElements = (int64_t(1) << 53) - 1;

struct Shape {
  const int64_t* dims;
  int rank;
};

// The broadcast of n shapes into out[0..*rank) (room for kMaxRank dims).
// Errors as broadcast_shape's.
Status broadcast_dims(int n, const Shape* shapes, int64_t* out, int* rank, int* bad_input = nullptr);

// The broadcast of n shapes into *out. Errors: BadShape (negative dim, rank
// above kMaxRank), Incompatible (two dims differ and neither is 1),
// TooLarge (the product exceeds kMaxElements). *bad_input names the offending
// input for BadShape/Incompatible.
Status broadcast_shape(int n, const Shape* shapes, std::vector<int64_t>* out, int* bad_input = nullptr);

// The shape checks below are inline: every call runs them, and out of line
// (the planner is built for size) their calls showed in small calls' time.

// Whether a shape's rank is 0..kMaxRank and its dims are non-negative.
inline bool valid_shape(const Shape& s) {
  if (s.rank < 0 || s.rank > kMaxRank) return false;
  if (s.rank > 0 && s.dims == nullptr) return false;
  for (int k = 0; k < s.rank; ++k)
    if (s.dims[k] < 0) return false;
  return true;
}

// Element count of a shape, or -1 when it exceeds kMaxElements.
inline int64_t element_count(const Shape& s) {
  int64_t total = 1;
  bool overflow = false;
  for (int k = 0; k < s.rank; ++k) {
    const int64_t d = s.dims[k];
    if (d == 0) return 0;  // empty, whatever the other dims are
    // A double product is exact below 2^53 and rounds to at least 2^53 above
    // it: the bound without a division.
    if (double(total) * double(d) > double(kMaxElements)) overflow = true;
    else total *= d;
  }
  return overflow ? -1 : total;
}

// Whether two shapes are the same.
inline bool same_shape(const Shape& a, const Shape& b) {
  if (a.rank != b.rank) return false;
  for (int k = 0; k < a.rank; ++k)
    if (a.dims[k] != b.dims[k]) return false;
  return true;
}

// Whether a shape holds one element (every dim is 1; a scalar too).
inline bool single_value(const Shape& s) {
  for (int k = 0; k < s.rank; ++k)
    if (s.dims[k] != 1) return false;
  return true;
}

// Whether shape s lays its elements out as out does: the same dims once
// leading 1s are dropped, and no more of them.
inline bool same_layout(const Shape& s, const Shape& out) {
  if (s.rank > out.rank) return false;
  int i = 0, j = 0;
  while (i < s.rank && s.dims[i] == 1) ++i;
  while (j < out.rank && out.dims[j] == 1) ++j;
  if (s.rank - i != out.rank - j) return false;
  for (; i < s.rank; ++i, ++j)
    if (s.dims[i] != out.dims[j]) return false;
  return true;
}

// Planning allocates nothing for the usual call: dims live in the plan,
// strides too up to kInlineStrides (more inputs times dims go to the heap).
struct BroadcastPlan {
  int n_inputs = 0;
  int rank = 0;           // collapsed rank, >= 1
  int64_t total = 0;      // output element count
  int64_t dims[kMaxRank];  // dims[0..rank): collapsed output dims; dims[rank-1] is the inner run

  // Input i's element step along collapsed dim k (0: broadcast).
  int64_t stride(int input, int dim) const { return strides()[size_t(input) * size_t(rank) + size_t(dim)]; }
  int64_t inner() const { return dims[rank - 1]; }
  // Where output row q (a run of inner()) starts in input i, in its elements.
  int64_t row_offset(int input, int64_t q) const {
    int64_t off = 0;
    for (int k = rank - 2; k >= 0; --k) {
      off += q % dims[k] * stride(input, k);
      q /= dims[k];
    }
    return off;
  }

  // Copies keep their strides (the library itself never copies a plan).
  BroadcastPlan() = default;
  BroadcastPlan(const BroadcastPlan& p) { *this = p; }
  BroadcastPlan& operator=(const BroadcastPlan& p) {
    if (this == &p) return *this;
    n_inputs = p.n_inputs;
    rank = p.rank;
    total = p.total;
    for (int k = 0; k < rank; ++k) dims[k] = p.dims[k];
    const size_t count = size_t(n_inputs) * size_t(rank);
    int64_t* to = strides_for(count);
    for (size_t i = 0; i < count; ++i) to[i] = p.strides()[i];
    return *this;
  }

  // strides()[i * rank + k]; sized by plan_broadcast.
  const int64_t* strides() const { return more_ ? more_.get() : few_; }
  int64_t* strides_for(size_t count) {
    if (count <= kInlineStrides) {
      more_.reset();
      return few_;
    }
    more_.reset(new int64_t[count]());
    return more_.get();
  }

 private:
  static constexpr size_t kInlineStrides = 64;
  int64_t few_[kInlineStrides];
  std::unique_ptr<int64_t[]> more_;  // used only beyond kInlineStrides (no allocation otherwise)
};

// Plans out = f(inputs...) where out_shape must equal the broadcast of the
// inputs (OutShapeMismatch otherwise).
Status plan_broadcast(int n, const Shape* inputs, const Shape& out_shape, BroadcastPlan* plan);

}  // namespace onnx_ops
