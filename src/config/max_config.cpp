// Max: which loop runs, for every dtype and every operand, decided here and
// nowhere else (as XNNPACK's src/configs/: one config per op picks every
// kernel of a dtype). The kernels (src/kernels/) are leaf loops; ops/max.cpp
// walks the broadcast, dtype-free, and calls these entries by role.
//
//   entry       operands                     dtype              kernel
//   max2        both one value, or a NaN     any                fill_bytes of the one result
//               first value
//               a run a, one value c         float, c = +0      vrelu (Max with +0 is Relu)
//               (c goes second)              IEEE, c clean      vmaxc_rows<PmaxClean>, one row
//                                            IEEE, c NaN        vmaxc<Tr>, one vector a step
//                                            half16, c no NaN   vmaxc<Half16MaxNonNan>
//                                            half16, c NaN      vmaxc_nan
//                                            integer            vmaxc<Tr>
//               two runs                     IEEE, half16       vmax_checked
//                                            integer            vmax
//   max3        three runs                   IEEE               vmax3_checked (others: none, fold by twos)
//   clean_all   whether values are clean     IEEE               PmaxClean::clean_all (others: none)
//   pmax_rows   rows against a clean row     IEEE               vmax_rows<PmaxClean> (others: none)
//   pmaxc_rows  rows against a clean value   IEEE               vmaxc_rows<PmaxClean> (others: none)
//               per row
//
// IEEE: float32, float64; half16: float16, bfloat16; clean: no NaN, no +0.
// Without the vector path (ONNX_OPS_SCALAR) there are no checked kernels:
// vmax and vmax3 run instead.
#include "max_config.h"

#include <cstring>

#include "../dtypes/dtype.h"
#include "../dtypes/with_traits.h"
#include "../kernels/copy.h"
#include "../kernels/half16_max_non_nan.h"
#include "../kernels/pmax_clean.h"
#include "../kernels/vmax.h"
#include "../kernels/vmax3.h"
#include "../kernels/vmax_checked.h"
#include "../kernels/vmax_rows.h"
#include "../kernels/vmaxc.h"
#include "../kernels/vrelu.h"

namespace onnx_ops {
namespace {

// The fused three-input Max and the pmax shortcuts against clean operands are
// float32/float64 only: elsewhere the fold by twos moves the same bytes with
// more instructions, and the package's size budget has no room for them.
template <class Tr>
constexpr bool kFusedMax = Tr::kFormat == Format::Ieee;

// Max of a run a and one value c. Inline: its one caller, max2, is the
// dtype's own function already (the loops it picks stay out of line).
template <class Tr>
inline void max_value(size_t n, const typename Tr::T* a, const typename Tr::T* c, typename Tr::T* out) {
  using T = typename Tr::T;
  if constexpr (Tr::kFormat != Format::Integer) {
    const T plus_zero{};  // +0 is all zero bits in each float type
    if (std::memcmp(c, &plus_zero, sizeof(T)) == 0) {
      vrelu<Tr>(n, a, out);
      return;
    }
  }
  if constexpr (Tr::kFormat == Format::Ieee) {
    if (PmaxClean<Tr>::clean(*c)) {
      vmaxc_rows<PmaxClean<Tr>>(Rows{1, n, 0, 0}, a, c, out);
      return;
    }
    vmaxc<Tr, false>(n, a, c, out);
  } else if constexpr (Tr::kFormat == Format::Half16) {
    if (!Tr::isnan1(*c)) {
      vmaxc<Half16MaxNonNan<Tr>, true>(n, a, c, out);
    } else {
      vmaxc_nan<Tr>(n, a, c, out);
    }
  } else {
    vmaxc<Tr, true>(n, a, c, out);
  }
}

// Max of two runs. The float formats' exact vector max is several
// instructions: theirs go through the checked pmax (vmax_checked.h), which
// only the vector path has. Inline, as max_value.
#ifdef ONNX_OPS_VECTOR
template <class Tr>
inline void max_runs(size_t n, const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out) {
  if constexpr (Tr::kFormat != Format::Integer) vmax_checked<Tr>(n, a, b, out);
  else vmax<Tr>(n, a, b, out);
}
#else
template <class Tr>
inline void max_runs(size_t n, const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out) {
  vmax<Tr>(n, a, b, out);
}
#endif

template <class Tr>
void max2(size_t n, const void* a_v, bool a_single, const void* b_v, bool b_single, void* out_v) {
  using T = typename Tr::T;
  const T* a = static_cast<const T*>(a_v);
  const T* b = static_cast<const T*>(b_v);
  T* out = static_cast<T*>(out_v);
  if (a_single && (b_single || Tr::isnan1(*a))) {
    // One value for the whole run: the max of two values, or a NaN first one.
    const T v = b_single ? Tr::max1(*a, *b) : *a;
    fill_bytes(n, sizeof(T), reinterpret_cast<const unsigned char*>(&v), static_cast<unsigned char*>(out_v));
  } else if (a_single || b_single) {
    // Otherwise max is symmetric bit for bit (only two NaNs tell the order
    // apart), so the value may go second: one kernel fewer.
    max_value<Tr>(n, a_single ? b : a, a_single ? a : b, out);
  } else {
    max_runs<Tr>(n, a, b, out);
  }
}

template <class Tr>
void max3(size_t n, const void* a_v, const void* b_v, const void* c_v, void* out_v) {
  using T = typename Tr::T;
  const T* a = static_cast<const T*>(a_v);
  const T* b = static_cast<const T*>(b_v);
  const T* c = static_cast<const T*>(c_v);
  T* out = static_cast<T*>(out_v);
#ifdef ONNX_OPS_VECTOR
  vmax3_checked<Tr>(n, a, b, c, out);  // the IEEE types' alone (kFusedMax)
#else
  vmax3<Tr>(n, a, b, c, out);
#endif
}

template <class Tr>
bool clean_all(size_t n, const void* x) {
  return PmaxClean<Tr>::clean_all(n, static_cast<const typename Tr::T*>(x));
}

template <class Tr>
void pmax_rows(const Rows& r, const void* x, const void* y, void* out) {
  using T = typename Tr::T;
  vmax_rows<PmaxClean<Tr>>(r, static_cast<const T*>(x), static_cast<const T*>(y), static_cast<T*>(out));
}

template <class Tr>
void pmaxc_rows(const Rows& r, const void* x, const void* v, void* out) {
  using T = typename Tr::T;
  vmaxc_rows<PmaxClean<Tr>>(r, static_cast<const T*>(x), static_cast<const T*>(v), static_cast<T*>(out));
}

}  // namespace

MaxKernels max_kernels(int32_t dtype) {
  MaxKernels k{dtype_size(dtype), nullptr, nullptr, nullptr, nullptr, nullptr};
  with_traits<false>(dtype, [&](auto traits) {
    using Tr = decltype(traits);
    k.max2 = &max2<Tr>;
    if constexpr (kFusedMax<Tr>) {
      k.max3 = &max3<Tr>;
      k.clean_all = &clean_all<Tr>;
      k.pmax_rows = &pmax_rows<Tr>;
      k.pmaxc_rows = &pmaxc_rows<Tr>;
    }
  });
  return k;
}

}  // namespace onnx_ops
