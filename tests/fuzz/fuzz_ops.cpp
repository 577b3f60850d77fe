// libFuzzer harness: Max and Relu through onnx_ops::run (their flat and
// planned paths, and plan_broadcast) against a naive broadcasting reference
// (tests/cpp/support.h's ref_max / ref_relu),
// bit for bit, every dtype, 1..6 inputs, in place, wrong output shapes, bad
// dtypes, and wild shapes (negative, huge) that must be rejected or, when
// empty, accepted without touching memory. Buffers are exact-size vectors so
// that ASan sees any read or write out of bounds.
//
// Input layout (bytes; past the end every read gives a default):
//   [0] dtype: low 4 bits % 12 picks a dtype; 0xF0..0xFF: a number that is not
//       a dtype (kBadDtypes)
//   [1] flags: bits 0-2: n - 1 (n = 1 + v % 6); bit 3: derived shapes;
//       bit 4: in place; bit 5: fill with special values; bit 6: also call with a
//       wrong output shape; bit 7: wild dims/ranks allowed
//   [2] selector (which input is the in-place alias, how the out shape is perturbed)
//   derived (bit 3): out rank byte (% 7), out dims, then per input: drop byte
//       (leading dims dropped: b % (rank + 1)), mask byte (bit k: dim k -> 1)
//   free (no bit 3): per input: rank byte (% 7), dims
//   then data bytes, used cyclically to fill every input
// A dim byte b: 0x00..0xDF: b & 15 (0..8 as is, 9..15 -> 1); 0xE0..0xEF: kBig
// (tile boundaries of the kernels); 0xF0..0xFF: 1, or with bit 7 set a wild dim
// chosen by the next byte w (kWildDims[w % 32]; w = 0xFF: 8 raw bytes follow). A rank byte >= 0xF8 with bit 7 set: kWildRanks.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "calls.h"
#include "fuzz_common.h"
#include "support.h"

using namespace onnx_ops;
using fuzz::Dims;

namespace {

constexpr int64_t kBig[16] = {1023, 1024, 1025, 2047, 2048, 2049, 4095, 4096,
                              4097, 8191, 8192, 8193, 16, 17, 31, 33};
constexpr int kWildRanks[8] = {64, 65, 100, -1, 63, 1000, -1000, 0};
// Keeps the naive reference cheap; still above every kernel tile (8192 int8 lanes).
constexpr int64_t kMaxOutElements = int64_t(1) << 15;

struct Case {
  int32_t dtype = 1;
  bool bad_dtype = false;
  int n = 1;
  bool derived = false, in_place = false, specials = false, perturb = false, wild = false;
  uint8_t sel = 0;
  std::vector<Dims> shapes;   // each input's dims (rank = size, unless ranks[i] says otherwise)
  std::vector<int> ranks;     // rank passed to the library (may be negative / > 64)
  const uint8_t* bytes = nullptr;  // data stream
  size_t nbytes = 0;
};

int64_t decode_dim(fuzz::Reader& r, bool wild) {
  const uint8_t b = r.u8(9);
  if (b < 0xE0) {
    const int v = b & 15;
    return v <= 8 ? v : 1;
  }
  if (b < 0xF0) return kBig[b & 15];
  if (!wild) return 1;
  const uint8_t w = r.u8();
  if (w == 0xFF) return int64_t(r.u64());  // any 64-bit dim
  return fuzz::kWildDims[w % 32];
}

int decode_rank(uint8_t b, bool wild) {
  if (wild && b >= 0xF8) return kWildRanks[b & 7];
  return b % 7;
}

Case decode(const uint8_t* data, size_t size) {
  fuzz::Reader r(data, size);
  Case c;
  const uint8_t d = r.u8();
  if ((d & 0xF0) == 0xF0) {
    c.bad_dtype = true;
    c.dtype = fuzz::kBadDtypes[d & 15];
  } else {
    c.dtype = fuzz::kDtypes[(d & 15) % 12];
  }
  const uint8_t f = r.u8();
  c.n = 1 + (f & 7) % 6;
  c.derived = f & 8;
  c.in_place = f & 16;
  c.specials = f & 32;
  c.perturb = f & 64;
  c.wild = f & 128;
  c.sel = r.u8();
  if (c.derived) {
    const int R = decode_rank(r.u8(), false);
    Dims out(static_cast<size_t>(R));
    for (auto& x : out) x = decode_dim(r, c.wild);
    for (int i = 0; i < c.n; ++i) {
      const int drop = R == 0 ? 0 : r.u8() % (R + 1);
      const uint8_t mask = r.u8();
      Dims s(out.begin() + drop, out.end());
      for (size_t k = 0; k < s.size(); ++k)
        if (mask >> (k % 8) & 1) s[k] = 1;
      c.ranks.push_back(int(s.size()));
      c.shapes.push_back(std::move(s));
    }
  } else {
    for (int i = 0; i < c.n; ++i) {
      const int rank = decode_rank(r.u8(), c.wild);
      Dims s(static_cast<size_t>(rank > 0 ? rank : 0));
      for (auto& x : s) x = decode_dim(r, c.wild);
      c.ranks.push_back(rank);
      c.shapes.push_back(std::move(s));
    }
  }
  c.bytes = r.rest();
  c.nbytes = r.left();
  return c;
}

// Fills `v` from the data stream (cyclically): raw bytes, or one byte per
// element choosing a special value / a small number.
template <class Tr>
void fill(std::vector<typename Tr::T>& v, const Case& c, size_t& cursor) {
  using T = typename Tr::T;
  static const std::vector<T> sp = test::specials<Tr>();
  if (c.nbytes == 0) {
    for (size_t i = 0; i < v.size(); ++i) v[i] = sp[i % sp.size()];
    return;
  }
  auto next = [&]() {
    const uint8_t b = c.bytes[cursor % c.nbytes];
    ++cursor;
    return b;
  };
  for (auto& x : v) {
    if (c.specials) {
      const uint8_t b = next();
      if (b < 0xC0) {
        x = sp[b % sp.size()];
      } else {
        unsigned char raw[sizeof(T)];
        for (auto& y : raw) y = next();
        std::memcpy(&x, raw, sizeof(T));
      }
    } else {
      unsigned char raw[sizeof(T)];
      for (auto& y : raw) y = next();
      std::memcpy(&x, raw, sizeof(T));
    }
  }
}

template <class T>
void check_same(const T* got, const T* want, size_t count, const char* what, const Case& c) {
  for (size_t i = 0; i < count; ++i) {
    if (!test::same_bits(got[i], want[i])) {
      uint64_t g = 0, w = 0;
      std::memcpy(&g, &got[i], sizeof(T));
      std::memcpy(&w, &want[i], sizeof(T));
      std::fprintf(stderr, "%s mismatch: dtype %d n %d element %zu of %zu: got 0x%llx want 0x%llx\n", what,
                   c.dtype, c.n, i, count, (unsigned long long)g, (unsigned long long)w);
      for (int k = 0; k < c.n; ++k) {
        std::fprintf(stderr, "  input %d: ", k);
        fuzz::print_shape(stderr, c.shapes[size_t(k)].data(), c.ranks[size_t(k)]);
        std::fprintf(stderr, "\n");
      }
      std::abort();
    }
  }
}

template <class Tr>
void run_typed(const Case& c, const std::vector<Shape>& views, const Dims& out_dims, int64_t total) {
  using T = typename Tr::T;
  const int n = c.n;
  const Shape out_shape{out_dims.data(), int(out_dims.size())};
  size_t cursor = 0;
  std::vector<std::vector<T>> data(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    data[size_t(i)].resize(size_t(fuzz::ref_count(views[size_t(i)].dims, views[size_t(i)].rank)));
    fill<Tr>(data[size_t(i)], c, cursor);
  }
  const std::vector<std::vector<T>> original = data;

  // Reference: fold left to right with ref_max at every output element.
  std::vector<T> want(static_cast<size_t>(total));
  for (int64_t flat = 0; flat < total; ++flat) {
    T acc{};
    for (int i = 0; i < n; ++i) {
      const int64_t off = fuzz::ref_offset(out_dims, views[size_t(i)], flat);
      const T v = data[size_t(i)][size_t(off)];
      acc = i == 0 ? v : test::ref_max<Tr>(acc, v);
    }
    want[size_t(flat)] = acc;
  }

  std::vector<const void*> ptrs(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) ptrs[size_t(i)] = data[size_t(i)].data();

  // Out of place, into an exact-size buffer.
  {
    std::vector<T> out(static_cast<size_t>(total));
    const Status st = test::call_max(c.dtype, n, ptrs.data(), views.data(), out.data(), out_shape);
    FUZZ_CHECK(st == Status::Ok, "max: %s", fuzz::status_name(st));
    check_same(out.data(), want.data(), want.size(), "max", c);
    for (int i = 0; i < n; ++i)
      FUZZ_CHECK(data[size_t(i)].empty() || std::memcmp(data[size_t(i)].data(), original[size_t(i)].data(),
                                                        data[size_t(i)].size() * sizeof(T)) == 0,
                 "max modified input %d", i);
  }

  // The planner agrees on the output, and a second call gives the same result.
  {
    BroadcastPlan plan;
    const Status ps = plan_broadcast(n, views.data(), out_shape, &plan);
    FUZZ_CHECK(ps == Status::Ok, "plan_broadcast: %s", fuzz::status_name(ps));
    FUZZ_CHECK(plan.total == total, "plan.total %lld vs %lld", (long long)plan.total, (long long)total);
    for (int rep = 0; rep < 2; ++rep) {
      std::vector<T> out(static_cast<size_t>(total));
      const Status st = test::call_max(c.dtype, n, ptrs.data(), views.data(), out.data(), out_shape);
      FUZZ_CHECK(st == Status::Ok, "max again: %s", fuzz::status_name(st));
      check_same(out.data(), want.data(), want.size(), "max again", c);
    }
  }

  // The planner-free path (Max's flat case): taken when every input has the
  // output's layout (as many elements) or is a single value. Also with the
  // inputs repeated to 17..20 of them (past its 16-entry stack arrays), and
  // in place.
  bool flat = true;
  for (int i = 0; i < n; ++i)
    if (!(int64_t(data[size_t(i)].size()) == total || data[size_t(i)].size() == 1)) flat = false;
  if (flat) {
    const int reps[2] = {n, 17 + c.sel % 4};
    for (int m : reps) {
      std::vector<const void*> fptrs(static_cast<size_t>(m));
      std::vector<unsigned char> scalar(static_cast<size_t>(m));
      for (int i = 0; i < m; ++i) {
        fptrs[size_t(i)] = ptrs[size_t(i % n)];
        scalar[size_t(i)] = int64_t(data[size_t(i % n)].size()) != total;
      }
      std::vector<T> fwant(static_cast<size_t>(total));
      for (int64_t k = 0; k < total; ++k) {
        T acc{};
        for (int i = 0; i < m; ++i) {
          const T v = data[size_t(i % n)][scalar[size_t(i)] ? 0 : size_t(k)];
          acc = i == 0 ? v : test::ref_max<Tr>(acc, v);
        }
        fwant[size_t(k)] = acc;
      }
      std::vector<T> out(static_cast<size_t>(total));
      const Status st = test::call_max_flat(c.dtype, m, fptrs.data(), scalar.data(), out.data(), size_t(total));
      FUZZ_CHECK(st == Status::Ok, "max_flat (%d inputs): %s", m, fuzz::status_name(st));
      check_same(out.data(), fwant.data(), fwant.size(), "max_flat", c);
      if (m == n) check_same(out.data(), want.data(), want.size(), "max_flat vs broadcasting reference", c);
      // In place over the first full-layout input.
      for (int a = 0; a < n; ++a) {
        if (scalar[size_t(a)] || total == 0) continue;
        std::vector<T> buf = original[size_t(a)];
        std::vector<const void*> iptrs = fptrs;
        for (int i = 0; i < m; ++i)
          if (i % n == a) iptrs[size_t(i)] = buf.data();
        const Status si = test::call_max_flat(c.dtype, m, iptrs.data(), scalar.data(), buf.data(), size_t(total));
        FUZZ_CHECK(si == Status::Ok, "max_flat in place: %s", fuzz::status_name(si));
        check_same(buf.data(), fwant.data(), fwant.size(), "max_flat in place", c);
        break;
      }
    }
    unsigned char sc = 0;
    FUZZ_CHECK(test::call_max_flat(c.dtype, 0, ptrs.data(), &sc, nullptr, 0) == Status::BadArity, "flat n = 0");
  }

  // In place: out is an input that has as many elements as the output
  // (i.e. the output's shape up to 1s; the library documents the output's shape).
  if (c.in_place && total > 0) {
    std::vector<int> cands;
    for (int i = 0; i < n; ++i)
      if (int64_t(data[size_t(i)].size()) == total) cands.push_back(i);
    if (!cands.empty()) {
      const int alias = cands[c.sel % cands.size()];
      std::vector<std::vector<T>> work = original;
      std::vector<const void*> wptrs(static_cast<size_t>(n));
      for (int i = 0; i < n; ++i) wptrs[size_t(i)] = work[size_t(i)].data();
      T* dst = work[size_t(alias)].data();
      const Status st = test::call_max(c.dtype, n, wptrs.data(), views.data(), dst, out_shape);
      FUZZ_CHECK(st == Status::Ok, "max in place: %s", fuzz::status_name(st));
      check_same(dst, want.data(), want.size(), "max in place", c);
      // The same input passed several times, all aliased to out.
      if (n >= 2) {
        std::vector<T> buf = original[size_t(alias)];
        std::vector<const void*> same(static_cast<size_t>(n), buf.data());
        std::vector<Shape> same_views(static_cast<size_t>(n), views[size_t(alias)]);
        const Status st2 = test::call_max(c.dtype, n, same.data(), same_views.data(), buf.data(),
                                       Shape{views[size_t(alias)].dims, views[size_t(alias)].rank});
        FUZZ_CHECK(st2 == Status::Ok, "max all-same in place: %s", fuzz::status_name(st2));
        // max(x, x, ..., x) == x, bit for bit (NaNs keep their bits).
        check_same(buf.data(), original[size_t(alias)].data(), buf.size(), "max(x,...,x) in place", c);
      }
    }
  }

  // A wrong output shape is rejected before anything is written.
  if (c.perturb) {
    Dims bad = out_dims;
    switch (c.sel % 4) {
      case 0: bad.insert(bad.begin(), 1); break;                 // extra leading 1
      case 1: if (!bad.empty()) bad.erase(bad.begin()); else bad.push_back(2); break;
      case 2:  // the last dim one larger (one smaller at INT64_MAX: empty outputs may carry huge dims)
        if (!bad.empty()) bad.back() += bad.back() == INT64_MAX ? -1 : 1;
        else bad.push_back(0);
        break;
      case 3: if (!bad.empty()) bad.front() = bad.front() == 1 ? 2 : 1; else bad.push_back(1); break;
    }
    bool differs = bad != out_dims;
    if (differs) {
      const T sentinel = want.empty() ? T{} : want[0];
      std::vector<T> out(size_t(total) + 1, sentinel);
      const Status st = test::call_max(c.dtype, n, ptrs.data(), views.data(), out.data(),
                                    Shape{bad.data(), int(bad.size())});
      FUZZ_CHECK(st == Status::OutShapeMismatch, "wrong out shape accepted: %s", fuzz::status_name(st));
      for (const T& x : out) FUZZ_CHECK(test::same_bits(x, sentinel), "wrote into out on an error");
    }
  }

  // Relu over every input: out of place and in place.
  const bool has_relu = !std::is_unsigned_v<T> || test::is_half<Tr>;
  for (int i = 0; i < n && i < 3; ++i) {
    const std::vector<T>& x = original[size_t(i)];
    std::vector<T> out(x.size());
    const Status st = test::call_relu(c.dtype, x.data(), out.data(), x.size());
    if (!has_relu) {
      FUZZ_CHECK(st == Status::BadDtype, "relu on unsigned dtype %d: %s", c.dtype, fuzz::status_name(st));
      continue;
    }
    FUZZ_CHECK(st == Status::Ok, "relu: %s", fuzz::status_name(st));
    std::vector<T> rwant(x.size());
    for (size_t k = 0; k < x.size(); ++k) rwant[k] = test::ref_relu<Tr>(x[k]);
    check_same(out.data(), rwant.data(), x.size(), "relu", c);
    std::vector<T> inplace = x;
    FUZZ_CHECK(test::call_relu(c.dtype, inplace.data(), inplace.data(), inplace.size()) == Status::Ok, "relu in place");
    check_same(inplace.data(), rwant.data(), x.size(), "relu in place", c);
  }
}

template <class Tr>
void dispatch_run(const Case& c, const std::vector<Shape>& v, const Dims& o, int64_t t) { run_typed<Tr>(c, v, o, t); }

void run(const Case& c, const std::vector<Shape>& v, const Dims& o, int64_t t) {
  switch (static_cast<DType>(c.dtype)) {
    case DType::Float32: return dispatch_run<Float32Traits>(c, v, o, t);
    case DType::Float64: return dispatch_run<Float64Traits>(c, v, o, t);
    case DType::Float16: return dispatch_run<Float16Traits>(c, v, o, t);
    case DType::Bfloat16: return dispatch_run<Bfloat16Traits>(c, v, o, t);
    case DType::Int8: return dispatch_run<Int8Traits>(c, v, o, t);
    case DType::Int16: return dispatch_run<Int16Traits>(c, v, o, t);
    case DType::Int32: return dispatch_run<Int32Traits>(c, v, o, t);
    case DType::Int64: return dispatch_run<Int64Traits>(c, v, o, t);
    case DType::Uint8: return dispatch_run<Uint8Traits>(c, v, o, t);
    case DType::Uint16: return dispatch_run<Uint16Traits>(c, v, o, t);
    case DType::Uint32: return dispatch_run<Uint32Traits>(c, v, o, t);
    case DType::Uint64: return dispatch_run<Uint64Traits>(c, v, o, t);
  }
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const Case c = decode(data, size);
  std::vector<Shape> views;
  for (int i = 0; i < c.n; ++i) views.push_back(Shape{c.shapes[size_t(i)].data(), c.ranks[size_t(i)]});

  // broadcast_shape must agree with the reference on every shape, wild or not.
  Dims got;
  int bad = -1;
  const Status bs = broadcast_shape(c.n, views.data(), &got, &bad);
  const fuzz::RefBroadcast ref = fuzz::ref_broadcast(c.n, views.data());
  FUZZ_CHECK(bs == ref.status, "broadcast_shape: %s, reference %s", fuzz::status_name(bs),
             fuzz::status_name(ref.status));
  if (bs == Status::BadShape || bs == Status::Incompatible)
    FUZZ_CHECK(bad == ref.bad_input, "bad_input %d, reference %d", bad, ref.bad_input);
  if (bs == Status::Ok) FUZZ_CHECK(got == ref.out, "broadcast_shape: wrong output shape");

  // Errors every call must report, touching nothing: a pointer-free out
  // buffer of one byte, inputs of one byte.
  unsigned char scratch[1] = {0xA5};
  std::vector<const void*> dummies(static_cast<size_t>(c.n), scratch);
  if (c.bad_dtype) {
    const Status st = test::call_max(c.dtype, c.n, dummies.data(), views.data(), scratch,
                                  Shape{got.data(), int(got.size())});
    FUZZ_CHECK(st == Status::BadDtype, "max with dtype %d: %s", c.dtype, fuzz::status_name(st));
    FUZZ_CHECK(test::call_relu(c.dtype, scratch, scratch, 1) == Status::BadDtype, "relu with dtype %d", c.dtype);
    const unsigned char flags[1] = {1};
    FUZZ_CHECK(test::call_max_flat(c.dtype, 1, dummies.data(), flags, scratch, 1) == Status::BadDtype,
               "max_flat with dtype %d", c.dtype);
    FUZZ_CHECK(scratch[0] == 0xA5, "wrote on a BadDtype error");
    return 0;
  }
  FUZZ_CHECK(test::call_max(c.dtype, 0, dummies.data(), views.data(), scratch, Shape{nullptr, 0}) == Status::BadArity,
             "n = 0 accepted");
  if (bs != Status::Ok) {
    const Status st = test::call_max(c.dtype, c.n, dummies.data(), views.data(), scratch,
                                  Shape{ref.out.data(), int(ref.out.size())});
    FUZZ_CHECK(st == bs, "max: %s, broadcast_shape said %s", fuzz::status_name(st), fuzz::status_name(bs));
    FUZZ_CHECK(scratch[0] == 0xA5, "wrote on an error");
    return 0;
  }
  if (ref.total == 0) {
    // Empty output: accepted, and no input or output byte is touched.
    std::vector<const void*> nulls(static_cast<size_t>(c.n), nullptr);
    const Status st = test::call_max(c.dtype, c.n, nulls.data(), views.data(), nullptr,
                                  Shape{got.data(), int(got.size())});
    FUZZ_CHECK(st == Status::Ok, "empty max: %s", fuzz::status_name(st));
  }
  // Allocate only for small, valid shapes.
  if (ref.total > kMaxOutElements) return 0;
  for (const Shape& s : views) {
    const int64_t count = fuzz::ref_count(s.dims, s.rank);
    if (count < 0 || count > kMaxOutElements) return 0;
  }
  run(c, views, got, ref.total);
  return 0;
}
