// A binary elementwise op (ONNX Max, or any row of config/binary_config.cpp)
// over one call: the flat case (every input laid out as the output or a
// single value) as one run; otherwise a broadcast plan (plan/), walked by the
// first of: the row kernels against a clean operand, grouped short rows, the
// odometer over the inner runs. Op- and dtype-free: the kernels come from the
// op's config (BinaryKernels).
#include "elementwise.h"

#include <cstring>

#include "../config/binary_config.h"
#include "../dtypes/dtype.h"
#include "../kernels/copy.h"
#include "../plan/layout.h"
#include "../small_buf.h"
#include "gather.h"

namespace onnx_ops {
namespace {

// One inner run of the output: all inputs, each at its own base address.
// Three runs go through the fused three-input kernel, if the op has one.
// With more (or with single values among them) the run is cut into tiles
// (kFoldTileBytes), each folded in an accumulator, three operands at a time
// where they are runs, so memory is read once per input and written once,
// instead of one pass over the whole output per input. The fold is left to
// right, so for Max "the first NaN wins" holds across any number of inputs.
ONNX_OPS_KERNEL void fold(size_t len, int n, const void* const* base, const unsigned char* single, void* out_v,
                          const BinaryKernels& k) {
  unsigned char* out = static_cast<unsigned char*>(out_v);
  const size_t es = k.esize;
  if (n == 1) {  // one input: a copy (or a fill)
    if (!single[0]) {
      if (out != base[0]) copy_bytes(len * es, static_cast<const unsigned char*>(base[0]), out);
    } else {
      fill_bytes(len, es, static_cast<const unsigned char*>(base[0]), out);
    }
    return;
  }
  if (n == 2) {
    k.op2(len, base[0], single[0], base[1], single[1], out);
    return;
  }
  if (n == 3 && k.op3 && !single[0] && !single[1] && !single[2]) {
    k.op3(len, base[0], base[1], base[2], out);
    return;
  }
  const size_t tile = kFoldTileBytes / es;
  alignas(16) unsigned char acc[kFoldTileBytes];
  for (size_t start = 0; start < len; start += tile) {
    const size_t m = len - start < tile ? len - start : tile;
    auto at = [&](int i) -> const void* {
      return single[i] ? base[i] : static_cast<const unsigned char*>(base[i]) + start * es;
    };
    // The first step folds inputs 0, 1 (and 2); each later step folds the
    // accumulator with the next one or two inputs; the last writes to out.
    const void* prev = nullptr;
    int i = 0;
    while (i < n) {
      const void* x = prev ? prev : at(i++);
      const bool x_single = prev ? false : single[i - 1];
      const bool three = k.op3 && i + 1 < n && !x_single && !single[i] && !single[i + 1];
      const int next = three ? i + 2 : i + 1;
      void* dst = next == n ? static_cast<void*>(out + start * es) : static_cast<void*>(acc);
      if (three) k.op3(m, x, at(i), at(i + 1), dst);
      else k.op2(m, x, x_single, at(i), single[i], dst);
      i = next;
      prev = acc;
    }
  }
}

// Short inner runs ([R, 8] with [8], or with [R, 1]) would each cost a call
// and an odometer step, more than the run itself. So G rows at a time run as
// one run, each input by its layout: Dense is read in place; a Value stays
// one; a Row is tiled G times, once; a Gathered input has its G rows gathered
// into a tile of its own for each group. try_group_layouts writes each
// input's layout to layout[] and returns true when the plan's rows go so;
// false (layout[] partly written) when its rows are too long, its inputs too
// many, or a Gathered input's rows too long to gather.
bool try_group_layouts(const BroadcastPlan& plan, size_t esize, Layout* layout) {
  const size_t row_bytes = size_t(plan.inner()) * esize;
  if (plan.rank < 2 || plan.n_inputs > kGroupInputs || row_bytes * 4 > kGroupBytes) return false;
  for (int i = 0; i < plan.n_inputs; ++i)
    if ((layout[i] = layout_of(plan, i)) == Layout::Gathered && row_bytes > kGatherRowBytes) return false;
  return true;
}

ONNX_OPS_KERNEL void run_groups(const BroadcastPlan& plan, const Layout* layout, const void* const* inputs,
                                unsigned char* out, const BinaryKernels& k) {
  const int n = plan.n_inputs;
  const size_t len = size_t(plan.inner());
  const size_t row_bytes = len * k.esize;
  const size_t per_group = kGroupBytes / row_bytes;  // rows
  const size_t outer = size_t(plan.total) / len;
  const void* at[kGroupInputs];
  unsigned char single[kGroupInputs];
  alignas(16) unsigned char tile[kGroupInputs][kGroupBytes + 16];
  for (int i = 0; i < n; ++i) {
    const auto* x = static_cast<const unsigned char*>(inputs[i]);
    const bool tiled = layout[i] == Layout::Row || layout[i] == Layout::Gathered;
    single[i] = layout[i] == Layout::Value;
    at[i] = tiled ? tile[i] : x;
    if (layout[i] == Layout::Row) gather_rows(plan, i, x, k.esize, 0, per_group, tile[i]);  // once: all groups reuse it
  }
  for (size_t o = 0; o < outer; o += per_group) {
    const size_t rows = outer - o < per_group ? outer - o : per_group;
    for (int i = 0; i < n; ++i)
      if (layout[i] == Layout::Gathered)
        gather_rows(plan, i, static_cast<const unsigned char*>(inputs[i]), k.esize, int64_t(o), rows, tile[i]);
    fold(rows * len, n, at, single, out, k);
    out += rows * row_bytes;
    for (int i = 0; i < n; ++i)
      if (layout[i] == Layout::Dense) at[i] = static_cast<const unsigned char*>(at[i]) + rows * row_bytes;
  }
}

// Two inputs where the op's row kernels take their faster form because one
// of them, c, is clean (k.clean_all, checked first; the operands then
// commute: Max's pmax, float32 or float64, against no NaN and no +0, where
// only c's partner can hold a NaN), in one of three layouts:
// - c a Row, the other Dense ([R, C] with [C]): all rows against it in one
//   call (clean_rows); rows up to 1 KiB against a 4 KiB tile of the row
//   repeated, so that the kernel's inner loop runs long;
// - c a value per row, rows of 17-32 or of at least kPmaxRowBytes, the other
//   Dense or a Row (the outer product [R, 1] with [1, C]): a splat per row
//   (clean_rowsc), run by run along the last outer dim;
// - c rows reused within blocks ([A, B, C] with [A, 1, C]), of at least
//   kPmaxRowBytes: a clean_rows call per block.
// Other row lengths go grouped (a loop per row cost more there). Returns
// false, having written nothing, when no layout applies.
ONNX_OPS_KERNEL bool run_clean(const BroadcastPlan& plan, const void* const* inputs, unsigned char* out,
                              const BinaryKernels& k) {
  if (plan.n_inputs != 2 || !k.clean_all || plan.rank < 2) return false;
  const int last = plan.rank - 2;
  const size_t es = k.esize, len = size_t(plan.inner()), row_bytes = len * es;
  const size_t outer = size_t(plan.total) / len;
  ONNX_OPS_SCALAR_LOOP  // not unrolled: code size
  for (int i = 1; i >= 0; --i) {
    const auto* c = static_cast<const unsigned char*>(inputs[i]);
    const auto* x = static_cast<const unsigned char*>(inputs[1 - i]);
    const Layout mine = layout_of(plan, i), other = layout_of(plan, 1 - i);
    if (mine == Layout::Row && other == Layout::Dense && k.clean_all(len, c)) {
      size_t g = 1;
      alignas(16) unsigned char tile[kGroupBytes + 16];
      if (row_bytes * 4 <= kGroupBytes) {
        g = kGroupBytes / row_bytes;
        gather_rows(plan, i, c, es, 0, g, tile);
        c = tile;
      }
      const size_t whole = outer / g * g;
      k.clean_rows(Rows{outer / g, g * len, g * len, 0}, x, c, out);
      if (whole < outer) {
        k.clean_rows(Rows{outer - whole, len, len, 0}, x + whole * row_bytes, c, out + whole * row_bytes);
      }
      return true;
    }
    const bool per_row_value = plan.stride(i, last + 1) == 0;  // else c's rows are rows
    const bool long_enough = row_bytes >= kPmaxRowBytes || (per_row_value && row_bytes > 16 && row_bytes <= 32);
    // Against a value per row, the other may be a reused row too (an outer product).
    const bool other_fits = other == Layout::Dense || (per_row_value && other == Layout::Row);
    if (mine == Layout::Gathered && other_fits && long_enough && (per_row_value || plan.stride(i, last) == 0)) {
      int64_t count = 1;  // c's own elements
      for (int d = 0; d < plan.rank; ++d)
        if (plan.stride(i, d) != 0) count *= plan.dims[d];
      if (!k.clean_all(size_t(count), c)) continue;
      const size_t run = size_t(plan.dims[last]);
      const bool dense = other == Layout::Dense;
      for (size_t q = 0; q < outer; q += run) {
        const unsigned char* at = c + plan.row_offset(i, int64_t(q)) * int64_t(es);
        if (per_row_value) {
          k.clean_rowsc(Rows{run, len, dense ? len : 0, size_t(plan.stride(i, last))}, dense ? x + q * row_bytes : x,
                       at, out + q * row_bytes);
        } else {
          k.clean_rows(Rows{run, len, len, 0}, x + q * row_bytes, at, out + q * row_bytes);
        }
      }
      return true;
    }
  }
  return false;
}

// Walks the plan's outer dims (an odometer), folding each inner run.
void run_plan(const BroadcastPlan& plan, const void* const* inputs, void* out_v, const BinaryKernels& k) {
  const size_t esize = k.esize;
  if (plan.total == 0) return;
  if (run_clean(plan, inputs, static_cast<unsigned char*>(out_v), k)) return;
  Layout layout[kGroupInputs];
  if (try_group_layouts(plan, esize, layout)) {
    run_groups(plan, layout, inputs, static_cast<unsigned char*>(out_v), k);
    return;
  }
  const int n = plan.n_inputs;
  const int outer_rank = plan.rank - 1;
  const size_t len = size_t(plan.inner());
  SmallBuf<const void*, 16> base(static_cast<size_t>(n));
  SmallBuf<unsigned char, 16> single(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) base[size_t(i)] = inputs[i];
  for (int i = 0; i < n; ++i) single[size_t(i)] = plan.stride(i, plan.rank - 1) == 0;
  auto move = [&](int i, int64_t elements) {
    base[size_t(i)] = static_cast<const unsigned char*>(base[size_t(i)]) + elements * int64_t(esize);
  };
  unsigned char* out = static_cast<unsigned char*>(out_v);
  SmallBuf<int64_t, kMaxRank> idx(static_cast<size_t>(outer_rank));
  for (int d = 0; d < outer_rank; ++d) idx[size_t(d)] = 0;
  const int64_t outer = plan.total / int64_t(len);
  for (int64_t o = 0; o < outer; ++o) {
    fold(len, n, base.data(), single.data(), out, k);
    out += len * esize;
    // Step the odometer over the outer dims, moving every input's base.
    for (int d = outer_rank - 1; d >= 0; --d) {
      ++idx[size_t(d)];
      if (idx[size_t(d)] < plan.dims[size_t(d)]) {
        for (int i = 0; i < n; ++i) move(i, plan.stride(i, d));
        break;
      }
      for (int i = 0; i < n; ++i) move(i, -plan.stride(i, d) * (plan.dims[size_t(d)] - 1));
      idx[size_t(d)] = 0;
    }
  }
}

// A call that broadcasts otherwise than as the flat case: planned, then
// walked. Out of line, so that the flat case, which most calls take, stays a
// small function with a small stack frame.
ONNX_OPS_KERNEL Status planned(const Call& c, const BinaryKernels& k) {
  BroadcastPlan plan;
  const Status st = plan_broadcast(c.n, c.shapes, c.out_shape, &plan);
  if (st != Status::Ok) return st;
  if (uint64_t(plan.total) * k.esize > SIZE_MAX) return Status::TooLarge;
  run_plan(plan, c.inputs, c.out, k);
  return Status::Ok;
}

}  // namespace

// The kernels are looked up here, not in run(): their table lives in this
// function's stack frame, which Relu's calls then do not set up.
Status elementwise(const Call& c, int32_t op) {
  BinaryKernels k;
  if (!binary_kernels(op, c.dtype, &k)) return Status::BadOp;
  const size_t esize = k.esize;
  if (!k.op2) return Status::BadDtype;
  if (c.n < 1) return Status::BadArity;
  // The usual call, every input laid out as the output or a single value, and
  // one of the output's very shape: one run, no plan.
  bool flat = valid_shape(c.out_shape), full = false;
  SmallBuf<unsigned char, 16> single(static_cast<size_t>(c.n));
  for (int i = 0; flat && i < c.n; ++i) {
    const Shape& s = c.shapes[i];
    if (!valid_shape(s) || s.rank > c.out_shape.rank) flat = false;
    else {
      full = full || same_shape(s, c.out_shape);
      single[size_t(i)] = single_value(s);
      flat = single[size_t(i)] || same_layout(s, c.out_shape);
    }
  }
  if (flat && full) {
    const int64_t total = element_count(c.out_shape);
    if (total < 0 || uint64_t(total) * esize > SIZE_MAX) return Status::TooLarge;  // total < 2^53: no overflow
    if (total > 0) fold(size_t(total), c.n, c.inputs, single.data(), c.out, k);
    return Status::Ok;
  }
  return planned(c, k);
}

}  // namespace onnx_ops
