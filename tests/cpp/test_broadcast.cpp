// The broadcast planner: output shapes, errors, and how dims collapse.
#include <doctest/doctest.h>

#include "plan/broadcast.h"

using namespace onnx_ops;

namespace {

struct Shapes {
  std::vector<std::vector<int64_t>> dims;
  std::vector<Shape> view() const {
    std::vector<Shape> v;
    for (const auto& d : dims) v.push_back(Shape{d.data(), int(d.size())});
    return v;
  }
};

Status bshape(const Shapes& s, std::vector<int64_t>* out, int* bad = nullptr) {
  const auto v = s.view();
  return broadcast_shape(int(v.size()), v.data(), out, bad);
}

std::vector<int64_t> dims_of(const BroadcastPlan& p) { return std::vector<int64_t>(p.dims, p.dims + p.rank); }

BroadcastPlan plan_of(const Shapes& s) {
  std::vector<int64_t> out;
  REQUIRE(bshape(s, &out) == Status::Ok);
  const auto v = s.view();
  BroadcastPlan p;
  REQUIRE(plan_broadcast(int(v.size()), v.data(), Shape{out.data(), int(out.size())}, &p) == Status::Ok);
  return p;
}

}  // namespace

TEST_CASE("broadcast_shape follows numpy") {
  std::vector<int64_t> out;
  CHECK(bshape({{{2, 3}, {3}}}, &out) == Status::Ok);
  CHECK(out == std::vector<int64_t>{2, 3});
  CHECK(bshape({{{2, 1, 4}, {3, 1}, {}}}, &out) == Status::Ok);
  CHECK(out == std::vector<int64_t>{2, 3, 4});
  CHECK(bshape({{{}, {}}}, &out) == Status::Ok);
  CHECK(out.empty());
  CHECK(bshape({{{0, 3}, {1, 3}}}, &out) == Status::Ok);
  CHECK(out == std::vector<int64_t>{0, 3});
  CHECK(bshape({{{0}, {1}}}, &out) == Status::Ok);
  CHECK(out == std::vector<int64_t>{0});
  CHECK(bshape({{{1, 1, 1, 1, 1, 1, 1, 1, 5}, {2, 1, 1, 1, 1, 1, 1, 1, 1}}}, &out) == Status::Ok);
  CHECK(out == std::vector<int64_t>{2, 1, 1, 1, 1, 1, 1, 1, 5});
}

TEST_CASE("broadcast_shape errors name the input") {
  std::vector<int64_t> out;
  int bad = -1;
  CHECK(bshape({{{2, 3}, {4}}}, &out, &bad) == Status::Incompatible);
  CHECK(bad == 1);
  CHECK(bshape({{{0}, {2}}}, &out, &bad) == Status::Incompatible);  // 0 broadcasts only with 0 or 1
  CHECK(bshape({{{3}, {3}, {2, -1}}}, &out, &bad) == Status::BadShape);
  CHECK(bad == 2);
  CHECK(bshape({{std::vector<int64_t>(kMaxRank + 1, 1)}}, &out, &bad) == Status::BadShape);
  CHECK(bshape({{std::vector<int64_t>(kMaxRank, 1)}}, &out, &bad) == Status::Ok);
  CHECK(bshape({{{int64_t(1) << 31, int64_t(1) << 31}, {1}}}, &out) == Status::TooLarge);
}

TEST_CASE("element counts above 2^53 are TooLarge, empty tensors are not") {
  std::vector<int64_t> out;
  CHECK(bshape({{{int64_t(1) << 27, int64_t(1) << 27}}}, &out) == Status::TooLarge);
  CHECK(bshape({{{int64_t(1) << 53}}}, &out) == Status::TooLarge);
  CHECK(bshape({{{(int64_t(1) << 53) - 1}}}, &out) == Status::Ok);
  CHECK(bshape({{{int64_t(1) << 62, int64_t(1) << 62, 0}}}, &out) == Status::Ok);
  const int64_t huge[] = {INT64_MAX, INT64_MAX};
  CHECK(element_count(Shape{huge, 2}) == -1);
}

TEST_CASE("plan: same shapes collapse to one contiguous run") {
  const auto p = plan_of({{{2, 3, 4}, {2, 3, 4}, {2, 3, 4}}});
  CHECK(p.rank == 1);
  CHECK(dims_of(p) == std::vector<int64_t>{24});
  CHECK(p.total == 24);
  for (int i = 0; i < 3; ++i) CHECK(p.stride(i, 0) == 1);
}

TEST_CASE("plan: a row broadcast is an outer loop over rows with the row restarting") {
  const auto p = plan_of({{{7, 1024}, {1024}}});
  CHECK(dims_of(p) == std::vector<int64_t>{7, 1024});
  CHECK(p.stride(0, 0) == 1024);
  CHECK(p.stride(1, 0) == 0);
  CHECK(p.stride(0, 1) == 1);
  CHECK(p.stride(1, 1) == 1);
}

TEST_CASE("plan: a scalar operand is stride 0 on the inner run") {
  const auto p = plan_of({{{5, 6}, {}}});
  CHECK(dims_of(p) == std::vector<int64_t>{30});
  CHECK(p.stride(0, 0) == 1);
  CHECK(p.stride(1, 0) == 0);
}

TEST_CASE("plan: size-1 dims vanish and broadcast-both dims merge") {
  const auto p = plan_of({{{2, 1, 3, 4, 1}, {2, 1, 1, 1, 1}}});
  // Output [2,1,3,4,1] -> [2, 12]; input 1 is one value per outer index.
  CHECK(dims_of(p) == std::vector<int64_t>{2, 12});
  CHECK(p.stride(0, 0) == 12);
  CHECK(p.stride(1, 0) == 1);
  CHECK(p.stride(1, 1) == 0);
  const auto q = plan_of({{{3, 1}, {1, 4}}});
  CHECK(dims_of(q) == std::vector<int64_t>{3, 4});
  CHECK(q.stride(0, 0) == 1);
  CHECK(q.stride(0, 1) == 0);
  CHECK(q.stride(1, 0) == 0);
  CHECK(q.stride(1, 1) == 1);
}

TEST_CASE("plan: more strides than the plan holds inline go to the heap, and copies keep them") {
  // 40 inputs alternating [3,1,5] and [1,4,5]: 40 x 3 = 120 strides (> 64 inline).
  Shapes s;
  for (int i = 0; i < 40; ++i) s.dims.push_back(i % 2 ? std::vector<int64_t>{1, 4, 5} : std::vector<int64_t>{3, 1, 5});
  const BroadcastPlan p = plan_of(s);
  REQUIRE(dims_of(p) == std::vector<int64_t>{3, 4, 5});
  BroadcastPlan copy = p;
  for (int i = 0; i < 40; ++i) {
    const int64_t want_even[] = {5, 0, 1}, want_odd[] = {0, 5, 1};
    for (int k = 0; k < 3; ++k) CHECK(copy.stride(i, k) == (i % 2 ? want_odd : want_even)[k]);
  }
  // Replanned into the same plan with few strides, it is back inline.
  const Shapes two{{{3, 4}, {4}}};
  const auto v = two.view();
  const int64_t out[] = {3, 4};
  REQUIRE(plan_broadcast(2, v.data(), Shape{out, 2}, &copy) == Status::Ok);
  CHECK(dims_of(copy) == std::vector<int64_t>{3, 4});
  CHECK(copy.stride(0, 0) == 4);
  CHECK(copy.stride(0, 1) == 1);
  CHECK(copy.stride(1, 0) == 0);
  CHECK(copy.stride(1, 1) == 1);
}

TEST_CASE("plan: scalars and all-ones shapes are a run of one") {
  const auto p = plan_of({{{}, {1, 1}}});
  CHECK(p.rank == 1);
  CHECK(dims_of(p) == std::vector<int64_t>{1});
  CHECK(p.total == 1);
}

TEST_CASE("plan: the given output shape must be the broadcast") {
  const std::vector<int64_t> a{2, 3}, wrong{3, 2}, longer{1, 2, 3};
  const Shape in[] = {Shape{a.data(), 2}};
  BroadcastPlan p;
  CHECK(plan_broadcast(1, in, Shape{wrong.data(), 2}, &p) == Status::OutShapeMismatch);
  CHECK(plan_broadcast(1, in, Shape{longer.data(), 3}, &p) == Status::OutShapeMismatch);
  CHECK(plan_broadcast(1, in, Shape{a.data(), 2}, &p) == Status::Ok);
}

TEST_CASE("plan: an empty output with huge other dims plans nothing (no stride overflow)") {
  const int64_t d[] = {0, int64_t(1) << 40, int64_t(1) << 40};
  const Shape s{d, 3};
  std::vector<int64_t> out;
  REQUIRE(broadcast_shape(1, &s, &out) == Status::Ok);
  BroadcastPlan p;
  REQUIRE(plan_broadcast(1, &s, Shape{out.data(), 3}, &p) == Status::Ok);
  CHECK(p.total == 0);
}
