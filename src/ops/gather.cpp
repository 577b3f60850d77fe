#include "gather.h"

#include "../kernels/copy.h"

namespace onnx_ops {
namespace {

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

}  // namespace

// In runs along the last outer dim (its step is a constant; the odometer
// carries between runs).
ONNX_OPS_KERNEL ONNX_OPS_NO_BUILTINS void gather_rows(const BroadcastPlan& plan, int i, const unsigned char* x,
                                                     size_t es, int64_t q, size_t rows, unsigned char* tile) {
  const int last = plan.rank - 2;  // the outer dim that moves every row
  const int64_t dim = plan.dims[last], step = plan.stride(i, last) * int64_t(es);
  const bool value = plan.stride(i, last + 1) == 0;
  const size_t len = size_t(plan.inner()), row_bytes = len * es;
  int64_t pos = q % dim;
  for (size_t r = 0; r < rows;) {
    const unsigned char* at = x + plan.row_offset(i, q + int64_t(r)) * int64_t(es);
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

}  // namespace onnx_ops
