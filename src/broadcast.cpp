#include "broadcast.h"

#include "small_buf.h"

namespace onnx_ops {

static bool valid_shape(const Shape& s) {
  if (s.rank < 0 || s.rank > kMaxRank) return false;
  if (s.rank > 0 && s.dims == nullptr) return false;
  for (int k = 0; k < s.rank; ++k)
    if (s.dims[k] < 0) return false;
  return true;
}

int64_t element_count(const Shape& s) {
  int64_t total = 1;
  bool overflow = false;
  for (int k = 0; k < s.rank; ++k) {
    const int64_t d = s.dims[k];
    if (d == 0) return 0;  // empty, whatever the other dims are
    if (total > kMaxElements / d) overflow = true;
    else total *= d;
  }
  return overflow ? -1 : total;
}

Status broadcast_shape(int n, const Shape* shapes, std::vector<int64_t>* out, int* bad_input) {
  int rank = 0;
  for (int i = 0; i < n; ++i) {
    if (!valid_shape(shapes[i])) {
      if (bad_input) *bad_input = i;
      return Status::BadShape;
    }
    if (shapes[i].rank > rank) rank = shapes[i].rank;
  }
  out->assign(size_t(rank), 1);
  for (int i = 0; i < n; ++i) {
    const Shape& s = shapes[i];
    const int offset = rank - s.rank;
    for (int k = 0; k < s.rank; ++k) {
      int64_t& o = (*out)[size_t(offset + k)];
      const int64_t d = s.dims[k];
      if (d == o || d == 1) continue;
      if (o != 1) {
        if (bad_input) *bad_input = i;
        return Status::Incompatible;
      }
      o = d;
    }
  }
  if (element_count(Shape{out->data(), rank}) < 0) return Status::TooLarge;
  return Status::Ok;
}

Status plan_broadcast(int n, const Shape* inputs, const Shape& out_shape, BroadcastPlan* plan) {
  std::vector<int64_t> expected;
  const Status st = broadcast_shape(n, inputs, &expected);
  if (st != Status::Ok) return st;
  if (!valid_shape(out_shape) || size_t(out_shape.rank) != expected.size()) return Status::OutShapeMismatch;
  for (int k = 0; k < out_shape.rank; ++k)
    if (out_shape.dims[k] != expected[size_t(k)]) return Status::OutShapeMismatch;

  const int rank = out_shape.rank;
  plan->n_inputs = n;
  plan->total = element_count(out_shape);
  plan->dims.clear();
  plan->strides.clear();
  if (plan->total == 0) {
    // Empty: nothing to walk. (Its other dims may be huge: no strides are
    // computed, they could overflow.)
    plan->rank = 1;
    plan->dims.push_back(0);
    plan->strides.assign(size_t(n), 0);
    return Status::Ok;
  }

  // Scratch in one allocation (a call plans once; each allocation costs):
  // full[i * rank + k], input i's stride along output dim k (0 where it
  // broadcasts), then steps[i * rank + j], its stride along kept dim j.
  SmallBuf<int64_t, 128> work(2 * size_t(n) * size_t(rank) + 1);
  int64_t* full = work.data();
  int64_t* steps = full + size_t(n) * size_t(rank);
  for (int i = 0; i < n; ++i) {
    const Shape& s = inputs[i];
    int64_t step = 1;
    for (int k = rank - 1; k >= 0; --k) {
      const int ik = k - (rank - s.rank);
      const int64_t d = ik >= 0 ? s.dims[ik] : 1;
      full[size_t(i) * rank + k] = d == 1 ? 0 : step;
      step *= d;
    }
  }

  // Keep the output dims that are not 1, merging each into the previous kept
  // dim when every input steps through the pair as through one dim.
  std::vector<int64_t>& dims = plan->dims;
  dims.reserve(size_t(rank) + 1);
  for (int k = 0; k < rank; ++k) {
    const int64_t d = out_shape.dims[k];
    if (d == 1) continue;
    const size_t j = dims.size();
    bool merge = j > 0;
    for (int i = 0; merge && i < n; ++i)
      merge = steps[size_t(i) * rank + j - 1] == full[size_t(i) * rank + k] * d;
    if (merge) {
      dims.back() *= d;
      for (int i = 0; i < n; ++i) steps[size_t(i) * rank + j - 1] = full[size_t(i) * rank + k];
    } else {
      dims.push_back(d);
      for (int i = 0; i < n; ++i) steps[size_t(i) * rank + j] = full[size_t(i) * rank + k];
    }
  }
  if (dims.empty()) {  // a scalar, or all dims 1: one run of one element, stride 0
    dims.push_back(1);
    for (int i = 0; i < n; ++i) steps[size_t(i) * rank] = 0;  // rank may be 0: work has one spare
  }
  plan->rank = int(dims.size());
  plan->strides.resize(size_t(n) * dims.size());
  for (int i = 0; i < n; ++i)
    for (size_t j = 0; j < dims.size(); ++j) plan->strides[size_t(i) * dims.size() + j] = steps[size_t(i) * rank + j];
  return Status::Ok;
}

}  // namespace onnx_ops
