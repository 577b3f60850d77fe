#include "broadcast.h"

#include "../small_buf.h"

namespace onnx_ops {

Status broadcast_dims(int n, const Shape* shapes, int64_t* out, int* out_rank, int* bad_input) {
  int rank = 0;
  for (int i = 0; i < n; ++i) {
    if (!valid_shape(shapes[i])) {
      if (bad_input) *bad_input = i;
      return Status::BadShape;
    }
    if (shapes[i].rank > rank) rank = shapes[i].rank;
  }
  *out_rank = rank;
  for (int k = 0; k < rank; ++k) out[k] = 1;
  for (int i = 0; i < n; ++i) {
    const Shape& s = shapes[i];
    const int offset = rank - s.rank;
    for (int k = 0; k < s.rank; ++k) {
      int64_t& o = out[offset + k];
      const int64_t d = s.dims[k];
      if (d == o || d == 1) continue;
      if (o != 1) {
        if (bad_input) *bad_input = i;
        return Status::Incompatible;
      }
      o = d;
    }
  }
  if (element_count(Shape{out, rank}) < 0) return Status::TooLarge;
  return Status::Ok;
}

Status broadcast_shape(int n, const Shape* shapes, std::vector<int64_t>* out, int* bad_input) {
  int64_t dims[kMaxRank];
  int rank = 0;
  const Status st = broadcast_dims(n, shapes, dims, &rank, bad_input);
  if (st == Status::Ok || st == Status::TooLarge) out->assign(dims, dims + rank);
  return st;
}

Status plan_broadcast(int n, const Shape* inputs, const Shape& out_shape, BroadcastPlan* plan) {
  int64_t expected[kMaxRank];
  int expected_rank = 0;
  const Status st = broadcast_dims(n, inputs, expected, &expected_rank);
  if (st != Status::Ok) return st;
  if (!valid_shape(out_shape) || out_shape.rank != expected_rank) return Status::OutShapeMismatch;
  for (int k = 0; k < out_shape.rank; ++k)
    if (out_shape.dims[k] != expected[k]) return Status::OutShapeMismatch;

  const int rank = out_shape.rank;
  plan->n_inputs = n;
  plan->total = element_count(out_shape);
  if (plan->total == 0) {
    // Empty: nothing to walk. (Its other dims may be huge: no strides are
    // computed, they could overflow.)
    plan->rank = 1;
    plan->dims[0] = 0;
    int64_t* strides = plan->strides_for(size_t(n));
    for (int i = 0; i < n; ++i) strides[i] = 0;
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
  int64_t* dims = plan->dims;
  int kept = 0;
  for (int k = 0; k < rank; ++k) {
    const int64_t d = out_shape.dims[k];
    if (d == 1) continue;
    const int j = kept;
    bool merge = j > 0;
    for (int i = 0; merge && i < n; ++i)
      merge = steps[size_t(i) * rank + j - 1] == full[size_t(i) * rank + k] * d;
    if (merge) {
      dims[j - 1] *= d;
      for (int i = 0; i < n; ++i) steps[size_t(i) * rank + j - 1] = full[size_t(i) * rank + k];
    } else {
      dims[kept++] = d;
      for (int i = 0; i < n; ++i) steps[size_t(i) * rank + j] = full[size_t(i) * rank + k];
    }
  }
  if (kept == 0) {  // a scalar, or all dims 1: one run of one element, stride 0
    dims[kept++] = 1;
    for (int i = 0; i < n; ++i) steps[size_t(i) * rank] = 0;  // rank may be 0: work has one spare
  }
  plan->rank = kept;
  int64_t* strides = plan->strides_for(size_t(n) * size_t(kept));
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < kept; ++j) strides[size_t(i) * kept + j] = steps[size_t(i) * rank + j];
  return Status::Ok;
}

}  // namespace onnx_ops
