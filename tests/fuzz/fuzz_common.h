// Shared pieces of the libFuzzer harnesses (tests/fuzz/fuzz_*.cpp): a byte
// reader, an independent reference for numpy broadcasting (status, output
// shape, offending input, element count), and a failure macro that prints
// what went wrong and aborts, so that libFuzzer records a crash.
#pragma once

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "plan/broadcast.h"
#include "dtypes/dtype.h"

namespace fuzz {

using onnx_ops::Shape;
using onnx_ops::Status;
using Dims = std::vector<int64_t>;

#define FUZZ_CHECK(cond, ...)                                                   \
  do {                                                                          \
    if (!(cond)) {                                                              \
      std::fprintf(stderr, "FUZZ CHECK FAILED %s:%d: %s\n  ", __FILE__, __LINE__, #cond); \
      std::fprintf(stderr, __VA_ARGS__);                                        \
      std::fprintf(stderr, "\n");                                               \
      std::abort();                                                             \
    }                                                                           \
  } while (0)

// Reads the fuzz input front to back; past the end it yields `fallback`.
struct Reader {
  const uint8_t* p;
  size_t n;
  size_t at = 0;
  Reader(const uint8_t* data, size_t size) : p(data), n(size) {}
  uint8_t u8(uint8_t fallback = 0) { return at < n ? p[at++] : fallback; }
  uint64_t u64() {
    uint64_t v = 0;
    for (int i = 0; i < 8; ++i) v |= uint64_t(u8()) << (8 * i);
    return v;
  }
  size_t left() const { return at < n ? n - at : 0; }
  const uint8_t* rest() const { return p + (at < n ? at : n); }
};

inline const char* status_name(Status s) {
  switch (s) {
    case Status::Ok: return "Ok";
    case Status::BadDtype: return "BadDtype";
    case Status::BadArity: return "BadArity";
    case Status::BadShape: return "BadShape";
    case Status::Incompatible: return "Incompatible";
    case Status::OutShapeMismatch: return "OutShapeMismatch";
    case Status::TooLarge: return "TooLarge";
  }
  return "?";
}

inline void print_shape(FILE* f, const int64_t* d, int rank) {
  std::fprintf(f, "[");
  for (int k = 0; k < rank && k < 80; ++k) std::fprintf(f, "%s%lld", k ? "," : "", (long long)d[k]);
  if (rank > 80) std::fprintf(f, ",...");
  std::fprintf(f, "] (rank %d)", rank);
}

// Element count with 0 winning over any overflow; -1 above kMaxElements.
// Written with 128-bit saturation, independently of element_count().
inline int64_t ref_count(const int64_t* dims, int rank) {
  for (int k = 0; k < rank; ++k)
    if (dims[k] == 0) return 0;
  unsigned __int128 total = 1;
  for (int k = 0; k < rank; ++k) {
    total *= static_cast<unsigned __int128>(dims[k]);
    if (total > static_cast<unsigned __int128>(onnx_ops::kMaxElements)) return -1;
  }
  return int64_t(total);
}

inline bool ref_valid(const Shape& s) {
  if (s.rank < 0 || s.rank > onnx_ops::kMaxRank) return false;
  if (s.rank > 0 && s.dims == nullptr) return false;
  for (int k = 0; k < s.rank; ++k)
    if (s.dims[k] < 0) return false;
  return true;
}

struct RefBroadcast {
  Status status = Status::Ok;
  int bad_input = -1;
  Dims out;
  int64_t total = 0;
};

// numpy's rule, stated per axis: the shapes broadcast when, on every axis
// (aligned right), the dims other than 1 are all equal. The offending input
// is the first i such that shapes[0..i] do not broadcast.
inline RefBroadcast ref_broadcast(int n, const Shape* shapes) {
  RefBroadcast r;
  int rank = 0;
  for (int i = 0; i < n; ++i) {
    if (!ref_valid(shapes[i])) {
      r.status = Status::BadShape;
      r.bad_input = i;
      return r;
    }
    if (shapes[i].rank > rank) rank = shapes[i].rank;
  }
  r.out.assign(size_t(rank), 1);
  std::vector<bool> set(size_t(rank), false);
  for (int i = 0; i < n; ++i) {
    for (int k = 0; k < shapes[i].rank; ++k) {
      const int64_t d = shapes[i].dims[k];
      const size_t a = size_t(rank - shapes[i].rank + k);
      if (d == 1) continue;
      if (!set[a]) {
        set[a] = true;
        r.out[a] = d;
      } else if (r.out[a] != d) {
        r.status = Status::Incompatible;
        r.bad_input = i;
        return r;
      }
    }
  }
  r.total = ref_count(r.out.data(), rank);
  if (r.total < 0) r.status = Status::TooLarge;
  return r;
}

// Offset of output element `flat` in input `s` (numpy broadcasting), for an
// output of dims `out`.
inline int64_t ref_offset(const Dims& out, const Shape& s, int64_t flat) {
  const int R = int(out.size());
  int64_t off = 0, mul = 1;
  for (int k = R - 1; k >= 0; --k) {
    const int64_t i = flat % out[size_t(k)];
    flat /= out[size_t(k)];
    const int ik = k - (R - s.rank);
    if (ik < 0) continue;
    const int64_t d = s.dims[ik];
    if (d != 1) off += i * mul;
    mul *= d;
  }
  return off;
}

// The twelve dtypes, and numbers that are not dtypes.
constexpr int32_t kDtypes[12] = {1, 2, 3, 4, 5, 6, 7, 10, 11, 12, 13, 16};
constexpr int32_t kBadDtypes[16] = {0, 8, 9, 14, 15, 17, -1, 255, 256, 1000, INT32_MIN, INT32_MAX, 18, 19, 20, -7};

// Wild dims for the robustness side: negative, huge, around 2^31/2^32/2^53/2^63.
constexpr int64_t kWildDims[32] = {
    -1, -2, INT64_MIN, INT64_MAX, int64_t(1) << 31, (int64_t(1) << 31) - 1, int64_t(1) << 32,
    (int64_t(1) << 32) + 1, int64_t(1) << 53, (int64_t(1) << 53) - 1, (int64_t(1) << 53) + 1,
    int64_t(1) << 62, INT64_MAX - 1, INT64_MIN + 1, -(int64_t(1) << 40), int64_t(1) << 40,
    int64_t(1) << 26, int64_t(1) << 27, 94906267, 94906265, 3037000499, 3037000500, 0, 1, 2, 3,
    65, 1000000007, int64_t(1) << 21, (int64_t(1) << 21) + 1, 4294967295, 2147483648};

}  // namespace fuzz
