// The row kernels of a binary op, for [R, C] with a reused [C] row or a value
// per row ([R, 1]), all rows in one call (a call per row shows in the time
// even for rows of 1024 floats). Max runs them with PmaxClean (pmax_clean.h)
// against operands checked clean; MaxOp gives the exact result on any.
#pragma once

#include <cstddef>

#include "kernel.h"

namespace onnx_ops {

// vbinary_rows: out row r = op(x row r, y), elementwise: x's rows follow each
// other and every one is against the same row y (Rows: kernel.h, with
// x_step = len and y_step = 0, the one walk its callers need; honouring
// other steps cost it speed per row). out may be exactly x; partial overlap
// is not allowed.
template <class Tr, template <class> class Op>
ONNX_OPS_KERNEL void vbinary_rows(const Rows& rows, const typename Tr::T* x, const typename Tr::T* y,
                               typename Tr::T* out) {
  using T = typename Tr::T;
  assert(rows.x_step == rows.len && rows.y_step == 0);
  assert(rows.count * rows.len == 0 || (x && y && out));
  assert(same_or_apart(x, out, rows.count * rows.len));
  assert(same_or_apart(y, rows.len * sizeof(T), out, rows.count * rows.len * sizeof(T)));
  const size_t len = rows.len;
  for (size_t k = rows.count; k > 0; --k) {
    const T* r = y;
    size_t i = 0;
#ifdef ONNX_OPS_VECTOR
    constexpr size_t kLanes = 16 / sizeof(T);
    auto one = [&](size_t j) { return Op<Tr>::vop(wasm_v128_load(x + j * kLanes), wasm_v128_load(r + j * kLanes)); };
    ONNX_OPS_VECTOR_LOOP
    for (; i + 4 * kLanes <= len; i += 4 * kLanes, x += 4 * kLanes, r += 4 * kLanes, out += 4 * kLanes) {
      store4(out, one);
    }
    ONNX_OPS_VECTOR_LOOP
    for (; i + kLanes <= len; i += kLanes, x += kLanes, r += kLanes, out += kLanes) wasm_v128_store(out, one(0));
#endif
    ONNX_OPS_SCALAR_LOOP
    for (; i < len; ++i) *out++ = Op<Tr>::op1(*x++, *r++);
  }
}

// vbinaryc_rows: out row r = op(x row r, v[r * y_step]), for an op that
// leaves its own result alone (op(op(x, v), v) = op(x, v): a selection, as
// Max). A row's last part vector is one that ends at the row's end,
// overlapping the one before it: it may read what that one wrote, in place. Rows of 17-32 bytes: the row's first and last 16 bytes,
// both read before either is written, no loop per row (with one, rows of two
// vectors ran slower than the grouped path). x's rows at any step (x_step 0:
// one row reused); out's rows follow each other; out may be exactly x when
// x's rows follow each other too (or there is one row); no other overlap is
// allowed.
template <class Tr, template <class> class Op>
ONNX_OPS_KERNEL void vbinaryc_rows(const Rows& rows, const typename Tr::T* x, const typename Tr::T* v,
                                typename Tr::T* out) {
  using T = typename Tr::T;
  const size_t len = rows.len, count = rows.count, x_step = rows.x_step, v_step = rows.y_step;
  assert(count * len == 0 || (x && v && out));
  assert(x != out || count <= 1 || x_step == len);
  assert(count == 0 || same_or_apart(x, ((count - 1) * x_step + len) * sizeof(T), out, count * len * sizeof(T)));
#ifdef ONNX_OPS_VECTOR
  constexpr size_t kLanes = 16 / sizeof(T);
  if (len > kLanes && len <= 2 * kLanes) {
    const size_t tail = len - kLanes;
    ONNX_OPS_VECTOR_LOOP
    for (size_t k = count; k > 0; --k, x += x_step, v += v_step, out += len) {
      const v128_t s = splat_value(*v);
      const v128_t a = Op<Tr>::vop(wasm_v128_load(x), s), b = Op<Tr>::vop(wasm_v128_load(x + tail), s);
      wasm_v128_store(out, a);
      wasm_v128_store(out + tail, b);
    }
    return;
  }
#endif
  for (size_t k = count; k > 0; --k, x += x_step, v += v_step) {
    const T* px = x;
    size_t n = len;
#ifdef ONNX_OPS_VECTOR
    if (n >= kLanes) {
      const v128_t s = splat_value(*v);
      ONNX_OPS_TWO_BLOCK_LOOP  // one instruction per vector
      for (; n >= 4 * kLanes; n -= 4 * kLanes, px += 4 * kLanes, out += 4 * kLanes) {
        store4(out, [&](size_t j) { return Op<Tr>::vop(wasm_v128_load(px + j * kLanes), s); });
      }
      ONNX_OPS_VECTOR_LOOP
      for (; n >= kLanes; n -= kLanes, px += kLanes, out += kLanes) wasm_v128_store(out, Op<Tr>::vop(wasm_v128_load(px), s));
      if (n > 0) {  // the last vector, ending at the row's end
        px += n;
        out += n;
        wasm_v128_store(out - kLanes, Op<Tr>::vop(wasm_v128_load(px - kLanes), s));
      }
      continue;
    }
#endif
    ONNX_OPS_SCALAR_LOOP
    for (; n > 0; --n) *out++ = Op<Tr>::op1(*px++, *v);
  }
}

}  // namespace onnx_ops
