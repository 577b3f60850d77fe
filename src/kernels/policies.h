// The op policies: an op as its dtype's primitives (traits.h), which the
// kernels (vbinary<Tr, Op> and their forms) are templates over. A policy
// Op<Tr> has
//   op1(a, b) / op1(x)   the scalar result (remainders, and the scalar build)
//   vop(a, b) / vop(x)   the same on a 128-bit vector (vector builds)
// and, for the checked kernels (vbinary_checked.h), Fast: a faster formula and
// what makes it inexact. The policies here are those more than one config
// runs; an op one config alone runs may have its policy there.
#pragma once

#include "../dtypes/traits.h"

namespace onnx_ops {

template <class Tr, Format = Tr::kFormat>
struct MaxFast;  // max_fast.h (float formats, vector builds)

template <class Tr>
struct MaxOp {
  using T = typename Tr::T;
  using Fast = MaxFast<Tr>;
  static T op1(T a, T b) { return Tr::max1(a, b); }
#ifdef ONNX_OPS_VECTOR
  static v128_t vop(v128_t a, v128_t b) { return Tr::vmax(a, b); }
#endif
};

template <class Tr>
struct ReluOp {
  using T = typename Tr::T;
  static T op1(T x) { return Tr::relu1(x); }
#ifdef ONNX_OPS_VECTOR
  static v128_t vop(v128_t x) { return Tr::vrelu(x); }
#endif
};

}  // namespace onnx_ops
