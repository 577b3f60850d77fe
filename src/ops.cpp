#include "ops.h"

#include <vector>

#include "kernels.h"

namespace onnx_ops {
namespace {

// out = max(a, b) over one run; each operand contiguous or one repeated value.
template <class Tr>
void max_run(size_t n, const typename Tr::T* a, bool a_scalar, const typename Tr::T* b, bool b_scalar,
             typename Tr::T* out) {
  if (a_scalar) {
    if (b_scalar) {  // one value for the whole run
      const typename Tr::T v = Tr::max1(*a, *b);
      copy_kernel<typename Tr::T, true>(n, &v, out);
    } else {
      max_kernel<Tr, true, false>(n, a, b, out);
    }
  } else {
    if (b_scalar) max_kernel<Tr, false, true>(n, a, b, out);
    else max_kernel<Tr, false, false>(n, a, b, out);
  }
}

// One inner run of the output: all inputs, each at its own base pointer.
// With three or more inputs the run is cut into cache-sized tiles and folded
// in a small accumulator, so memory is read once per input and written once,
// instead of N-1 passes over the whole output. The fold is left to right,
// so "the first NaN wins" holds across any number of inputs.
template <class Tr>
ONNX_OPS_KERNEL void max_inner(size_t len, int n, const typename Tr::T* const* base, const unsigned char* scalar, typename Tr::T* out) {
  using T = typename Tr::T;
  if (n == 1) {
    if (scalar[0]) copy_kernel<T, true>(len, base[0], out);
    else copy_kernel<T, false>(len, base[0], out);
    return;
  }
  if (n == 2) {
    max_run<Tr>(len, base[0], scalar[0], base[1], scalar[1], out);
    return;
  }
  constexpr size_t kTile = 8192 / sizeof(T);
  alignas(16) T acc[kTile];
  for (size_t start = 0; start < len; start += kTile) {
    const size_t m = len - start < kTile ? len - start : kTile;
    auto at = [&](int i) { return scalar[i] ? base[i] : base[i] + start; };
    max_run<Tr>(m, at(0), scalar[0], at(1), scalar[1], acc);
    for (int i = 2; i < n - 1; ++i) max_run<Tr>(m, acc, false, at(i), scalar[i], acc);
    max_run<Tr>(m, acc, false, at(n - 1), scalar[n - 1], out + start);
  }
}

template <class Tr>
ONNX_OPS_KERNEL void max_exec(const BroadcastPlan& plan, const void* const* inputs, void* out_v) {
  using T = typename Tr::T;
  if (plan.total == 0) return;
  const int n = plan.n_inputs;
  const int outer_rank = plan.rank - 1;
  const size_t len = size_t(plan.inner());
  std::vector<const T*> base(static_cast<size_t>(n));
  std::vector<unsigned char> scalar(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) {
    base[size_t(i)] = static_cast<const T*>(inputs[i]);
    scalar[size_t(i)] = plan.stride(i, plan.rank - 1) == 0;
  }
  T* out = static_cast<T*>(out_v);
  std::vector<int64_t> idx(static_cast<size_t>(outer_rank), 0);
  const int64_t outer = plan.total / int64_t(len);
  for (int64_t o = 0; o < outer; ++o) {
    max_inner<Tr>(len, n, base.data(), scalar.data(), out);
    out += len;
    // Step the odometer over the outer dims, moving every input's base.
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

template <class Tr>
void max_flat_exec(int n, const void* const* inputs, const unsigned char* scalar, void* out, size_t count) {
  using T = typename Tr::T;
  constexpr int kStack = 16;
  const T* stack_base[kStack];
  std::vector<const T*> heap_base;
  const T** base = stack_base;
  if (n > kStack) {
    heap_base.resize(static_cast<size_t>(n));
    base = heap_base.data();
  }
  for (int i = 0; i < n; ++i) base[i] = static_cast<const T*>(inputs[i]);
  max_inner<Tr>(count, n, base, scalar, static_cast<T*>(out));
}

template <class Tr>
void relu_exec(const void* x, void* out, size_t count) {
  using T = typename Tr::T;
  relu_kernel<Tr>(count, static_cast<const T*>(x), static_cast<T*>(out));
}

}  // namespace

// Calls f(Traits{}) with the traits of `dtype`; false for a dtype with no
// kernel (Relu has none for unsigned types: signed_only).
template <class F>
static bool with_traits(int32_t dtype, bool signed_only, F&& f) {
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
  if (signed_only) return false;
  switch (static_cast<DType>(dtype)) {
    case DType::Uint8: f(Uint8Traits{}); return true;
    case DType::Uint16: f(Uint16Traits{}); return true;
    case DType::Uint32: f(Uint32Traits{}); return true;
    case DType::Uint64: f(Uint64Traits{}); return true;
    default: return false;
  }
}

Status max_forward_planned(int32_t dtype, const BroadcastPlan& plan, const void* const* inputs, void* out) {
  const bool ok = with_traits(dtype, false, [&](auto traits) { max_exec<decltype(traits)>(plan, inputs, out); });
  return ok ? Status::Ok : Status::BadDtype;
}

Status max_forward_flat(int32_t dtype, int n, const void* const* inputs, const unsigned char* scalar, void* out,
                        size_t count) {
  if (n < 1) return Status::BadArity;
  const bool ok = with_traits(dtype, false, [&](auto traits) {
    max_flat_exec<decltype(traits)>(n, inputs, scalar, out, count);
  });
  return ok ? Status::Ok : Status::BadDtype;
}

Status max_forward(int32_t dtype, int n, const void* const* inputs, const Shape* shapes, void* out,
                   const Shape& out_shape) {
  if (dtype_size(dtype) == 0) return Status::BadDtype;
  if (n < 1) return Status::BadArity;
  BroadcastPlan plan;
  const Status st = plan_broadcast(n, shapes, out_shape, &plan);
  if (st != Status::Ok) return st;
  if (uint64_t(plan.total) > SIZE_MAX / dtype_size(dtype)) return Status::TooLarge;
  return max_forward_planned(dtype, plan, inputs, out);
}

Status relu_forward(int32_t dtype, const void* x, void* out, size_t count) {
  const bool ok = with_traits(dtype, true, [&](auto traits) { relu_exec<decltype(traits)>(x, out, count); });
  return ok ? Status::Ok : Status::BadDtype;
}

}  // namespace onnx_ops
