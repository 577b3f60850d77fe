// Each kernel (src/kernels/), each dtype, against the reference in support.h:
// every length 0..67 (main loop, vector loop and scalar remainder), every
// operand variant (a run / one value, through the config's op2), in place,
// and canaries around the output to catch writes out of bounds.
#include <doctest/doctest.h>

#include "config/max_config.h"
#include "config/relu_config.h"
#include "kernels/copy.h"
#include "kernels/pmax_clean.h"
#include "kernels/max_fast.h"
#include "kernels/policies.h"
#include "kernels/vbinary3.h"
#include "kernels/vbinary_checked.h"
#include "kernels/vbinary_rows.h"
#include "support.h"

using namespace onnx_ops;

namespace {

constexpr size_t kGuard = 16;

// Max of two operands, each a run or one value, as the library runs it (the
// config's op2: a fill, a kernel against one value, or one of two runs).
template <class Tr>
void max2(size_t n, const typename Tr::T* a, bool a_single, const typename Tr::T* b, bool b_single,
          typename Tr::T* out) {
  max_kernels(int32_t(test::dtype_of<Tr>())).op2(n, a, a_single, b, b_single, out);
}

// Max of two runs as the library runs it (vbinary_checked for the float dtypes, vbinary otherwise).
template <class Tr>
void max_runs(size_t n, const typename Tr::T* a, const typename Tr::T* b, typename Tr::T* out) {
  max2<Tr>(n, a, false, b, false, out);
}

// Max of a run and one value c as the library runs it (by c: the Relu kernel,
// pmax, the seven-instruction select, the exact select or the NaN loop).
template <class Tr>
void max_value(size_t n, const typename Tr::T* a, const typename Tr::T* c, typename Tr::T* out) {
  max2<Tr>(n, a, false, c, true, out);
}

// Max of three runs in one pass: the checked kernel for the float dtypes (the
// library's for float32 and float64), else the plain loop (the library's
// without the vector path).
template <class Tr>
void max3_runs(size_t n, const typename Tr::T* a, const typename Tr::T* b, const typename Tr::T* c,
               typename Tr::T* out) {
#ifdef ONNX_OPS_VECTOR
  if constexpr (Tr::kFormat != Format::Integer) {
    vbinary3_checked<Tr, MaxOp>(n, a, b, c, out);
    return;
  }
#endif
  vbinary3<Tr, MaxOp>(n, a, b, c, out);
}

// Relu as the library runs it (the config's: vunary, or Max with zero).
template <class Tr>
void relu_run(size_t n, const typename Tr::T* x, typename Tr::T* out) {
  REQUIRE(run_relu(int32_t(test::dtype_of<Tr>()), n, x, out));
}

template <class Tr>
std::vector<typename Tr::T> with_guards(size_t n, std::mt19937_64& rng) {
  return test::random_vector<Tr>(rng, n + 2 * kGuard);
}

// The kGuard elements on each side of out[kGuard, kGuard + n) are as before.
template <class T>
void require_guards_kept(const std::vector<T>& out, const std::vector<T>& before, size_t n) {
  for (size_t g = 0; g < kGuard; ++g) {
    REQUIRE(test::same_bits(out[g], before[g]));
    REQUIRE(test::same_bits(out[kGuard + n + g], before[kGuard + n + g]));
  }
}

// Max-3 and Max-2 of a0, b0 (and c0) into a separate output and over each
// operand in turn, against the scalar reference.
template <class Tr>
void check_max_and_max3_every_output(const std::vector<typename Tr::T>& a0, const std::vector<typename Tr::T>& b0,
                                     const std::vector<typename Tr::T>& c0) {
  using T = typename Tr::T;
  const size_t n = a0.size();
  for (int where = 0; where < 4; ++where) {  // 0: separate output; 1..3: over a, b, c
    auto a = a0, b = b0, c = c0;
    std::vector<T> sep(n);
    T* out = where == 0 ? sep.data() : where == 1 ? a.data() : where == 2 ? b.data() : c.data();
    max3_runs<Tr>(n, a.data(), b.data(), c.data(), out);
    for (size_t i = 0; i < n; ++i) {
      INFO("max3 n=" << n << " where=" << where << " i=" << i);
      REQUIRE(test::same_bits(out[i], test::ref_max<Tr>(test::ref_max<Tr>(a0[i], b0[i]), c0[i])));
    }
    if (where == 3) continue;
    a = a0, b = b0;
    out = where == 0 ? sep.data() : where == 1 ? a.data() : b.data();
    max_runs<Tr>(n, a.data(), b.data(), out);
    for (size_t i = 0; i < n; ++i) {
      INFO("max2 n=" << n << " where=" << where << " i=" << i);
      REQUIRE(test::same_bits(out[i], test::ref_max<Tr>(a0[i], b0[i])));
    }
  }
}

template <class Tr, bool kA, bool kB>
void check_max_variant(std::mt19937_64& rng) {
  using T = typename Tr::T;
  for (size_t n = 0; n <= 67; ++n) {
    const auto a = test::random_vector<Tr>(rng, n + 1);
    const auto b = test::random_vector<Tr>(rng, n + 1);
    auto out = with_guards<Tr>(n, rng);
    const auto before = out;
    max2<Tr>(n, a.data(), kA, b.data(), kB, out.data() + kGuard);
    for (size_t i = 0; i < n; ++i) {
      const T want = test::ref_max<Tr>(kA ? a[0] : a[i], kB ? b[0] : b[i]);
      INFO("n=" << n << " i=" << i << " a_scalar=" << kA << " b_scalar=" << kB);
      REQUIRE(test::same_bits(out[kGuard + i], want));
    }
    require_guards_kept(out, before, n);
  }
}

// The special values of a dtype, with or without its NaNs.
template <class Tr>
std::vector<typename Tr::T> specials(bool with_nan) {
  std::vector<typename Tr::T> sp;
  for (auto x : test::specials<Tr>())
    if (with_nan || !Tr::isnan1(x)) sp.push_back(x);
  return sp;
}

}  // namespace

TEST_CASE_TEMPLATE("max kernel: every length and operand variant matches the reference", Tr, ONNX_OPS_ALL_TRAITS) {
  std::mt19937_64 rng(42);
  for (int round = 0; round < 20; ++round) {
    check_max_variant<Tr, false, false>(rng);
    check_max_variant<Tr, false, true>(rng);
    check_max_variant<Tr, true, false>(rng);
    check_max_variant<Tr, true, true>(rng);
  }
}

TEST_CASE_TEMPLATE("max kernel: every pair of special values, both orders, in every lane", Tr, ONNX_OPS_ALL_TRAITS) {
  // The NaN-free pass keeps whole blocks on the fast path (see max3 below).
  using T = typename Tr::T;
  for (bool with_nan : {true, false}) {
    const std::vector<T> sp = specials<Tr>(with_nan);
    std::vector<T> a, b;
    for (T x : sp)
      for (T y : sp) {
        a.push_back(x);
        b.push_back(y);
      }
    // Rotating the start puts each pair in every lane position.
    for (size_t shift = 0; shift < 16; ++shift) {
      // where: 0 a separate output, 1 over a, 2 over b (in place: the fast
      // chain then starts with the overwritten operand; see CheckedBinary)
      for (int where = 0; where < 3; ++where) {
        std::vector<T> x(a.begin() + shift, a.end()), y(b.begin() + shift, b.end()), sep(x.size());
        T* out = where == 0 ? sep.data() : where == 1 ? x.data() : y.data();
        max_runs<Tr>(x.size(), x.data(), y.data(), out);
        for (size_t i = 0; i < x.size(); ++i) {
          INFO("with_nan=" << with_nan << " where=" << where << " i=" << i + shift);
          REQUIRE(test::same_bits(out[i], test::ref_max<Tr>(a[i + shift], b[i + shift])));
        }
      }
    }
    for (T y : sp) {  // a repeated second operand, through the vector loops
      std::vector<T> out(a.size());
      max_value<Tr>(a.size(), a.data(), &y, out.data());
      for (size_t i = 0; i < a.size(); ++i) REQUIRE(test::same_bits(out[i], test::ref_max<Tr>(a[i], y)));
    }
  }
}

TEST_CASE_TEMPLATE("max kernel: in place on either operand", Tr, ONNX_OPS_ALL_TRAITS) {
  std::mt19937_64 rng(7);
  for (size_t n = 0; n <= 67; ++n) {
    auto a = test::random_vector<Tr>(rng, n);
    auto b = test::random_vector<Tr>(rng, n);
    const auto a0 = a, b0 = b;
    max_runs<Tr>(n, a.data(), b.data(), a.data());
    for (size_t i = 0; i < n; ++i) REQUIRE(test::same_bits(a[i], test::ref_max<Tr>(a0[i], b0[i])));
    max_runs<Tr>(n, a0.data(), b.data(), b.data());
    for (size_t i = 0; i < n; ++i) REQUIRE(test::same_bits(b[i], test::ref_max<Tr>(a0[i], b0[i])));
  }
}

TEST_CASE_TEMPLATE("max and max3 kernels: long runs, one special per run, in place or not", Tr, ONNX_OPS_ALL_TRAITS) {
  // Several chunks of the fast path: a special value (NaN, -0, ...) in
  // one position makes only its chunk take the exact path, which in place
  // reads the fast result where the overwritten operand was.
  using T = typename Tr::T;
  std::mt19937_64 rng(99);
  const auto sp = test::specials<Tr>();
  const size_t chunk = kCheckedChunkBytes / sizeof(T);
  for (size_t n : {3 * chunk + 13, 2 * chunk, chunk - 1}) {
    for (int trial = 0; trial < 12; ++trial) {
      std::vector<T> a0(n), b0(n), c0(n);
      for (size_t i = 0; i < n; ++i) {  // special-free: every chunk clean but one
        a0[i] = T(1 + i % 7);
        b0[i] = T(2 + i % 5);
        c0[i] = T(3 + i % 3);
      }
      const size_t at = rng() % n;
      (trial % 3 == 0 ? a0 : trial % 3 == 1 ? b0 : c0)[at] = sp[rng() % sp.size()];
      INFO("special at " << at);
      check_max_and_max3_every_output<Tr>(a0, b0, c0);
    }
  }
}

TEST_CASE_TEMPLATE("max kernels: specials scattered over a long run (chunks redone, small chunks, back to big)", Tr,
                   ONNX_OPS_ALL_TRAITS) {
  // Special-free values between the specials, so that the fast path's chunks
  // pass: a special every 97 elements (256-byte chunks, most redone), every
  // third of a chunk, every two chunks (1 KiB chunks between), and every
  // kCheckedCalmBytes and a chunk (back to 4 KiB chunks between).
  using T = typename Tr::T;
  std::mt19937_64 rng(7);
  const auto sp = test::specials<Tr>();
  const size_t chunk = kCheckedChunkBytes / sizeof(T), calm = kCheckedCalmBytes / sizeof(T);
  const size_t n = 2 * calm + 6 * chunk + 77;
  for (size_t every : {size_t(97), chunk / 3, 2 * chunk + 5, calm + chunk + 5}) {
    std::vector<T> a0(n), b0(n), c0(n);
    for (size_t i = 0; i < n; ++i) {
      a0[i] = T(1 + i % 7);
      b0[i] = T(2 + i % 5);
      c0[i] = T(3 + i % 3);
    }
    for (size_t i = every / 2; i < n; i += every) ((i / every) % 3 == 0 ? a0 : (i / every) % 3 == 1 ? b0 : c0)[i] =
        sp[rng() % sp.size()];
    INFO("a special every " << every);
    check_max_and_max3_every_output<Tr>(a0, b0, c0);
  }
}

TEST_CASE("max kernel: float16 and bfloat16, every bit pattern against every special value") {
  auto run = [](auto traits) {
    using Tr = decltype(traits);
    const auto sp = test::specials<Tr>();
    std::vector<uint16_t> all(65536), out(65536);
    for (size_t i = 0; i < all.size(); ++i) all[i] = uint16_t(i);
    for (uint16_t s : sp) {
      max_value<Tr>(all.size(), all.data(), &s, out.data());
      for (size_t i = 0; i < all.size(); ++i) REQUIRE(out[i] == test::ref_max<Tr>(all[i], s));
      max2<Tr>(all.size(), &s, true, all.data(), false, out.data());
      for (size_t i = 0; i < all.size(); ++i) REQUIRE(out[i] == test::ref_max<Tr>(s, all[i]));
      // the same through the two-stream fast path
      const std::vector<uint16_t> ss(all.size(), s);
      max_runs<Tr>(all.size(), all.data(), ss.data(), out.data());
      for (size_t i = 0; i < all.size(); ++i) REQUIRE(out[i] == test::ref_max<Tr>(all[i], s));
      max_runs<Tr>(all.size(), ss.data(), all.data(), out.data());
      for (size_t i = 0; i < all.size(); ++i) REQUIRE(out[i] == test::ref_max<Tr>(s, all[i]));
    }
  };
  run(Float16Traits{});
  run(Bfloat16Traits{});
}

TEST_CASE_TEMPLATE("max3 kernel: every length, with guards, against max(max(a, b), c)", Tr, ONNX_OPS_ALL_TRAITS) {
  using T = typename Tr::T;
  std::mt19937_64 rng(3);
  for (int round = 0; round < 20; ++round) {
    for (size_t n = 0; n <= 67; ++n) {
      const auto a = test::random_vector<Tr>(rng, n);
      const auto b = test::random_vector<Tr>(rng, n);
      const auto c = test::random_vector<Tr>(rng, n);
      auto out = with_guards<Tr>(n, rng);
      const auto before = out;
      max3_runs<Tr>(n, a.data(), b.data(), c.data(), out.data() + kGuard);
      for (size_t i = 0; i < n; ++i) {
        const T want = test::ref_max<Tr>(test::ref_max<Tr>(a[i], b[i]), c[i]);
        INFO("n=" << n << " i=" << i);
        REQUIRE(test::same_bits(out[kGuard + i], want));
      }
      require_guards_kept(out, before, n);
    }
  }
}

TEST_CASE_TEMPLATE("max3 kernel: every triple of special values, in every lane", Tr, ONNX_OPS_ALL_TRAITS) {
  // Covers the fast path's blind spots: NaN in the 2nd or 3rd operand, and
  // ties between -0 and +0 in any position (e.g. -0, +0, -0 must give +0).
  // The NaN-free pass keeps whole blocks on the fast path, so its -0 and
  // infinity handling is checked on its own.
  using T = typename Tr::T;
  for (bool with_nan : {true, false}) {
    const std::vector<T> sp = specials<Tr>(with_nan);
    std::vector<T> a, b, c;
    for (T x : sp)
      for (T y : sp)
        for (T z : sp) {
          a.push_back(x);
          b.push_back(y);
          c.push_back(z);
        }
    for (size_t shift = 0; shift < 16; ++shift) {
      for (int where = 0; where < 4; ++where) {  // a separate output, or over a, b or c
        std::vector<T> x(a.begin() + shift, a.end()), y(b.begin() + shift, b.end()), z(c.begin() + shift, c.end()),
            sep(x.size());
        T* out = where == 0 ? sep.data() : where == 1 ? x.data() : where == 2 ? y.data() : z.data();
        max3_runs<Tr>(x.size(), x.data(), y.data(), z.data(), out);
        for (size_t i = 0; i < x.size(); ++i) {
          const size_t j = i + shift;
          INFO("with_nan=" << with_nan << " where=" << where << " j=" << j);
          REQUIRE(test::same_bits(out[i], test::ref_max<Tr>(test::ref_max<Tr>(a[j], b[j]), c[j])));
        }
      }
    }
  }
}

TEST_CASE_TEMPLATE("max3 kernel: in place on any operand", Tr, ONNX_OPS_ALL_TRAITS) {
  std::mt19937_64 rng(11);
  for (size_t n = 0; n <= 67; ++n) {
    const auto a0 = test::random_vector<Tr>(rng, n);
    const auto b0 = test::random_vector<Tr>(rng, n);
    const auto c0 = test::random_vector<Tr>(rng, n);
    for (int which = 0; which < 3; ++which) {
      auto a = a0, b = b0, c = c0;
      auto* out = which == 0 ? a.data() : which == 1 ? b.data() : c.data();
      max3_runs<Tr>(n, a.data(), b.data(), c.data(), out);
      for (size_t i = 0; i < n; ++i)
        REQUIRE(test::same_bits(out[i], test::ref_max<Tr>(test::ref_max<Tr>(a0[i], b0[i]), c0[i])));
    }
  }
}

TEST_CASE_TEMPLATE("relu kernel: every length, specials, in place", Tr, ONNX_OPS_SIGNED_TRAITS) {
  using T = typename Tr::T;
  std::mt19937_64 rng(3);
  for (int round = 0; round < 20; ++round) {
    for (size_t n = 0; n <= 67; ++n) {
      const auto x = test::random_vector<Tr>(rng, n);
      auto out = with_guards<Tr>(n, rng);
      const auto before = out;
      relu_run<Tr>(n, x.data(), out.data() + kGuard);
      for (size_t i = 0; i < n; ++i) REQUIRE(test::same_bits(out[kGuard + i], test::ref_relu<Tr>(x[i])));
      require_guards_kept(out, before, n);
      auto inplace = x;
      relu_run<Tr>(n, inplace.data(), inplace.data());
      for (size_t i = 0; i < n; ++i) REQUIRE(test::same_bits(inplace[i], test::ref_relu<Tr>(x[i])));
    }
  }
  auto sp = test::specials<Tr>();
  for (size_t shift = 0; shift < 16; ++shift) {
    std::vector<T> in;
    for (size_t k = 0; k < shift; ++k) in.push_back(T(1));
    in.insert(in.end(), sp.begin(), sp.end());
    std::vector<T> out(in.size());
    relu_run<Tr>(in.size(), in.data(), out.data());
    for (size_t i = 0; i < in.size(); ++i) REQUIRE(test::same_bits(out[i], test::ref_relu<Tr>(in[i])));
  }
}

TEST_CASE_TEMPLATE("relu kernel: long runs (512 KiB and around it), in place too", Tr, ONNX_OPS_SIGNED_TRAITS) {
  using T = typename Tr::T;
  std::mt19937_64 rng(5);
  const size_t at = size_t(512 * 1024) / sizeof(T);
  for (size_t n : {at - 1, at, at + 37}) {
    const auto x = test::random_vector<Tr>(rng, n);  // a quarter specials
    auto out = with_guards<Tr>(n, rng);
    const auto before = out;
    relu_run<Tr>(n, x.data(), out.data() + kGuard);
    for (size_t i = 0; i < n; ++i) {
      INFO("n=" << n << " i=" << i);
      REQUIRE(test::same_bits(out[kGuard + i], test::ref_relu<Tr>(x[i])));
    }
    require_guards_kept(out, before, n);
    auto inplace = x;
    relu_run<Tr>(n, inplace.data(), inplace.data());
    for (size_t i = 0; i < n; ++i) REQUIRE(test::same_bits(inplace[i], test::ref_relu<Tr>(x[i])));
  }
}

TEST_CASE("relu kernel: float16 and bfloat16, every bit pattern") {
  auto run = [](auto traits) {
    using Tr = decltype(traits);
    std::vector<uint16_t> all(65536), out(65536);
    for (size_t i = 0; i < all.size(); ++i) all[i] = uint16_t(i);
    relu_run<Tr>(all.size(), all.data(), out.data());
    for (size_t i = 0; i < all.size(); ++i) REQUIRE(out[i] == test::ref_relu<Tr>(all[i]));
  };
  run(Float16Traits{});
  run(Bfloat16Traits{});
}

// An op policy as a value, for the checks below that take one.
template <template <class> class Op>
struct Policy {
  template <class Tr>
  static void rows(const Rows& r, const typename Tr::T* x, const typename Tr::T* y, typename Tr::T* out) {
    vbinary_rows<Tr, Op>(r, x, y, out);
  }
  template <class Tr>
  static void rowsc(const Rows& r, const typename Tr::T* x, const typename Tr::T* v, typename Tr::T* out) {
    vbinaryc_rows<Tr, Op>(r, x, v, out);
  }
};

// Redraws every NaN and +0 of v: the operand pmax alone is exact against (PmaxClean).
template <class Tr>
void make_clean(std::mt19937_64& rng, std::vector<typename Tr::T>& v) {
  for (auto& e : v)
    while (Tr::isnan1(e) || test::same_bits(e, typename Tr::T{})) e = test::random_vector<Tr>(rng, 1)[0];
}

TEST_CASE_TEMPLATE("vbinary_rows: every row length and count, with guards, against the reference", Tr,
                   ONNX_OPS_ALL_TRAITS) {
  // vbinary_rows with Max's exact policy (MaxOp: any data), and, for float32
  // and float64, with pmax (PmaxClean) against rows that hold no NaN and no +0,
  // as ops/elementwise.cpp runs it: each row restarts the reused row.
  std::mt19937_64 rng(7);
  auto check = [&](auto policy, bool clean_rows) {
    using K = decltype(policy);
    for (size_t len = 0; len <= 67; ++len) {
      for (size_t rows = 1; rows <= 3; ++rows) {
        const auto x = test::random_vector<Tr>(rng, rows * len);
        auto row = test::random_vector<Tr>(rng, len);
        if (clean_rows) make_clean<Tr>(rng, row);
        auto out = with_guards<Tr>(rows * len, rng);
        const auto before = out;
        K::template rows<Tr>(Rows{rows, len, len, 0}, x.data(), row.data(), out.data() + kGuard);
        for (size_t i = 0; i < rows * len; ++i) {
          INFO("len=" << len << " rows=" << rows << " i=" << i);
          REQUIRE(test::same_bits(out[kGuard + i], test::ref_max<Tr>(x[i], row[i % len])));
        }
        require_guards_kept(out, before, rows * len);
      }
    }
  };
  check(Policy<MaxOp>{}, false);
  if constexpr (Tr::kFormat == Format::Ieee) check(Policy<PmaxClean>{}, true);
}

TEST_CASE_TEMPLATE("vbinaryc_rows: every row length and count, row steps, with guards, against the reference", Tr,
                   ONNX_OPS_ALL_TRAITS) {
  // vbinaryc_rows with Max's exact policy (MaxOp: any data), and, for float32
  // and float64, with pmax (PmaxClean) against clean values: rows of x that follow
  // each other or one reused row (x_step 0), a value per row or one for all
  // (y_step 0); in place too, where the last part vector overlaps.
  std::mt19937_64 rng(8);
  auto check = [&](auto policy, bool clean_values) {
    using K = decltype(policy);
    for (size_t len = 0; len <= 67; ++len) {
      for (size_t rows = 1; rows <= 3; ++rows) {
        for (size_t x_step : {len, size_t(0)}) {
          for (size_t v_step : {size_t(1), size_t(0)}) {
            const auto x = test::random_vector<Tr>(rng, rows * len);
            auto v = test::random_vector<Tr>(rng, rows);
            if (clean_values) make_clean<Tr>(rng, v);
            auto out = with_guards<Tr>(rows * len, rng);
            const auto before = out;
            K::template rowsc<Tr>(Rows{rows, len, x_step, v_step}, x.data(), v.data(), out.data() + kGuard);
            for (size_t i = 0; i < rows * len; ++i) {
              const size_t r = i / len, j = i % len;
              INFO("len=" << len << " rows=" << rows << " x_step=" << x_step << " v_step=" << v_step << " i=" << i);
              REQUIRE(test::same_bits(out[kGuard + i], test::ref_max<Tr>(x[r * x_step + j], v[r * v_step])));
            }
            require_guards_kept(out, before, rows * len);
            if (x_step == 0) continue;
            auto inplace = x;
            K::template rowsc<Tr>(Rows{rows, len, x_step, v_step}, inplace.data(), v.data(), inplace.data());
            for (size_t i = 0; i < rows * len; ++i)
              REQUIRE(test::same_bits(inplace[i], test::ref_max<Tr>(x[i], v[(i / len) * v_step])));
          }
        }
      }
    }
  };
  check(Policy<MaxOp>{}, false);
  if constexpr (Tr::kFormat == Format::Ieee) check(Policy<PmaxClean>{}, true);
}

TEST_CASE_TEMPLATE("clean-row scan: one special at every position of every length", F, float, double) {
  // PmaxClean::clean_all decides whether pmax alone is exact against a
  // reused row: no NaN, no +0. (Its vector part also answers "not clean" for a
  // row holding both infinities, whose sum is NaN; that only costs speed.)
  using Tr = std::conditional_t<sizeof(F) == 4, Float32Traits, Float64Traits>;
  using Clean = PmaxClean<Tr>;
  const std::vector<F> sp = test::specials<Tr>();
  for (size_t n = 1; n <= 70; ++n) {
    for (size_t p = 0; p < n; ++p) {
      for (F v : sp) {
        std::vector<F> row(n, F(1.5));
        for (size_t i = 0; i < n; i += 3) row[i] = F(-2);
        row[p] = v;
        INFO("n=" << n << " p=" << p << " v=" << v);
        REQUIRE(Clean::clean_all(n, row.data()) == Clean::clean(v));
      }
    }
  }
}

TEST_CASE("documented choices: first NaN wins with its payload, +0 beats -0, relu(-0) = +0") {
  const float qnan = std::numeric_limits<float>::quiet_NaN();
  const float p1 = test::bit_cast<float>(test::bit_cast<uint32_t>(qnan) | 1u);
  const float p2 = test::bit_cast<float>(test::bit_cast<uint32_t>(qnan) | 2u | 0x80000000u);
  float a[4] = {p1, 1.0f, -0.0f, 0.0f}, b[4] = {p2, p2, 0.0f, -0.0f}, out[4];
  max_runs<Float32Traits>(4, a, b, out);
  CHECK(test::bit_cast<uint32_t>(out[0]) == test::bit_cast<uint32_t>(p1));
  CHECK(test::bit_cast<uint32_t>(out[1]) == test::bit_cast<uint32_t>(p2));
  CHECK(test::bit_cast<uint32_t>(out[2]) == 0u);
  CHECK(test::bit_cast<uint32_t>(out[3]) == 0u);
  float x[4] = {-0.0f, p2, -1.0f, 2.0f}, y[4];
  relu_run<Float32Traits>(4, x, y);
  CHECK(test::bit_cast<uint32_t>(y[0]) == 0u);
  CHECK(test::bit_cast<uint32_t>(y[1]) == test::bit_cast<uint32_t>(p2));
  CHECK(y[2] == 0.0f);
  CHECK(y[3] == 2.0f);
}

TEST_CASE("the kernels' in-place rule (same_or_apart): an input is the output itself, or apart from it") {
  // What every kernel's assert checks: a partial overlap would let a store
  // change a load still to come.
  float buf[12] = {};
  CHECK(same_or_apart(buf, buf, 4));          // in place
  CHECK(same_or_apart(buf, buf + 4, 4));      // adjacent, either way
  CHECK(same_or_apart(buf + 4, buf, 4));
  CHECK(same_or_apart(buf, buf + 1, 0));      // nothing read or written
  CHECK_FALSE(same_or_apart(buf, buf + 1, 4));  // out starts inside the input
  CHECK_FALSE(same_or_apart(buf + 3, buf, 4));  // the input starts inside out
  CHECK(same_or_apart(buf, 4 * sizeof(float), buf + 8, 4 * sizeof(float)));  // a row and a longer output
  CHECK_FALSE(same_or_apart(buf, 12 * sizeof(float), buf + 8, 4 * sizeof(float)));
}

TEST_CASE("copy and fill kernels: every length, element size and alignment, with guards") {
  // Max of one input (a copy, or a fill from a repeated value) and runs whose
  // result is one value; vector loops, not libc calls (kernels/kernel.h).
  std::mt19937_64 rng(5);
  for (size_t size : {size_t(1), size_t(2), size_t(4), size_t(8)}) {
    for (size_t n = 0; n <= 67; ++n) {
      for (size_t shift : {size_t(0), size, size_t(16) - size}) {
        std::vector<unsigned char> x(n * size + 32), out(n * size + 64), value(size);
        for (auto& b : x) b = static_cast<unsigned char>(rng());
        for (auto& b : out) b = static_cast<unsigned char>(rng());
        for (auto& b : value) b = static_cast<unsigned char>(rng());
        const auto before = out;
        copy_bytes(n * size, x.data() + shift, out.data() + 16 + shift);
        for (size_t i = 0; i < out.size(); ++i) {
          const bool inside = i >= 16 + shift && i < 16 + shift + n * size;
          INFO("copy size=" << size << " n=" << n << " shift=" << shift << " i=" << i);
          REQUIRE(out[i] == (inside ? x[i - 16] : before[i]));
        }
        out = before;
        fill_bytes(n, size, value.data(), out.data() + 16 + shift);
        for (size_t i = 0; i < out.size(); ++i) {
          const bool inside = i >= 16 + shift && i < 16 + shift + n * size;
          INFO("fill size=" << size << " n=" << n << " shift=" << shift << " i=" << i);
          REQUIRE(out[i] == (inside ? value[(i - 16 - shift) % size] : before[i]));
        }
      }
    }
  }
}
