// Relu: which loop runs, for every dtype, decided here and nowhere else.
//
//   dtype                          kernel
//   float32, float64, float16,     vunary<ReluOp> (the traits' vector Relu)
//   bfloat16, int64
//   int8, int16, int32             vbinaryc<MaxOp> against zero (Relu is Max
//                                  with zero: a one-instruction vector max,
//                                  and the code Max has already)
//   unsigned                       none: Relu takes no unsigned dtype
#include "relu_config.h"

#include "../dtypes/with_traits.h"
#include "../kernels/policies.h"
#include "../kernels/vbinaryc.h"
#include "../kernels/vunary.h"

namespace onnx_ops {

bool run_relu(int32_t dtype, size_t n, const void* x_v, void* out_v) {
  return with_traits<true>(dtype, [&](auto traits) {
    using Tr = decltype(traits);
    using T = typename Tr::T;
    const T* x = static_cast<const T*>(x_v);
    T* out = static_cast<T*>(out_v);
    if constexpr (Tr::kFormat == Format::Integer && sizeof(T) <= 4) {
      const T zero = 0;
      vbinaryc<Tr, MaxOp, true>(n, x, &zero, out);
    } else {
      vunary<Tr, ReluOp>(n, x, out);
    }
  });
}

}  // namespace onnx_ops
