// libFuzzer harness for the shape side alone: broadcast_shape, element_count,
// plan_broadcast and Max's error paths (onnx_ops::run), over wild shapes
// (negative dims, INT64_MIN/MAX, 2^31/2^32/2^53 boundaries, ranks up to 1000
// and negative, null dims pointers, 0..100 inputs). No tensor data is
// allocated: Max is only called where it must fail or where the output is empty.
//
// Every accepted plan is checked against numpy's rule: walking the collapsed
// plan the way the kernels do (odometer over the outer dims, inner run with
// stride 0 or 1) must visit, for every output element, the same offset in
// every input as the naive index computation.
//
// Input layout: [0] n (b % 9, or b >= 0xF0: kManyInputs); [1] flags
//   (bit 0: also try wrong output shapes; bit 1: a rank>0 input gets a null
//   dims pointer; bit 2: check the plan by walking it; bit 3: derived shapes,
//   bits 4-7: selector); then per input a rank byte and its dims.
//   Rank byte b: b < 0xC0: b % 9; else kWildRanks[b % 16].
//   Dim byte b: b < 0x80: (b & 7) <= 5 ? b & 7 : 1; b < 0xFF: kWildDims[b % 32];
//   b == 0xFF: 8 raw bytes (any int64).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "fuzz_common.h"
#include "calls.h"

using namespace onnx_ops;
using fuzz::Dims;

namespace {

constexpr int kManyInputs[16] = {16, 33, 64, 65, 100, 9, 10, 12, 20, 50, 99, 17, 31, 32, 2, 1};
constexpr int kWildRanks[16] = {64, 65, 100, -1, 63, 1000, -1000, 0, 1, 2, 62, 66, 128, -64, INT32_MIN, 200};
constexpr int64_t kMaxWalk = int64_t(1) << 13;  // output elements walked per plan check

int64_t decode_dim(fuzz::Reader& r) {
  const uint8_t b = r.u8(1);
  if (b < 0x80) return (b & 7) <= 5 ? (b & 7) : 1;
  if (b < 0xFF) return fuzz::kWildDims[b % 32];
  return int64_t(r.u64());
}

// Walks the plan as run_plan / fold do and compares every input offset
// with numpy's index rule.
void check_plan(const BroadcastPlan& plan, int n, const Shape* inputs, const Dims& out) {
  FUZZ_CHECK(plan.n_inputs == n, "plan.n_inputs %d vs %d", plan.n_inputs, n);
  FUZZ_CHECK(plan.rank >= 1 && plan.rank <= kMaxRank, "plan.rank %d", plan.rank);
  const int64_t total = fuzz::ref_count(out.data(), int(out.size()));
  FUZZ_CHECK(plan.total == total, "plan.total %lld vs %lld", (long long)plan.total, (long long)total);
  if (total == 0 || total > kMaxWalk) return;
  int64_t product = 1;
  for (int k = 0; k < plan.rank; ++k) {
    const int64_t d = plan.dims[k];
    FUZZ_CHECK(d >= 1, "plan dim %lld", (long long)d);
    product *= d;
  }
  FUZZ_CHECK(product == total, "plan dims multiply to %lld, total %lld", (long long)product, (long long)total);
  for (int i = 0; i < n; ++i) {
    const int64_t s = plan.stride(i, plan.rank - 1);
    FUZZ_CHECK(s == 0 || s == 1, "inner stride of input %d is %lld (kernels assume 0 or 1)", i, (long long)s);
  }
  const int outer_rank = plan.rank - 1;
  const int64_t len = plan.inner();
  std::vector<int64_t> idx(static_cast<size_t>(outer_rank), 0);
  std::vector<int64_t> base(static_cast<size_t>(n), 0);
  int64_t flat = 0;
  for (int64_t o = 0; o < total / len; ++o) {
    for (int64_t j = 0; j < len; ++j, ++flat) {
      for (int i = 0; i < n; ++i) {
        const int64_t got = base[size_t(i)] + j * plan.stride(i, plan.rank - 1);
        const int64_t want = fuzz::ref_offset(out, inputs[i], flat);
        if (got != want) {
          std::fprintf(stderr, "plan walk: output %lld, input %d: offset %lld, numpy %lld; input shape ",
                       (long long)flat, i, (long long)got, (long long)want);
          fuzz::print_shape(stderr, inputs[i].dims, inputs[i].rank);
          std::fprintf(stderr, ", output ");
          fuzz::print_shape(stderr, out.data(), int(out.size()));
          std::fprintf(stderr, "\n");
          std::abort();
        }
      }
    }
    for (int k = outer_rank - 1; k >= 0; --k) {
      ++idx[size_t(k)];
      if (idx[size_t(k)] < plan.dims[size_t(k)]) {
        for (int i = 0; i < n; ++i) base[size_t(i)] += plan.stride(i, k);
        break;
      }
      for (int i = 0; i < n; ++i) base[size_t(i)] -= plan.stride(i, k) * (plan.dims[size_t(k)] - 1);
      idx[size_t(k)] = 0;
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  fuzz::Reader r(data, size);
  const uint8_t nb = r.u8();
  const int n = nb >= 0xF0 ? kManyInputs[nb & 15] : nb % 9;
  const uint8_t flags = r.u8();
  const bool perturb = flags & 1, null_dims = flags & 2, walk = flags & 4, derived = flags & 8;
  const int sel = flags >> 4;

  std::vector<Dims> dims(static_cast<size_t>(n));
  std::vector<Shape> shapes(static_cast<size_t>(n));
  if (derived && n > 0) {
    // One output shape, each input a suffix of it with some dims set to 1:
    // compatible by construction, so the planner gets exercised.
    const uint8_t rb = r.u8();
    const int R = rb < 0xC0 ? rb % 9 : kWildRanks[rb % 16] > 0 ? kWildRanks[rb % 16] % 70 : 0;
    Dims out(static_cast<size_t>(R));
    for (auto& d : out) d = decode_dim(r);
    for (int i = 0; i < n; ++i) {
      const int drop = R == 0 ? 0 : r.u8() % (R + 1);
      const uint8_t mask = r.u8();
      dims[size_t(i)].assign(out.begin() + drop, out.end());
      for (size_t k = 0; k < dims[size_t(i)].size(); ++k)
        if (mask >> (k % 8) & 1) dims[size_t(i)][k] = 1;
      shapes[size_t(i)] = Shape{dims[size_t(i)].data(), int(dims[size_t(i)].size())};
    }
  } else {
    for (int i = 0; i < n; ++i) {
      const uint8_t rb = r.u8();
      const int rank = rb < 0xC0 ? rb % 9 : kWildRanks[rb % 16];
      dims[size_t(i)].resize(size_t(rank > 0 ? rank : 0));
      for (auto& d : dims[size_t(i)]) d = decode_dim(r);
      shapes[size_t(i)] = Shape{dims[size_t(i)].empty() ? nullptr : dims[size_t(i)].data(), rank};
    }
  }
  if (null_dims && n > 0) {
    const int i = sel % n;
    if (shapes[size_t(i)].rank > 0) shapes[size_t(i)].dims = nullptr;
  }

  // element_count on every valid shape.
  for (int i = 0; i < n; ++i) {
    if (!fuzz::ref_valid(shapes[size_t(i)])) continue;
    const int64_t got = element_count(shapes[size_t(i)]);
    const int64_t want = fuzz::ref_count(shapes[size_t(i)].dims, shapes[size_t(i)].rank);
    FUZZ_CHECK(got == want, "element_count %lld, reference %lld", (long long)got, (long long)want);
  }

  Dims got;
  int bad = -1;
  const Status bs = broadcast_shape(n, shapes.data(), &got, &bad);
  const fuzz::RefBroadcast ref = fuzz::ref_broadcast(n, shapes.data());
  FUZZ_CHECK(bs == ref.status, "broadcast_shape: %s, reference %s", fuzz::status_name(bs),
             fuzz::status_name(ref.status));
  if (bs == Status::BadShape || bs == Status::Incompatible)
    FUZZ_CHECK(bad == ref.bad_input, "bad_input %d, reference %d", bad, ref.bad_input);
  if (bs == Status::Ok) {
    FUZZ_CHECK(got == ref.out, "broadcast_shape: wrong output shape");
    FUZZ_CHECK(int(got.size()) <= kMaxRank, "output rank %zu", got.size());
  }

  // plan_broadcast with the true output shape, and with wrong ones.
  const Dims& out = bs == Status::Ok ? got : ref.out;
  BroadcastPlan plan;
  const Status ps = plan_broadcast(n, shapes.data(), Shape{out.data(), int(out.size())}, &plan);
  FUZZ_CHECK(ps == bs, "plan_broadcast: %s, broadcast_shape %s", fuzz::status_name(ps), fuzz::status_name(bs));
  if (ps == Status::Ok && walk) check_plan(plan, n, shapes.data(), out);
  if (bs == Status::Ok && perturb) {
    std::vector<Dims> wrongs;
    Dims w = out;
    w.insert(w.begin(), 1);
    wrongs.push_back(w);
    if (!out.empty()) {
      w = out;
      w.erase(w.begin());
      wrongs.push_back(w);
      w = out;
      w[size_t(sel) % w.size()] = w[size_t(sel) % w.size()] == 1 ? 2 : 1;
      wrongs.push_back(w);
      w = out;
      w.back() = -w.back() - 1;  // negative
      wrongs.push_back(w);
    }
    for (const Dims& x : wrongs) {
      BroadcastPlan p2;
      const Status st = plan_broadcast(n, shapes.data(), Shape{x.data(), int(x.size())}, &p2);
      FUZZ_CHECK(st == Status::OutShapeMismatch, "wrong output shape: %s", fuzz::status_name(st));
    }
    // Output rank above the limit / negative / null dims.
    Dims big(static_cast<size_t>(kMaxRank + 1), 1);
    BroadcastPlan p3;
    FUZZ_CHECK(plan_broadcast(n, shapes.data(), Shape{big.data(), kMaxRank + 1}, &p3) == Status::OutShapeMismatch,
               "rank 65 output accepted");
    FUZZ_CHECK(plan_broadcast(n, shapes.data(), Shape{out.data(), -1}, &p3) == Status::OutShapeMismatch,
               "negative output rank accepted");
    if (!out.empty())
      FUZZ_CHECK(plan_broadcast(n, shapes.data(), Shape{nullptr, int(out.size())}, &p3) == Status::OutShapeMismatch,
                 "null output dims accepted");
  }

  // Max's statuses, over one-byte buffers it must not touch.
  unsigned char scratch[8] = {0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xA5, 0xA5};
  std::vector<const void*> ptrs(static_cast<size_t>(n), scratch);
  const int32_t dtype = fuzz::kDtypes[sel % 12];
  const Status want = n < 1 ? Status::BadArity : bs;
  if (want != Status::Ok || ref.total == 0) {
    const Status st = test::call_max(dtype, n, ptrs.data(), shapes.data(), scratch, Shape{out.data(), int(out.size())});
    FUZZ_CHECK(st == want, "max: %s, expected %s", fuzz::status_name(st), fuzz::status_name(want));
    for (unsigned char b : scratch) FUZZ_CHECK(b == 0xA5, "max wrote on an error / empty output");
  }
  return 0;
}
