// Max: which loop runs, for every dtype and every operand, decided here and
// nowhere else (as XNNPACK's src/configs/: one config per op picks every
// kernel of a dtype). The kernels (src/kernels/) are leaf loops over an op
// policy (MaxOp, or the faster PmaxClean and Half16MaxNonNan where they are
// exact); ops/elementwise.cpp walks the broadcast, op- and dtype-free, and
// calls these entries by role.
//
//   entry        operands                     dtype              kernel
//   op2          both one value, or a NaN     any                fill_bytes of the one result
//                first value
//                a run a, one value c         float, c = +0      vunary<ReluOp> (Max with +0 is Relu)
//                (c goes second)              IEEE, c clean      vbinaryc_rows<PmaxClean>, one row
//                                             IEEE, c NaN        vbinaryc<MaxOp>, one vector a step
//                                             half16, c no NaN   vbinaryc<Half16MaxNonNan>
//                                             half16, c NaN      vbinaryc_nan
//                                             integer            vbinaryc<MaxOp>
//                two runs                     IEEE, half16       vbinary_checked<MaxOp>
//                                             integer            vbinary<MaxOp>
//   op3          three runs                   IEEE               vbinary3_checked<MaxOp> (others: none, fold by twos)
//   clean_all    whether values are clean     IEEE               PmaxClean::clean_all (others: none)
//   clean_rows   rows against a clean row     IEEE               vbinary_rows<PmaxClean> (others: none)
//   clean_rowsc  rows against a clean value   IEEE               vbinaryc_rows<PmaxClean> (others: none)
//                per row
//
// IEEE: float32, float64; half16: float16, bfloat16; clean: no NaN, no +0.
// Without the vector path (ONNX_OPS_SCALAR) there are no checked kernels:
// vbinary and vbinary3 run instead.
#include "max_config.h"

#include <cstring>

#include "../kernels/half16_max_non_nan.h"
#include "../kernels/max_fast.h"
#include "../kernels/pmax_clean.h"
#include "../kernels/policies.h"
#include "../kernels/vbinary3.h"
#include "../kernels/vbinary_checked.h"
#include "../kernels/vbinary_rows.h"
#include "../kernels/vunary.h"

namespace onnx_ops {
namespace {

// The fused three-input Max and the pmax shortcuts against clean operands are
// float32/float64 only: elsewhere the fold by twos moves the same bytes with
// more instructions, and the package's size budget has no room for them.
template <class Tr>
constexpr bool kFusedMax = Tr::kFormat == Format::Ieee;

// Max of a run a and one value c. Inline: its one caller, op2, is the
// dtype's own function already (the loops it picks stay out of line).
template <class Tr>
inline void max_value(size_t n, const typename Tr::T* a, const typename Tr::T* c, typename Tr::T* out) {
  using T = typename Tr::T;
  if constexpr (Tr::kFormat != Format::Integer) {
    const T plus_zero{};  // +0 is all zero bits in each float type
    if (std::memcmp(c, &plus_zero, sizeof(T)) == 0) {
      vunary<Tr, ReluOp>(n, a, out);
      return;
    }
  }
  if constexpr (Tr::kFormat == Format::Ieee) {
    if (PmaxClean<Tr>::clean(*c)) {
      vbinaryc_rows<Tr, PmaxClean>(Rows{1, n, 0, 0}, a, c, out);
      return;
    }
    vbinaryc<Tr, MaxOp, false>(n, a, c, out);
  } else if constexpr (Tr::kFormat == Format::Half16) {
    if (!Tr::isnan1(*c)) {
      vbinaryc<Tr, Half16MaxNonNan, true>(n, a, c, out);
    } else {
      vbinaryc_nan<Tr>(n, a, c, out);
    }
  } else {
    vbinaryc<Tr, MaxOp, true>(n, a, c, out);
  }
}

// Max of two runs. The float formats' exact vector max is several
// instructions: theirs go through the checked pmax (vbinary_checked.h),
// which only the vector path has. Inline, as max_value.
template <class Tr>
inline void max_runs(size_t n, const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out) {
#ifdef ONNX_OPS_VECTOR
  if constexpr (Tr::kFormat != Format::Integer) {
    vbinary_checked<Tr, MaxOp>(n, a, b, out);
    return;
  }
#endif
  vbinary<Tr, MaxOp>(n, a, b, out);
}

template <class Tr>
void max3(size_t n, const void* a_v, const void* b_v, const void* c_v, void* out_v) {
  using T = typename Tr::T;
  const T* a = static_cast<const T*>(a_v);
  const T* b = static_cast<const T*>(b_v);
  const T* c = static_cast<const T*>(c_v);
  T* out = static_cast<T*>(out_v);
#ifdef ONNX_OPS_VECTOR
  vbinary3_checked<Tr, MaxOp>(n, a, b, c, out);  // the IEEE types' alone (kFusedMax)
#else
  vbinary3<Tr, MaxOp>(n, a, b, c, out);
#endif
}

template <class Tr>
bool clean_all(size_t n, const void* x) {
  return PmaxClean<Tr>::clean_all(n, static_cast<const typename Tr::T*>(x));
}

template <class Tr>
void clean_rows(const Rows& r, const void* x, const void* y, void* out) {
  using T = typename Tr::T;
  vbinary_rows<Tr, PmaxClean>(r, static_cast<const T*>(x), static_cast<const T*>(y), static_cast<T*>(out));
}

template <class Tr>
void clean_rowsc(const Rows& r, const void* x, const void* v, void* out) {
  using T = typename Tr::T;
  vbinaryc_rows<Tr, PmaxClean>(r, static_cast<const T*>(x), static_cast<const T*>(v), static_cast<T*>(out));
}

}  // namespace

BinaryKernels max_kernels(int32_t dtype) {
  BinaryKernels k{dtype_size(dtype), nullptr, nullptr, nullptr, nullptr, nullptr};
  with_traits<false>(dtype, [&](auto traits) {
    using Tr = decltype(traits);
    k.op2 = &select2<Tr, MaxOp, &max_value<Tr>, &max_runs<Tr>>;
    if constexpr (kFusedMax<Tr>) {
      k.op3 = &max3<Tr>;
      k.clean_all = &clean_all<Tr>;
      k.clean_rows = &clean_rows<Tr>;
      k.clean_rowsc = &clean_rowsc<Tr>;
    }
  });
  return k;
}

}  // namespace onnx_ops
