#include "kernel_table.h"

#include "../dtypes/dtype.h"
#include "../kernels/copy.h"
#include "../kernels/pmax.h"
#include "../kernels/vmax.h"
#include "../kernels/vmax3.h"
#include "../kernels/vmax_rows.h"
#include "../kernels/vmaxc.h"
#include "../kernels/vrelu.h"

namespace onnx_ops {
namespace {

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
    vmaxc<Tr>(n, a_single ? b : a, a_single ? a : b, out);
  } else {
    vmax<Tr>(n, a, b, out);
  }
}

template <class Tr>
void max3(size_t n, const void* a, const void* b, const void* c, void* out) {
  using T = typename Tr::T;
  vmax3<Tr>(n, static_cast<const T*>(a), static_cast<const T*>(b), static_cast<const T*>(c), static_cast<T*>(out));
}

template <class Tr>
bool clean(size_t n, const void* x) {
  return PmaxClean<Tr>::clean_all(n, static_cast<const typename Tr::T*>(x));
}

template <class Tr>
void rows(const Rows& r, const void* x, const void* y, void* out) {
  using T = typename Tr::T;
  vmax_rows<PmaxClean<Tr>>(r, static_cast<const T*>(x), static_cast<const T*>(y), static_cast<T*>(out));
}

template <class Tr>
void values(const Rows& r, const void* x, const void* v, void* out) {
  using T = typename Tr::T;
  vmaxc_rows<PmaxClean<Tr>>(r, static_cast<const T*>(x), static_cast<const T*>(v), static_cast<T*>(out));
}

// Calls f(Traits{}) with the traits of `dtype`; false for a dtype with no
// kernel. kSigned: Relu, which has no unsigned dtypes (nor their code).
template <bool kSigned, class F>
bool with_traits(int32_t dtype, F&& f) {
  switch (static_cast<DType>(dtype)) {
    case DType::Float32: f(Float32Traits{}); return true;
    case DType::Float64: f(Float64Traits{}); return true;
    case DType::Float16: f(Float16Traits{}); return true;
    case DType::Bfloat16: f(Bfloat16Traits{}); return true;
    case DType::Int8: f(Int8Traits{}); return true;
    case DType::Int16: f(Int16Traits{}); return true;
    case DType::Int32: f(Int32Traits{}); return true;
    case DType::Int64: f(Int64Traits{}); return true;
    default: break;
  }
  if constexpr (!kSigned) {
    switch (static_cast<DType>(dtype)) {
      case DType::Uint8: f(Uint8Traits{}); return true;
      case DType::Uint16: f(Uint16Traits{}); return true;
      case DType::Uint32: f(Uint32Traits{}); return true;
      case DType::Uint64: f(Uint64Traits{}); return true;
      default: break;
    }
  }
  return false;
}

}  // namespace

MaxKernels max_kernels(int32_t dtype) {
  MaxKernels k{dtype_size(dtype), nullptr, nullptr, nullptr, nullptr, nullptr};
  with_traits<false>(dtype, [&](auto traits) {
    using Tr = decltype(traits);
    k.max2 = &max2<Tr>;
    if constexpr (kFusedMax<Tr>) {
      k.max3 = &max3<Tr>;
      k.clean = &clean<Tr>;
      k.rows = &rows<Tr>;
      k.values = &values<Tr>;
    }
  });
  return k;
}

bool run_relu(int32_t dtype, size_t n, const void* x, void* out) {
  return with_traits<true>(dtype, [&](auto traits) {
    using T = typename decltype(traits)::T;
    vrelu<decltype(traits)>(n, static_cast<const T*>(x), static_cast<T*>(out));
  });
}

}  // namespace onnx_ops
