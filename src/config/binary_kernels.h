// The kernels of a binary elementwise op for a dtype, behind plain function
// pointers (BinaryKernels), so that everything around them (the planner,
// folding, grouping, the odometer: ops/elementwise.cpp) is compiled once, not
// once per op and dtype; and the entries the op configs share to fill them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "../dtypes/dtype.h"
#include "../dtypes/with_traits.h"
#include "../kernels/copy.h"
#include "../kernels/vbinary.h"
#include "../kernels/vbinaryc.h"

namespace onnx_ops {

struct BinaryKernels {
  size_t esize;  // bytes per element
  // out = op(a, b) over a run of n; each operand a run, or one value (single).
  void (*op2)(size_t n, const void* a, bool a_single, const void* b, bool b_single, void* out);
  // out = op(op(a, b), c) over three runs in one pass; null: fold by twos.
  void (*op3)(size_t n, const void* a, const void* b, const void* c, void* out);
  // Whether n values are clean: an operand the two row kernels below take a
  // faster form against (Max: no NaN, no +0); null: no such shortcuts.
  bool (*clean_all)(size_t n, const void* x);
  // Rows against a clean row, reused (vbinary_rows).
  void (*clean_rows)(const Rows& rows, const void* x, const void* y, void* out);
  // Rows against a clean value per row (vbinaryc_rows).
  void (*clean_rowsc)(const Rows& rows, const void* x, const void* v, void* out);
};

// An op of a run a and one value c, for Tr's T.
template <class Tr>
using ValueKernel = void (*)(size_t n, const typename Tr::T* a, const typename Tr::T* c, typename Tr::T* out);
// An op of two runs.
template <class Tr>
using RunsKernel = void (*)(size_t n, const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out);

// The two-operand entry of a selecting op (Max, Min: its result is one of
// its operands, the first NaN if any, so it is symmetric bit for bit but for
// which of two NaNs): one value for the whole run, or a NaN first value, is
// a fill; a run and one value go with the value second, through `value`;
// two runs through `runs`.
template <class Tr, template <class> class Op, ValueKernel<Tr> value, RunsKernel<Tr> runs>
void select2(size_t n, const void* a_v, bool a_single, const void* b_v, bool b_single, void* out_v) {
  using T = typename Tr::T;
  const T* a = static_cast<const T*>(a_v);
  const T* b = static_cast<const T*>(b_v);
  T* out = static_cast<T*>(out_v);
  if (a_single && (b_single || Tr::isnan1(*a))) {
    const T v = b_single ? Op<Tr>::op1(*a, *b) : *a;
    fill_bytes(n, sizeof(T), reinterpret_cast<const unsigned char*>(&v), static_cast<unsigned char*>(out_v));
  } else if (a_single || b_single) {
    value(n, a_single ? b : a, a_single ? a : b, out);
  } else {
    runs(n, a, b, out);
  }
}

// A selecting op's run against one value, by the policy's vector form (a NaN
// value: the NaN loop).
template <class Tr, template <class> class Op>
inline void select_value(size_t n, const typename Tr::T* a, const typename Tr::T* c, typename Tr::T* out) {
  if (Tr::isnan1(*c)) vbinaryc_nan<Tr>(n, a, c, out);
  else vbinaryc<Tr, Op, true>(n, a, c, out);
}

// The kernels of a selecting op on every dtype by its policy alone: vbinary,
// vbinaryc (or the NaN loop), fills; no fused or row kernels.
template <template <class> class Op>
BinaryKernels select_kernels(int32_t dtype) {
  BinaryKernels k{dtype_size(dtype), nullptr, nullptr, nullptr, nullptr, nullptr};
  with_traits<false>(dtype, [&](auto traits) {
    using Tr = decltype(traits);
    k.op2 = &select2<Tr, Op, &select_value<Tr, Op>, &vbinary<Tr, Op>>;
  });
  return k;
}

}  // namespace onnx_ops
