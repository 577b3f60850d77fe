#include "ops.h"

#include <cstring>
#include <type_traits>

#include "kernels.h"
#include "small_buf.h"

namespace onnx_ops {
namespace {

// float32 and float64: the dtypes with pmax, and the shortcuts built on it.
template <class Tr>
constexpr bool kIeee = std::is_same_v<Tr, Float32Traits> || std::is_same_v<Tr, Float64Traits>;
// Their traits for a second operand known to hold no NaN and no +0.
template <class Tr>
using CleanOf = IeeeCleanBTraits<typename Tr::T, std::conditional_t<sizeof(typename Tr::T) == 4, uint32_t, uint64_t>>;

// out = max(x, s) for a repeated s that is not a NaN first operand (so the
// order of the operands does not matter). A +0 makes it Relu; for the IEEE
// types any other non-NaN s makes pmax exact (IeeeCleanBTraits), one vector
// instruction instead of the checked fast path; for float16/bfloat16 a non-NaN
// s makes a seven-instruction select exact (Half16NonNanBTraits).
template <class Tr>
ONNX_OPS_KERNEL void max_with_value(size_t n, const typename Tr::T* x, const typename Tr::T* s, typename Tr::T* out) {
  using T = typename Tr::T;
  if constexpr (kIeee<Tr> || std::is_same_v<Tr, Float16Traits> || std::is_same_v<Tr, Bfloat16Traits>) {
    // The float types; +0 is all zero bits in each.
    const T plus_zero{};
    if (std::memcmp(s, &plus_zero, sizeof(T)) == 0) {
      relu_kernel<Tr>(n, x, out);
      return;
    }
  }
  if constexpr (kIeee<Tr>) {
    if (CleanOf<Tr>::clean(*s)) {
      max_row_values_kernel<CleanOf<Tr>>(1, n, x, 0, s, 0, out);  // one row of n
      return;
    }
  }
  if constexpr (std::is_same_v<Tr, Float16Traits> || std::is_same_v<Tr, Bfloat16Traits>) {
    if (!Tr::isnan1(*s)) {  // Half16NonNanBTraits: exact without checks
      max_kernel<Half16NonNanBTraits<Tr::kInf>, false, true>(n, x, s, out);
    } else {  // a NaN value (rare): it is the result wherever x is no NaN
      ONNX_OPS_SCALAR_LOOP
      for (size_t i = 0; i < n; ++i) out[i] = Tr::isnan1(x[i]) ? x[i] : *s;
    }
  } else {
    max_kernel<Tr, false, true>(n, x, s, out);
  }
}

// out = max(a, b) over one run; each operand contiguous or one repeated
// value. Behind a plain function pointer (MaxRunFn) so that everything around
// it (tiling, the odometer, descriptors) is compiled once, not once per dtype.
template <class Tr>
void max_run(size_t n, const void* a_v, bool a_scalar, const void* b_v, bool b_scalar, void* out_v) {
  using T = typename Tr::T;
  const T* a = static_cast<const T*>(a_v);
  const T* b = static_cast<const T*>(b_v);
  T* out = static_cast<T*>(out_v);
  if (a_scalar) {
    if (b_scalar) {  // one value for the whole run
      const T v = Tr::max1(*a, *b);
      fill_kernel<T>(n, &v, out);
    } else if (Tr::isnan1(*a)) {  // a NaN first operand wins everywhere
      fill_kernel<T>(n, a, out);
    } else {
      // Otherwise max is symmetric bit for bit (only two NaNs tell the order
      // apart), so the scalar may go second: one kernel variant fewer.
      max_with_value<Tr>(n, b, a, out);
    }
  } else {
    if (b_scalar) max_with_value<Tr>(n, a, b, out);
    else max_kernel<Tr, false, false>(n, a, b, out);
  }
}

using MaxRunFn = void (*)(size_t n, const void* a, bool a_scalar, const void* b, bool b_scalar, void* out);

// out = max(a, b, c) over one run of three contiguous operands, in one pass.
template <class Tr>
void max3_run(size_t n, const void* a, const void* b, const void* c, void* out) {
  using T = typename Tr::T;
  max3_kernel<Tr>(n, static_cast<const T*>(a), static_cast<const T*>(b), static_cast<const T*>(c),
                  static_cast<T*>(out));
}
using Max3RunFn = void (*)(size_t n, const void* a, const void* b, const void* c, void* out);

// For a row that every output row reuses (Max [R, C] with [C]): whether it
// is clean (no NaN, no +0: IeeeCleanBTraits), and out = max(x, clean row)
// over all rows, where pmax alone is exact (max_rows_kernel).
template <class Tr>
bool clean_row(size_t n, const void* row) {
  return CleanOf<Tr>::clean_all(n, static_cast<const typename Tr::T*>(row));
}
template <class Tr>
void max_clean_rows_run(size_t rows, size_t len, const void* x, const void* row, void* out) {
  using T = typename Tr::T;
  max_rows_kernel<CleanOf<Tr>>(rows, len, static_cast<const T*>(x), static_cast<const T*>(row), static_cast<T*>(out));
}
// For a value per row that is clean: out row r = max(x row r, v[r * vstep]), x's
// rows every xstep elements (max_row_values_kernel), by pmax alone.
template <class Tr>
void max_clean_values_run(size_t rows, size_t len, const void* x, size_t xstep, const void* v, size_t vstep,
                          void* out) {
  using T = typename Tr::T;
#ifdef ONNX_OPS_VECTOR
  if (len * sizeof(T) <= 32) {
    max_short_row_values_kernel<CleanOf<Tr>>(rows, len, static_cast<const T*>(x), xstep, static_cast<const T*>(v),
                                             vstep, static_cast<T*>(out));
    return;
  }
#endif
  max_row_values_kernel<CleanOf<Tr>>(rows, len, static_cast<const T*>(x), xstep, static_cast<const T*>(v), vstep,
                                     static_cast<T*>(out));
}

// Element size and run functions of a dtype.
struct MaxOps {
  size_t esize;
  MaxRunFn run;
  Max3RunFn run3;                                                // null: no fused kernel
  bool (*clean_row)(size_t n, const void* row);                 // null: no clean-row kernel
  void (*run_clean_rows)(size_t rows, size_t len, const void* x, const void* row, void* out);
  void (*run_clean_values)(size_t rows, size_t len, const void* x, size_t xstep, const void* v, size_t vstep,
                           void* out);
};

// One inner run of the output: all inputs, each at its own base address.
// Three contiguous inputs go through the fused three-input kernel. With more
// (or with repeated single values among them) the run is cut into cache-sized
// tiles, each folded in a small accumulator, three operands at a time where
// they are contiguous, so memory is read once per input and written once,
// instead of one pass over the whole output per input. The fold is left to
// right, so "the first NaN wins" holds across any number of inputs.
ONNX_OPS_KERNEL void max_inner(size_t len, int n, const void* const* base, const unsigned char* scalar, void* out_v,
                                MaxOps ops) {
  unsigned char* out = static_cast<unsigned char*>(out_v);
  const size_t es = ops.esize;
  if (n == 1) {  // Max of one input: a copy (or a fill)
    if (!scalar[0]) {
      if (out != base[0]) copy_bytes(len * es, static_cast<const unsigned char*>(base[0]), out);
    } else {
      fill_bytes(len, es, static_cast<const unsigned char*>(base[0]), out);
    }
    return;
  }
  if (n == 2) {
    ops.run(len, base[0], scalar[0], base[1], scalar[1], out);
    return;
  }
  if (n == 3 && ops.run3 && !scalar[0] && !scalar[1] && !scalar[2]) {
    ops.run3(len, base[0], base[1], base[2], out);
    return;
  }
  constexpr size_t kTileBytes = 8192;
  const size_t tile = kTileBytes / es;
  alignas(16) unsigned char acc[kTileBytes];
  for (size_t start = 0; start < len; start += tile) {
    const size_t m = len - start < tile ? len - start : tile;
    auto at = [&](int i) -> const void* {
      return scalar[i] ? base[i] : static_cast<const unsigned char*>(base[i]) + start * es;
    };
    // The first step folds inputs 0, 1 (and 2); each later step folds the
    // accumulator with the next one or two inputs; the last writes to out.
    const void* prev = nullptr;
    int i = 0;
    while (i < n) {
      const void* x = prev ? prev : at(i++);
      const bool x_scalar = prev ? false : scalar[i - 1];
      const bool three = ops.run3 && i + 1 < n && !x_scalar && !scalar[i] && !scalar[i + 1];
      const int next = three ? i + 2 : i + 1;
      void* dst = next == n ? static_cast<void*>(out + start * es) : static_cast<void*>(acc);
      if (three) ops.run3(m, x, at(i), at(i + 1), dst);
      else ops.run(m, x, x_scalar, at(i), scalar[i], dst);
      i = next;
      prev = acc;
    }
  }
}

// Short inner runs ([R, 8] with [8], or with [R, 1]) would each cost a call
// and an odometer step, more than the run itself. So G rows at a time run as
// one contiguous run, each input by its kind: laid out as the output (its
// rows follow each other), it is read in place; a single value stays one; a
// row that every output row reuses is tiled G times, once; any other input
// (a value per row, [R, 1], or rows reused in part, [A, 1, C] against
// [A, B, C]) has its G rows gathered into a tile of its own for each group
// (gather_rows). Up to eight inputs (a tile each, 33 KB of stack); more go
// row by row.
constexpr size_t kGatherBytes = 4096;  // per tile: G = kGatherBytes / row bytes >= 4 rows
constexpr int kGatherInputs = 8;

// Input i's kind: 0 laid out as the output, 1 a reused row, 2 a single value, 3 gathered.
ONNX_OPS_KERNEL int group_kind(const BroadcastPlan& plan, int i) {
  const int outer_rank = plan.rank - 1;
  const bool repeats = plan.stride(i, outer_rank) == 0;  // one value along the run
  bool dense = !repeats, reused = true;
  int64_t out_stride = plan.inner();  // the output's element step along dim k
  for (int k = outer_rank - 1; k >= 0; --k) {
    dense = dense && plan.stride(i, k) == out_stride;
    reused = reused && plan.stride(i, k) == 0;
    out_stride *= plan.dims[k];
  }
  return dense ? 0 : !reused ? 3 : repeats ? 2 : 1;
}

// Whether max_exec_grouped takes the plan; if so, each input's kind in kind[].
// Gathered inputs only for rows up to 512 bytes: longer rows run faster with
// a call per row than through the gather's copy.
bool groups(const BroadcastPlan& plan, size_t esize, int* kind) {
  const size_t row_bytes = size_t(plan.inner()) * esize;
  if (plan.rank < 2 || plan.n_inputs > kGatherInputs || row_bytes * 4 > kGatherBytes) return false;
  for (int i = 0; i < plan.n_inputs; ++i)
    if ((kind[i] = group_kind(plan, i)) == 3 && row_bytes * 8 > kGatherBytes) return false;
  return true;
}

// Where output row q's part of input i starts, in elements from its base.
inline int64_t row_offset(const BroadcastPlan& plan, int i, int64_t q) {
  int64_t off = 0;
  for (int k = plan.rank - 2; k >= 0; --k) {
    off += q % plan.dims[k] * plan.stride(i, k);
    q /= plan.dims[k];
  }
  return off;
}

#ifdef ONNX_OPS_VECTOR
// The first 16 bytes of n rows of row_bytes in tile, row after row, each the
// vector next() gives for it: all of a row up to 16 bytes, whose store runs
// up to 15 bytes past it, into the next row (written next) or the tile's
// slack. Four rows an iteration: with a loop per row, the loop's own
// instructions (V8's interrupt check among them) cost more than the store.
template <class Next>
inline void store_heads(size_t n, size_t row_bytes, unsigned char* tile, Next next) {
  ONNX_OPS_VECTOR_LOOP
  for (; n >= 4; n -= 4, tile += 4 * row_bytes) {
    const v128_t v0 = next();
    const v128_t v1 = next();
    const v128_t v2 = next();
    const v128_t v3 = next();
    wasm_v128_store(tile, v0);
    wasm_v128_store(tile + row_bytes, v1);
    wasm_v128_store(tile + 2 * row_bytes, v2);
    wasm_v128_store(tile + 3 * row_bytes, v3);
  }
  ONNX_OPS_VECTOR_LOOP
  for (; n > 0; --n, tile += row_bytes) wasm_v128_store(tile, next());
}

// n rows of a value per row into tile (the first 16 bytes of each; see
// widen_rows): the value of width E at `at`, then at every `step` bytes.
template <size_t E>
void fill_heads(size_t n, const unsigned char* at, int64_t step, size_t row_bytes, unsigned char* tile) {
  store_heads(n, row_bytes, tile, [&] {
    const v128_t v = splat_bytes(E, at);  // E is a constant here: one splat load
    at += step;
    return v;
  });
}

// The rest of n rows of more than 16 bytes, each one value repeated, from
// their first 16 bytes: blocks at every 16 bytes, the last ending at the
// row's end (the pattern repeats every element, so it fits there too), so
// nothing is written past a row.
ONNX_OPS_NO_BUILTINS inline void widen_rows(size_t n, size_t row_bytes, unsigned char* tile) {
  const size_t end = row_bytes - 16;
  for (; n > 0; --n, tile += row_bytes) {
    const v128_t v = wasm_v128_load(tile);
    ONNX_OPS_VECTOR_LOOP
    for (size_t b = 16; b < end; b += 16) wasm_v128_store(tile + b, v);
    wasm_v128_store(tile + end, v);
  }
}
#endif

// Rows [q, q + rows) of a gathered input into tile, row after row, in runs
// along the last outer dim (its step is a constant; the odometer carries
// between runs).
ONNX_OPS_KERNEL ONNX_OPS_NO_BUILTINS void gather_rows(const BroadcastPlan& plan, int i, const unsigned char* x,
                                                     size_t es, int64_t q, size_t rows, unsigned char* tile) {
  const int last = plan.rank - 2;  // the outer dim that moves every row
  const int64_t dim = plan.dims[last], step = plan.stride(i, last) * int64_t(es);
  const bool value = plan.stride(i, last + 1) == 0;
  const size_t len = size_t(plan.inner()), row_bytes = len * es;
  int64_t pos = q % dim;
  for (size_t r = 0; r < rows;) {
    const unsigned char* at = x + row_offset(plan, i, q + int64_t(r)) * int64_t(es);
    const size_t run = rows - r < size_t(dim - pos) ? rows - r : size_t(dim - pos);
    if (!value) {
      if (step == int64_t(row_bytes)) {  // the rows follow each other: one copy
        copy_bytes(run * row_bytes, at, tile);
      } else if (step == 0) {  // one row repeated ([A, 1, C]): copied once, then from the tile
        copy_bytes(row_bytes, at, tile);
#ifdef ONNX_OPS_VECTOR
        if (row_bytes <= 16) {  // one vector holds the row
          const v128_t v = wasm_v128_load(tile);
          store_heads(run - 1, row_bytes, tile + row_bytes, [&] { return v; });
        } else {  // 16-byte blocks that may run past a row's end, written in order (as in store_heads)
          for (size_t k = 1; k < run; ++k) {
            unsigned char* dst = tile + k * row_bytes;
            ONNX_OPS_VECTOR_LOOP
            for (size_t b = 0; b < row_bytes; b += 16) wasm_v128_store(dst + b, wasm_v128_load(tile + b));
          }
        }
#else
        for (size_t k = 1; k < run; ++k) copy_bytes(row_bytes, tile, tile + k * row_bytes);
#endif
      } else {
        for (size_t k = 0; k < run; ++k, at += step) copy_bytes(row_bytes, at, tile + k * row_bytes);
      }
      tile += run * row_bytes;
    } else {
#ifdef ONNX_OPS_VECTOR
      if (es == 1) fill_heads<1>(run, at, step, row_bytes, tile);
      else if (es == 2) fill_heads<2>(run, at, step, row_bytes, tile);
      else if (es == 4) fill_heads<4>(run, at, step, row_bytes, tile);
      else fill_heads<8>(run, at, step, row_bytes, tile);
      if (row_bytes > 16) widen_rows(run, row_bytes, tile);
      tile += run * row_bytes;
#else
      for (size_t k = 0; k < run; ++k, at += step, tile += row_bytes) fill_bytes(len, es, at, tile);
#endif
    }
    r += run;
    pos = 0;
  }
}

ONNX_OPS_KERNEL void max_exec_grouped(const BroadcastPlan& plan, const int* kind, const void* const* inputs,
                                      unsigned char* out, MaxOps ops) {
  const int n = plan.n_inputs;
  const size_t len = size_t(plan.inner());
  const size_t row_bytes = len * ops.esize;
  const size_t group = kGatherBytes / row_bytes;
  const size_t outer = size_t(plan.total) / len;
  const void* at[kGatherInputs];
  unsigned char single[kGatherInputs];
  alignas(16) unsigned char tile[kGatherInputs][kGatherBytes + 16];
  for (int i = 0; i < n; ++i) {
    const auto* x = static_cast<const unsigned char*>(inputs[i]);
    single[i] = kind[i] == 2;
    at[i] = kind[i] == 1 || kind[i] == 3 ? tile[i] : x;
    if (kind[i] == 1) gather_rows(plan, i, x, ops.esize, 0, group, tile[i]);  // once: every group reuses it
  }
  for (size_t o = 0; o < outer; o += group) {
    const size_t rows = outer - o < group ? outer - o : group;
    for (int i = 0; i < n; ++i)
      if (kind[i] == 3)
        gather_rows(plan, i, static_cast<const unsigned char*>(inputs[i]), ops.esize, int64_t(o), rows, tile[i]);
    max_inner(rows * len, n, at, single, out, ops);
    out += rows * row_bytes;
    for (int i = 0; i < n; ++i)
      if (kind[i] == 0) at[i] = static_cast<const unsigned char*>(at[i]) + rows * row_bytes;
  }
}

// Max of two inputs, float32 or float64, where pmax alone is exact because
// one of them, c, holds no NaN and no +0 (checked first; the operands then
// commute, as only c's partner can hold a NaN), in one of three layouts:
// - c a row reused by every output row, the other laid out as the output
//   ([R, C] with [C]): all rows against it in one call (max_rows_kernel);
//   rows up to 1 KiB against a 4 KiB tile of the row repeated, so that the
//   kernel's inner loop runs long;
// - c a value per row, rows of 17-32 or of at least 64 bytes, the other laid
//   out as the output or a reused row (the outer product [R, 1] with
//   [1, C]): a splat per row (max_clean_values_run), run by run along the
//   last outer dim;
// - c rows reused within blocks ([A, B, C] with [A, 1, C]), of at least 64
//   bytes: a max_rows_kernel call per block.
// Other row lengths go grouped (a loop per row cost more there). Returns
// false, having written nothing, when no layout applies.
ONNX_OPS_KERNEL bool max2_clean(const BroadcastPlan& plan, const void* const* inputs, unsigned char* out, const MaxOps& ops) {
  if (plan.n_inputs != 2 || !ops.clean_row || plan.rank < 2) return false;
  const int last = plan.rank - 2;
  const size_t es = ops.esize, len = size_t(plan.inner()), row_bytes = len * es;
  const size_t outer = size_t(plan.total) / len;
  ONNX_OPS_SCALAR_LOOP  // not unrolled: code size
  for (int i = 1; i >= 0; --i) {
    const auto* c = static_cast<const unsigned char*>(inputs[i]);
    const auto* x = static_cast<const unsigned char*>(inputs[1 - i]);
    const int kind = group_kind(plan, i), other = group_kind(plan, 1 - i);
    if (kind == 1 && other == 0 && ops.clean_row(len, c)) {
      size_t g = 1;
      alignas(16) unsigned char tile[kGatherBytes + 16];
      if (row_bytes * 4 <= kGatherBytes) {
        g = kGatherBytes / row_bytes;
        gather_rows(plan, i, c, es, 0, g, tile);
        c = tile;
      }
      const size_t whole = outer / g * g;
      ops.run_clean_rows(outer / g, g * len, x, c, out);
      if (whole < outer) ops.run_clean_rows(outer - whole, len, x + whole * row_bytes, c, out + whole * row_bytes);
      return true;
    }
    const bool values = plan.stride(i, last + 1) == 0;  // else c's rows are rows
    const bool long_enough = row_bytes >= 64 || (values && row_bytes > 16 && row_bytes <= 32);
    if (kind == 3 && other <= int(values) && long_enough && (values || plan.stride(i, last) == 0)) {
      int64_t count = 1;  // c's own elements
      for (int k = 0; k < plan.rank; ++k)
        if (plan.stride(i, k) != 0) count *= plan.dims[k];
      if (!ops.clean_row(size_t(count), c)) continue;
      const size_t run = size_t(plan.dims[last]);
      for (size_t q = 0; q < outer; q += run) {
        const unsigned char* at = c + row_offset(plan, i, int64_t(q)) * int64_t(es);
        if (values) {
          ops.run_clean_values(run, len, other == 0 ? x + q * row_bytes : x, other == 0 ? len : 0, at,
                               size_t(plan.stride(i, last)), out + q * row_bytes);
        } else {
          ops.run_clean_rows(run, len, x + q * row_bytes, at, out + q * row_bytes);
        }
      }
      return true;
    }
  }
  return false;
}

// Walks the plan's outer dims (an odometer), running `inner` on each inner run.
void max_exec(const BroadcastPlan& plan, const void* const* inputs, void* out_v, MaxOps ops) {
  const size_t esize = ops.esize;
  if (plan.total == 0) return;
  if (max2_clean(plan, inputs, static_cast<unsigned char*>(out_v), ops)) return;
  int kind[kGatherInputs];
  if (groups(plan, esize, kind)) {
    max_exec_grouped(plan, kind, inputs, static_cast<unsigned char*>(out_v), ops);
    return;
  }
  const int n = plan.n_inputs;
  const int outer_rank = plan.rank - 1;
  const size_t len = size_t(plan.inner());
  SmallBuf<const void*, 16> base(static_cast<size_t>(n));
  SmallBuf<unsigned char, 16> scalar(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) base[size_t(i)] = inputs[i];
  for (int i = 0; i < n; ++i) scalar[size_t(i)] = plan.stride(i, plan.rank - 1) == 0;
  auto move = [&](int i, int64_t elements) {
    base[size_t(i)] = static_cast<const unsigned char*>(base[size_t(i)]) + elements * int64_t(esize);
  };
  unsigned char* out = static_cast<unsigned char*>(out_v);
  SmallBuf<int64_t, kMaxRank> idx(static_cast<size_t>(outer_rank));
  for (int k = 0; k < outer_rank; ++k) idx[size_t(k)] = 0;
  const int64_t outer = plan.total / int64_t(len);
  for (int64_t o = 0; o < outer; ++o) {
    max_inner(len, n, base.data(), scalar.data(), out, ops);
    out += len * esize;
    // Step the odometer over the outer dims, moving every input's base.
    for (int k = outer_rank - 1; k >= 0; --k) {
      ++idx[size_t(k)];
      if (idx[size_t(k)] < plan.dims[size_t(k)]) {
        for (int i = 0; i < n; ++i) move(i, plan.stride(i, k));
        break;
      }
      for (int i = 0; i < n; ++i) move(i, -plan.stride(i, k) * (plan.dims[size_t(k)] - 1));
      idx[size_t(k)] = 0;
    }
  }
}

template <class Tr>
void relu_exec(const void* x, void* out, size_t count) {
  using T = typename Tr::T;
  relu_kernel<Tr>(count, static_cast<const T*>(x), static_cast<T*>(out));
}

}  // namespace

// Calls f(Traits{}) with the traits of `dtype`; false for a dtype with no
// kernel. kSignedOnly: Relu, which has no unsigned dtypes (nor their code).
template <bool kSignedOnly, class F>
static bool with_traits(int32_t dtype, F&& f) {
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
  if constexpr (!kSignedOnly) {
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

// The Max run function of a dtype (run = nullptr when it has none).
static MaxOps max_ops_for(int32_t dtype) {
  MaxOps ops{dtype_size(dtype), nullptr, nullptr, nullptr, nullptr, nullptr};
  with_traits<false>(dtype, [&](auto traits) {
    using Tr = decltype(traits);
    ops.run = &max_run<Tr>;
    // float32/float64 only, for code size (the package's budget): the fused
    // three-input kernel (elsewhere the tiled fold moves the same bytes, with
    // more instructions), and the clean-row shortcut.
    if constexpr (kIeee<Tr>) {
      ops.run3 = &max3_run<Tr>;
      ops.clean_row = &clean_row<Tr>;
      ops.run_clean_rows = &max_clean_rows_run<Tr>;
      ops.run_clean_values = &max_clean_values_run<Tr>;
    }
  });
  return ops;
}

Status max_forward_planned(int32_t dtype, const BroadcastPlan& plan, const void* const* inputs, void* out) {
  const MaxOps ops = max_ops_for(dtype);
  if (!ops.run) return Status::BadDtype;
  max_exec(plan, inputs, out, ops);
  return Status::Ok;
}

Status max_forward_flat(int32_t dtype, int n, const void* const* inputs, const unsigned char* scalar, void* out,
                        size_t count) {
  if (n < 1) return Status::BadArity;
  const MaxOps ops = max_ops_for(dtype);
  if (!ops.run) return Status::BadDtype;
  max_inner(count, n, inputs, scalar, out, ops);
  return Status::Ok;
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

// Whether shape s lays its elements out as out does: the same dims once
// leading 1s are dropped, and no more of them.
static bool same_layout(const Shape& s, const Shape& out) {
  if (s.rank > out.rank) return false;
  int i = 0, j = 0;
  while (i < s.rank && s.dims[i] == 1) ++i;
  while (j < out.rank && out.dims[j] == 1) ++j;
  if (s.rank - i != out.rank - j) return false;
  for (; i < s.rank; ++i, ++j)
    if (s.dims[i] != out.dims[j]) return false;
  return true;
}

static bool equal_shapes(const Shape& a, const Shape& b) {
  if (a.rank != b.rank) return false;
  for (int k = 0; k < a.rank; ++k)
    if (a.dims[k] != b.dims[k]) return false;
  return true;
}

Status max(const Call& c) {
  const size_t esize = dtype_size(c.dtype);
  if (esize == 0) return Status::BadDtype;
  if (c.n < 1) return Status::BadArity;
  // The usual call, every input laid out as the output or a single value, and
  // one of the output's very shape: one run, no plan.
  bool flat = valid_shape(c.out_shape), full = false;
  SmallBuf<unsigned char, 16> scalar(static_cast<size_t>(c.n));
  for (int i = 0; flat && i < c.n; ++i) {
    const Shape& s = c.shapes[i];
    if (!valid_shape(s) || s.rank > c.out_shape.rank) return max_forward(c.dtype, c.n, c.inputs, c.shapes, c.out, c.out_shape);
    full = full || equal_shapes(s, c.out_shape);
    scalar[size_t(i)] = element_count(s) == 1;
    flat = scalar[size_t(i)] || same_layout(s, c.out_shape);
  }
  if (!flat || !full) return max_forward(c.dtype, c.n, c.inputs, c.shapes, c.out, c.out_shape);
  const int64_t total = element_count(c.out_shape);
  if (total < 0 || uint64_t(total) > SIZE_MAX / esize) return Status::TooLarge;
  if (total == 0) return Status::Ok;
  return max_forward_flat(c.dtype, c.n, c.inputs, scalar.data(), c.out, size_t(total));
}

Status relu(const Call& c) {
  if (c.n != 1) return Status::BadArity;
  if (!valid_shape(c.shapes[0])) return Status::BadShape;
  if (!equal_shapes(c.shapes[0], c.out_shape)) return Status::OutShapeMismatch;
  const int64_t count = element_count(c.out_shape);
  if (count < 0 || uint64_t(count) > SIZE_MAX / 8) return Status::TooLarge;
  return relu_forward(c.dtype, c.inputs[0], c.out, size_t(count));
}

Status relu_forward(int32_t dtype, const void* x, void* out, size_t count) {
  const bool ok = with_traits<true>(dtype, [&](auto traits) { relu_exec<decltype(traits)>(x, out, count); });
  return ok ? Status::Ok : Status::BadDtype;
}

}  // namespace onnx_ops
