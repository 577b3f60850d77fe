// The checked kernels of a binary op (vbinary_checked, vbinary3_checked):
// the op policy's fast formula (its Fast: for Max, max_fast.h), checked a
// chunk at a time, with the exact vop redoing only the chunks it flags.
// Vector builds only: without the vector path there is nothing to check (the
// configs pick vbinary, vbinary3 then).
#pragma once

#include <cstddef>

#include "kernel.h"

namespace onnx_ops {

#ifdef ONNX_OPS_VECTOR
// An op of two runs, or of three (kThree), by its policy's Fast formula: the
// fast results go straight to the output, chunk by chunk (tuning.h), while
// each vector's flags are merged into one running Flags; at the end of a
// chunk, one test: a suspicious chunk is recomputed exactly (the policy's
// vop), out of line. No branch per block and no result held back.
// In place, the operand that out overwrites goes first in the fast chain
// where Fast::kReorder says the recompute stays exact so; otherwise a chunk
// goes to a stack buffer first and is copied out once it passed.
template <class Tr, template <class> class Op, bool kThree>
struct CheckedBinary {
  using T = typename Tr::T;
  using Fx = typename Op<Tr>::Fast;
  static constexpr size_t kLanes = 16 / sizeof(T);
  static constexpr size_t kChunk = kCheckedChunkBytes / sizeof(T);
  static constexpr size_t kTinyChunk = kCheckedTinyChunkBytes / sizeof(T);
  static constexpr size_t kCalm = kCheckedCalmBytes / sizeof(T);
  static constexpr bool kReorder = Fx::kReorder;

  // out[0..m) exactly; m is a multiple of kLanes.
  ONNX_OPS_COLD static void exact(size_t m, const T* a, const T* b, const T* c, T* out) {
    for (; m > 0; m -= kLanes, a += kLanes, b += kLanes, c += kThree ? kLanes : 0, out += kLanes) {
      v128_t r = Op<Tr>::vop(wasm_v128_load(a), wasm_v128_load(b));
      if constexpr (kThree) r = Op<Tr>::vop(r, wasm_v128_load(c));
      wasm_v128_store(out, r);
    }
  }

  ONNX_OPS_NO_BUILTINS static void run(size_t n, const T* a, const T* b, const T* c, T* out) {
    auto fast = [&](const T* pa, const T* pb, const T* pc, size_t k, typename Fx::Flags& f) {
      const v128_t va = wasm_v128_load(pa + k * kLanes);
      const v128_t vb = wasm_v128_load(pb + k * kLanes);
      if constexpr (kThree) return Fx::vop3_fast(va, vb, wasm_v128_load(pc + k * kLanes), f);
      else return Fx::vop_fast(va, vb, f);
    };
    // The fast chain reads (a, b, c) as (x, y, z): b or c goes first when out is it (see above).
    const bool buffered = !kReorder && (out == a || out == b || (kThree && out == c));
    alignas(16) T buf[kReorder ? 1 : kChunk];
    const T *x = a, *y = b, *z = c;
    if (kReorder && out == b) x = b, y = a;
    else if (kReorder && kThree && out == c) x = c, y = a, z = b;
    size_t passed = kCalm;  // elements that passed since the last redo (smaller chunks until kCalm)
    size_t done = 0;
    while (n - done >= kLanes) {
      const size_t chunk = kTinyChunk << 2 * ((passed >= kChunk) + (passed >= kCalm));  // 256 B, 1 KiB or 4 KiB
      const size_t m = n - done < chunk ? (n - done) / kLanes * kLanes : chunk;
      const T* px = x + done;
      const T* py = y + done;
      const T* pz = kThree ? z + done : nullptr;
      T* po = buffered ? buf : out + done;
      typename Fx::Flags s{};
      size_t left = m;
      ONNX_OPS_VECTOR_LOOP  // not unrolled: more vectors and flags would spill
      for (; left >= 4 * kLanes; left -= 4 * kLanes) {
        typename Fx::Flags f0, f1, f2, f3;
        wasm_v128_store(po, fast(px, py, pz, 0, f0));
        wasm_v128_store(po + kLanes, fast(px, py, pz, 1, f1));
        wasm_v128_store(po + 2 * kLanes, fast(px, py, pz, 2, f2));
        wasm_v128_store(po + 3 * kLanes, fast(px, py, pz, 3, f3));
        s = Fx::merge(s, Fx::merge(Fx::merge(f0, f1), Fx::merge(f2, f3)));  // one merge on the carried chain
        px += 4 * kLanes;
        py += 4 * kLanes;
        pz += kThree ? 4 * kLanes : 0;
        po += 4 * kLanes;
      }
      ONNX_OPS_VECTOR_LOOP
      for (; left > 0; left -= kLanes) {
        typename Fx::Flags f;
        wasm_v128_store(po, fast(px, py, pz, 0, f));
        s = Fx::merge(s, f);
        px += kLanes;
        py += kLanes;
        pz += kThree ? kLanes : 0;
        po += kLanes;
      }
      const bool redo = Fx::suspicious(s);
      if (redo) {
        exact(m, a + done, b + done, kThree ? c + done : nullptr, out + done);
      } else if (buffered) {
        // Inline, not copy_bytes: a call per chunk made Max in place slower.
        for (size_t i = 0; i < m; i += kLanes) wasm_v128_store(out + done + i, wasm_v128_load(buf + i));
      }
      passed = redo ? 0 : passed + m;
      done += m;
    }
    ONNX_OPS_SCALAR_LOOP
    for (size_t i = done; i < n; ++i) {
      T r = Op<Tr>::op1(a[i], b[i]);
      if constexpr (kThree) r = Op<Tr>::op1(r, c[i]);
      out[i] = r;
    }
  }
};

// vbinary_checked: out[i] = op(a[i], b[i]) over two runs (Op<Tr>::Fast),
// checked per chunk. out may be exactly a or b; partial overlap is not
// allowed.
template <class Tr, template <class> class Op>
ONNX_OPS_KERNEL void vbinary_checked(size_t n, const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out) {
  assert(n == 0 || (a && b && out));
  assert(same_or_apart(a, out, n) && same_or_apart(b, out, n));
  if (n == 0) return;
  CheckedBinary<Tr, Op, false>::run(n, a, b, nullptr, out);
}

// vbinary3_checked: out[i] = op(op(a[i], b[i]), c[i]) over three runs in
// one pass (16 bytes moved per float32 element instead of 24 for two
// passes), checked per chunk; the fold is left to right. out may be exactly
// one input; partial overlap is not allowed.
template <class Tr, template <class> class Op>
ONNX_OPS_KERNEL void vbinary3_checked(size_t n, const typename Tr::T* a, const typename Tr::T* b,
                                      const typename Tr::T* c, typename Tr::T* out) {
  assert(n == 0 || (a && b && c && out));
  assert(same_or_apart(a, out, n) && same_or_apart(b, out, n) && same_or_apart(c, out, n));
  CheckedBinary<Tr, Op, true>::run(n, a, b, c, out);
}
#endif

}  // namespace onnx_ops
