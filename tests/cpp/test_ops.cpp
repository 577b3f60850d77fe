// Whole-tensor Max and Relu against a naive broadcasting reference: random
// shapes (rank 0..6, with 1s and 0s), 1..6 inputs, every dtype, in place.
#include <doctest/doctest.h>

#include <algorithm>
#include <utility>

#include "calls.h"
#include "support.h"

using namespace onnx_ops;

namespace {

using Dims = std::vector<int64_t>;

int64_t count(const Dims& d) {
  int64_t c = 1;
  for (auto x : d) c *= x;
  return c;
}

// Naive: for each output index, each input's index by numpy's rules.
template <class Tr>
std::vector<typename Tr::T> naive_max(const std::vector<Dims>& shapes,
                                      const std::vector<std::vector<typename Tr::T>>& data, const Dims& out) {
  std::vector<typename Tr::T> r(static_cast<size_t>(count(out)));
  const int R = int(out.size());
  for (int64_t flat = 0; flat < count(out); ++flat) {
    Dims idx(static_cast<size_t>(R));
    int64_t rem = flat;
    for (int k = R - 1; k >= 0; --k) {
      idx[size_t(k)] = rem % out[size_t(k)];
      rem /= out[size_t(k)];
    }
    typename Tr::T acc{};
    for (size_t i = 0; i < shapes.size(); ++i) {
      const Dims& s = shapes[i];
      int64_t off = 0;
      for (size_t k = 0; k < s.size(); ++k) {
        const int64_t d = s[k];
        const int64_t j = d == 1 ? 0 : idx[size_t(R) - s.size() + k];
        off = off * d + j;
      }
      acc = i == 0 ? data[i][size_t(off)] : test::ref_max<Tr>(acc, data[i][size_t(off)]);
    }
    r[size_t(flat)] = acc;
  }
  return r;
}

// Random broadcast-compatible shapes: an output shape, then each input drops
// leading dims and turns some dims into 1.
std::vector<Dims> random_shapes(std::mt19937_64& rng, int n, bool allow_empty) {
  const int R = int(rng() % 7);
  Dims out(static_cast<size_t>(R));
  do {  // keep the naive reference quick: at most 6000 output elements
    for (auto& d : out) {
      const uint64_t r = rng() % 10;
      d = allow_empty && r == 0 ? 0 : int64_t(1 + rng() % (r < 5 ? 3 : 70));
    }
  } while (count(out) > 6000);
  std::vector<Dims> shapes;
  for (int i = 0; i < n; ++i) {
    const int drop = R == 0 ? 0 : int(rng() % (R + 1));
    Dims s(out.begin() + drop, out.end());
    for (auto& d : s)
      if (rng() % 3 == 0) d = 1;
    shapes.push_back(s);
  }
  return shapes;
}

template <class Tr>
void check_random_max(std::mt19937_64& rng, bool in_place) {
  using T = typename Tr::T;
  const int n = 1 + int(rng() % 6);
  auto shapes = random_shapes(rng, n, !in_place);
  std::vector<Shape> views;
  for (auto& s : shapes) views.push_back(Shape{s.data(), int(s.size())});
  Dims out_dims;
  REQUIRE(broadcast_shape(n, views.data(), &out_dims) == Status::Ok);
  int alias = -1;
  if (in_place) {  // make one input full-shaped and write the result over it
    alias = int(rng() % n);
    shapes[size_t(alias)] = out_dims;
    views[size_t(alias)] = Shape{shapes[size_t(alias)].data(), int(out_dims.size())};
  }
  std::vector<std::vector<T>> data;
  std::vector<const void*> ptrs;
  for (auto& s : shapes) data.push_back(test::random_vector<Tr>(rng, size_t(count(s))));
  for (auto& d : data) ptrs.push_back(d.data());
  const auto want = naive_max<Tr>(shapes, data, out_dims);
  std::vector<T> out(want.size());
  T* dst = in_place ? data[size_t(alias)].data() : out.data();
  const Status st = test::call_max(int32_t(test::dtype_of<Tr>()), n, ptrs.data(), views.data(), dst,
                                Shape{out_dims.data(), int(out_dims.size())});
  REQUIRE(st == Status::Ok);
  for (size_t i = 0; i < want.size(); ++i) {
    INFO("n=" << n << " i=" << i << " out rank=" << out_dims.size());
    REQUIRE(test::same_bits(dst[i], want[i]));
  }
}

// Max of x ([n]) with one repeated value v ([]), v second and then first,
// through Max (onnx_ops::run), against the reference bit for bit.
template <class Tr>
void check_max_with_value(const std::vector<typename Tr::T>& x, typename Tr::T v) {
  using T = typename Tr::T;
  const Dims n_dims{int64_t(x.size())}, scalar_dims{};
  std::vector<T> out(x.size());
  for (int value_first = 0; value_first < 2; ++value_first) {
    const void* ptrs[2] = {value_first ? static_cast<const void*>(&v) : x.data(),
                           value_first ? static_cast<const void*>(x.data()) : &v};
    const Shape views[2] = {value_first ? Shape{scalar_dims.data(), 0} : Shape{n_dims.data(), 1},
                            value_first ? Shape{n_dims.data(), 1} : Shape{scalar_dims.data(), 0}};
    REQUIRE(test::call_max(int32_t(test::dtype_of<Tr>()), 2, ptrs, views, out.data(), Shape{n_dims.data(), 1}) ==
            Status::Ok);
    for (size_t i = 0; i < x.size(); ++i) {
      const T want = value_first ? test::ref_max<Tr>(v, x[i]) : test::ref_max<Tr>(x[i], v);
      INFO("value_first=" << value_first << " i=" << i);
      REQUIRE(test::same_bits(out[i], want));
    }
  }
}

}  // namespace

TEST_CASE_TEMPLATE("Max of random broadcast shapes matches the naive reference", Tr, ONNX_OPS_ALL_TRAITS) {
  std::mt19937_64 rng(11);
  for (int round = 0; round < 150; ++round) check_random_max<Tr>(rng, false);
  for (int round = 0; round < 50; ++round) check_random_max<Tr>(rng, true);
}

TEST_CASE("Max of many same-shape inputs folds left to right across tiles") {
  // Long enough for several accumulator tiles; NaNs with distinct payloads in
  // several inputs at the same position: the first input's NaN must win.
  std::mt19937_64 rng(5);
  const int n = 5;
  const int64_t len = 3 * 2048 + 37;
  std::vector<std::vector<float>> data;
  for (int i = 0; i < n; ++i) data.push_back(test::random_vector<Float32Traits>(rng, size_t(len)));
  for (int i = 1; i < n; ++i) data[size_t(i)][5000] = test::bit_cast<float>(0x7fc00000u | uint32_t(i));
  std::vector<const void*> ptrs;
  for (auto& d : data) ptrs.push_back(d.data());
  const Dims dims{len};
  std::vector<Shape> shapes(size_t(n), Shape{dims.data(), 1});
  std::vector<float> out(static_cast<size_t>(len));
  REQUIRE(test::call_max(int32_t(DType::Float32), n, ptrs.data(), shapes.data(), out.data(), shapes[0]) == Status::Ok);
  std::vector<float> x(static_cast<size_t>(len));
  for (int64_t k = 0; k < len; ++k) {
    float acc = data[0][size_t(k)];
    for (int i = 1; i < n; ++i) acc = test::ref_max<Float32Traits>(acc, data[size_t(i)][size_t(k)]);
    REQUIRE(test::same_bits(out[size_t(k)], acc));
  }
  if (!std::isnan(data[0][5000])) CHECK(test::bit_cast<uint32_t>(out[5000]) == (0x7fc00000u | 1u));
}

TEST_CASE_TEMPLATE("Max with a reused row or a repeated value: the pmax shortcuts agree with the reference", Tr,
                   ONNX_OPS_ALL_TRAITS) {
  // [R, C] with [C] (either order) and [n] with [] (either order): the row /
  // value is checked once and, for float32/float64 when it holds no NaN and
  // no +0, pmax does the work; a +0 value makes it Relu. Rows with and without
  // NaN/+0, other operands full of specials, in every lane position.
  using T = typename Tr::T;
  std::mt19937_64 rng(23);
  std::vector<T> clean_values, sp = test::specials<Tr>();
  for (T x : sp)
    if (!Tr::isnan1(x) && !test::same_bits(x, T{})) clean_values.push_back(x);
  for (int round = 0; round < 40; ++round) {
    const int kind = round % 4;  // 0, 1: clean row; 2: one special, met by every special; 3: random
    const int64_t R = kind == 2 ? int64_t(sp.size()) : 1 + int64_t(rng() % 5), C = 1 + int64_t(rng() % 70);
    std::vector<T> row(static_cast<size_t>(C));
    for (auto& x : row) x = clean_values[rng() % clean_values.size()];
    if (kind == 1)
      for (auto& x : row) x = test::random_vector<Tr>(rng, 1)[0];  // maybe unclean
    if (kind == 3) row = test::random_vector<Tr>(rng, size_t(C));
    auto full = test::random_vector<Tr>(rng, size_t(R * C));
    if (kind == 2) {  // row[p] = a special (+0 among them), column p of full = every special
      const size_t p = rng() % row.size();
      row[p] = sp[size_t(round / 4) % sp.size()];
      for (int64_t r = 0; r < R; ++r) full[size_t(r * C) + p] = sp[size_t(r)];
    }
    const Dims full_dims{R, C}, row_dims{C};
    for (int row_first = 0; row_first < 2; ++row_first) {
      std::vector<Dims> shapes = row_first ? std::vector<Dims>{row_dims, full_dims} : std::vector<Dims>{full_dims, row_dims};
      std::vector<std::vector<T>> data = row_first ? std::vector<std::vector<T>>{row, full} : std::vector<std::vector<T>>{full, row};
      std::vector<Shape> views{Shape{shapes[0].data(), int(shapes[0].size())}, Shape{shapes[1].data(), int(shapes[1].size())}};
      const void* ptrs[2] = {data[0].data(), data[1].data()};
      std::vector<T> out(size_t(R * C));
      REQUIRE(test::call_max(int32_t(test::dtype_of<Tr>()), 2, ptrs, views.data(), out.data(), Shape{full_dims.data(), 2}) ==
              Status::Ok);
      const auto want = naive_max<Tr>(shapes, data, full_dims);
      for (size_t i = 0; i < want.size(); ++i) {
        INFO("kind=" << kind << " row_first=" << row_first << " i=" << i);
        REQUIRE(test::same_bits(out[i], want[i]));
      }
    }
  }
  for (T v : sp) check_max_with_value<Tr>(test::random_vector<Tr>(rng, 67), v);  // a repeated value: every special
}

TEST_CASE("Max of float16/bfloat16 with a repeated value: every bit pattern against every special, both orders") {
  // [65536] with [] (and [] with [65536]): a non-NaN value takes the
  // seven-instruction select (Half16MaxNonNan), +0 the Relu kernel, a NaN
  // the scalar loop; every x, NaNs of either sign and every payload included.
  auto run = [](auto traits) {
    using Tr = decltype(traits);
    std::vector<uint16_t> all(65536);
    for (size_t i = 0; i < all.size(); ++i) all[i] = uint16_t(i);
    for (uint16_t v : test::specials<Tr>()) {
      INFO("value=" << v);
      check_max_with_value<Tr>(all, v);
    }
  };
  run(Float16Traits{});
  run(Bfloat16Traits{});
}

TEST_CASE("Max errors: no inputs, unknown dtype, incompatible shapes, wrong output shape") {
  const Dims a{2, 3}, b{4}, o{2, 3};
  float x[6] = {}, y[4] = {}, out[6];
  const void* ptrs[] = {x, y};
  const Shape shapes[] = {Shape{a.data(), 2}, Shape{b.data(), 1}};
  CHECK(test::call_max(int32_t(DType::Float32), 0, ptrs, shapes, out, Shape{o.data(), 2}) == Status::BadArity);
  CHECK(test::call_max(99, 1, ptrs, shapes, out, Shape{o.data(), 2}) == Status::BadDtype);
  CHECK(test::call_max(int32_t(DType::Float32), 2, ptrs, shapes, out, Shape{o.data(), 2}) == Status::Incompatible);
  CHECK(test::call_max(int32_t(DType::Float32), 1, ptrs, shapes, out, Shape{b.data(), 1}) == Status::OutShapeMismatch);
}

TEST_CASE("run: the op is the call's; a number that is no op is BadOp, with nothing written") {
  // The same descriptor as Max and as Relu (one input of the output's
  // shape), then as no op at all.
  const Dims d{3};
  float x[3] = {-1.0f, 0.0f, 2.0f}, out[3] = {7.0f, 7.0f, 7.0f};
  const void* ptrs[] = {x};
  const Shape shapes[] = {Shape{d.data(), 1}};
  Call c{int32_t(DType::Float32), 1, ptrs, shapes, out, shapes[0], int32_t(OpId::Max)};
  REQUIRE(onnx_ops::run(c) == Status::Ok);
  CHECK((out[0] == -1.0f && out[1] == 0.0f && out[2] == 2.0f));
  c.op = int32_t(OpId::Relu);
  REQUIRE(onnx_ops::run(c) == Status::Ok);
  CHECK((out[0] == 0.0f && out[1] == 0.0f && out[2] == 2.0f));
  for (int32_t op : {-1, 99, INT32_MIN}) {
    out[0] = out[1] = out[2] = 7.0f;
    c.op = op;
    CHECK(onnx_ops::run(c) == Status::BadOp);
    CHECK((out[0] == 7.0f && out[1] == 7.0f && out[2] == 7.0f));
  }
}

TEST_CASE_TEMPLATE("Relu over whole tensors, in place too", Tr, ONNX_OPS_SIGNED_TRAITS) {
  std::mt19937_64 rng(9);
  for (size_t n : {size_t(0), size_t(1), size_t(100), size_t(5000)}) {
    auto x = test::random_vector<Tr>(rng, n);
    std::vector<typename Tr::T> out(n);
    REQUIRE(test::call_relu(int32_t(test::dtype_of<Tr>()), x.data(), out.data(), n) == Status::Ok);
    for (size_t i = 0; i < n; ++i) REQUIRE(test::same_bits(out[i], test::ref_relu<Tr>(x[i])));
    REQUIRE(test::call_relu(int32_t(test::dtype_of<Tr>()), x.data(), x.data(), n) == Status::Ok);
    for (size_t i = 0; i < n; ++i) CHECK(test::same_bits(x[i], out[i]));
  }
}

TEST_CASE("Relu has no unsigned kernels") {
  for (DType d : {DType::Uint8, DType::Uint16, DType::Uint32, DType::Uint64}) {
    uint64_t x = 0;
    CHECK(test::call_relu(int32_t(d), &x, &x, 1) == Status::BadDtype);
  }
  CHECK(test::call_relu(0, nullptr, nullptr, 0) == Status::BadDtype);
}

TEST_CASE_TEMPLATE("Max flat path: same-layout inputs and single values, any count", Tr, ONNX_OPS_ALL_TRAITS) {
  using T = typename Tr::T;
  std::mt19937_64 rng(21);
  for (int round = 0; round < 40; ++round) {
    const int n = 1 + int(rng() % 20);  // beyond the 16 kept on the stack too
    const size_t count = size_t(rng() % 5000);
    std::vector<std::vector<T>> data;
    std::vector<unsigned char> scalar;
    std::vector<const void*> ptrs;
    const int full = int(rng() % unsigned(n));  // one input at least has the output's shape
    for (int i = 0; i < n; ++i) {
      scalar.push_back(i != full && rng() % 3 == 0);
      data.push_back(test::random_vector<Tr>(rng, scalar.back() ? 1 : count));
    }
    for (auto& d : data) ptrs.push_back(d.data());
    std::vector<T> out(count);
    REQUIRE(test::call_max_flat(int32_t(test::dtype_of<Tr>()), n, ptrs.data(), scalar.data(), out.data(), count) ==
            Status::Ok);
    for (size_t k = 0; k < count; ++k) {
      T acc = data[0][scalar[0] ? 0 : k];
      for (int i = 1; i < n; ++i) acc = test::ref_max<Tr>(acc, data[size_t(i)][scalar[size_t(i)] ? 0 : k]);
      REQUIRE(test::same_bits(out[k], acc));
    }
  }
}

TEST_CASE_TEMPLATE("Max with short rows: a reused row or single values over many rows, grouped, in place too", Tr,
                   ONNX_OPS_ALL_TRAITS) {
  // Inner runs of a few elements are regrouped (ops/elementwise.cpp, run_groups):
  // every row length around the grouping limit, row counts across groups,
  // each input order, a third input (laid out as the output, or one value),
  // and the result over the full input.
  using T = typename Tr::T;
  std::mt19937_64 rng(21);
  for (int64_t c : {1, 2, 3, 5, 8, 16, 33, 100, 255, 256, 257, 1024}) {
    // A group holds 4096 bytes of rows: the last count spans three groups and a part.
    const int64_t groups3 = 3 * std::max<int64_t>(1, 4096 / (c * int64_t(sizeof(T)))) + 3;
    for (int64_t r : {int64_t(2), int64_t(5), int64_t(37), groups3}) {
      for (int variant = 0; variant < 6; ++variant) {
        std::vector<Dims> shapes = {Dims{r, c}, variant % 2 ? Dims{1, c} : Dims{c}};
        if (variant >= 2) shapes.push_back(variant >= 4 ? Dims{} : Dims{r, c});
        if (variant % 3 == 1) std::swap(shapes[0], shapes[1]);  // the row first
        const int n = int(shapes.size());
        std::vector<Shape> views;
        for (auto& s : shapes) views.push_back(Shape{s.data(), int(s.size())});
        const Dims out_dims{r, c};
        std::vector<std::vector<T>> data;
        std::vector<const void*> ptrs;
        for (auto& s : shapes) data.push_back(test::random_vector<Tr>(rng, size_t(count(s))));
        for (auto& d : data) ptrs.push_back(d.data());
        const auto want = naive_max<Tr>(shapes, data, out_dims);
        for (int in_place = 0; in_place < 2; ++in_place) {
          int full = 0;
          while (count(shapes[size_t(full)]) != r * c) ++full;
          auto copy = data[size_t(full)];
          std::vector<T> sep(want.size());
          T* dst = in_place ? copy.data() : sep.data();
          if (in_place) ptrs[size_t(full)] = copy.data();
          REQUIRE(test::call_max(int32_t(test::dtype_of<Tr>()), n, ptrs.data(), views.data(), dst,
                              Shape{out_dims.data(), 2}) == Status::Ok);
          ptrs[size_t(full)] = data[size_t(full)].data();
          for (size_t i = 0; i < want.size(); ++i) {
            INFO("c=" << c << " r=" << r << " variant=" << variant << " in_place=" << in_place << " i=" << i);
            REQUIRE(test::same_bits(dst[i], want[i]));
          }
        }
      }
    }
  }
}

TEST_CASE_TEMPLATE("Max with a value or a row per output row: gathered group by group, in place too", Tr,
                   ONNX_OPS_ALL_TRAITS) {
  // Inputs that are neither laid out as the output nor one row reused by all
  // ([R, 1] against [R, C]; [A, 1, C] or [1, B, 1] against [A, B, C]) have
  // their part of each group of rows gathered into a tile (ops/elementwise.cpp,
  // run_groups): rows from one element to just past the 512-byte limit,
  // B across groups and not dividing them (the odometer carries into A inside
  // a group), two to nine inputs, each gathered kind first or not, and the
  // result over the full input.
  using T = typename Tr::T;
  const int64_t es = int64_t(sizeof(T));
  std::mt19937_64 rng(23);
  // Row lengths: 1 element, short ones, each side of 16, 32 and 64 bytes (rows
  // up to 16 bytes take one store, four rows an iteration; longer ones are
  // widened from their first 16 bytes: ops/gather.cpp, store_heads and widen_rows),
  // and each side of the 512-byte limit.
  for (int64_t c : {int64_t(1), int64_t(2), int64_t(3), int64_t(5), 16 / es, 16 / es + 1, 32 / es, 32 / es + 1,
                    64 / es, 64 / es + 1, 512 / es, 512 / es + 1}) {
    const int64_t group = std::max<int64_t>(1, 4096 / (c * es));
    for (int64_t b : {int64_t(1), int64_t(3), group + 5}) {
      for (int64_t a : {int64_t(1), int64_t(3)}) {
        for (int variant = 0; variant < 13; ++variant) {
          std::vector<Dims> shapes;
          switch (variant) {
            case 0: shapes = {Dims{a, b, c}, Dims{a, b, 1}}; break;
            case 1: shapes = {Dims{a, b, 1}, Dims{a, b, c}}; break;
            case 2: shapes = {Dims{a, b, c}, Dims{a, 1, c}}; break;
            case 3: shapes = {Dims{1, b, 1}, Dims{a, b, c}}; break;
            case 4: shapes = {Dims{a, 1, 1}, Dims{1, b, c}}; break;
            case 5: shapes = {Dims{a, b, c}, Dims{a, b, 1}, Dims{}}; break;
            case 6: shapes = {Dims{a, 1, c}, Dims{a, b, c}, Dims{1, b, 1}}; break;
            case 7: shapes = {Dims{a, b, 1}, Dims{c}}; break;
            // Rows that follow each other within a block ([B, C]), not merged into
            // longer runs because a value per row walks B differently.
            case 8: shapes = {Dims{a, b, 1}, Dims{1, b, c}}; break;
            case 9: shapes = {Dims{1, b, c}, Dims{a, b, c}, Dims{a, b, 1}}; break;
            // Four to eight inputs (the most a group takes), and nine (row by row).
            case 10: shapes = {Dims{a, b, c}, Dims{a, b, 1}, Dims{c}, Dims{}, Dims{a, 1, c}}; break;
            case 11: shapes = {Dims{c}, Dims{a, b, c}, Dims{a, b, 1}, Dims{1, b, 1}, Dims{a, b, c},
                              Dims{}, Dims{a, 1, c}, Dims{a, b, 1}}; break;
            default: shapes = {Dims{a, b, c}, Dims{a, b, 1}, Dims{c}, Dims{}, Dims{a, 1, c}, Dims{a, b, c},
                               Dims{1, b, 1}, Dims{a, b, 1}, Dims{1, 1, c}}; break;
          }
          const Dims out_dims{a, b, c};
          const int n = int(shapes.size());
          std::vector<Shape> views;
          for (auto& s : shapes) views.push_back(Shape{s.data(), int(s.size())});
          std::vector<std::vector<T>> data;
          std::vector<const void*> ptrs;
          for (auto& s : shapes) data.push_back(test::random_vector<Tr>(rng, size_t(count(s))));
          for (auto& d : data) ptrs.push_back(d.data());
          const auto want = naive_max<Tr>(shapes, data, out_dims);
          int full = 0;
          while (full < n && count(shapes[size_t(full)]) != count(out_dims)) ++full;
          for (int in_place = 0; in_place < (full < n ? 2 : 1); ++in_place) {
            std::vector<T> copy = in_place ? data[size_t(full)] : std::vector<T>();
            std::vector<T> sep(want.size());
            T* dst = in_place ? copy.data() : sep.data();
            if (in_place) ptrs[size_t(full)] = copy.data();
            REQUIRE(test::call_max(int32_t(test::dtype_of<Tr>()), n, ptrs.data(), views.data(), dst,
                                Shape{out_dims.data(), 3}) == Status::Ok);
            if (in_place) ptrs[size_t(full)] = data[size_t(full)].data();
            size_t i = 0;
            while (i < want.size() && test::same_bits(dst[i], want[i])) ++i;
            INFO("c=" << c << " b=" << b << " a=" << a << " variant=" << variant << " in_place=" << in_place
                      << " first difference at " << i);
            REQUIRE(i == want.size());
          }
        }
      }
    }
  }
}

TEST_CASE_TEMPLATE("Max of two with a clean row or a clean value per row: the pmax shortcuts, and their fallbacks", Tr,
                   ONNX_OPS_ALL_TRAITS) {
  // For float32/float64, when the broadcast operand holds no NaN and no +0,
  // pmax alone is exact (ops/elementwise.cpp, run_clean): [R, C] with a reused row
  // [C] (rows up to 1 KiB against a tile of the row repeated, in blocks,
  // and the last rows one by one), a value per row of 17 to 32 bytes (two
  // stores a row) or of at least 64 bytes ([A, B, C] with [A, B, 1],
  // [1, B, 1] or [A, 1, 1]), against rows laid out
  // as the output or one reused row (the outer product), and rows of at least
  // 64 bytes reused within blocks ([A, B, C] with [A, 1, C]). Here the broadcast
  // operand is clean, or clean but for one NaN or +0 (then the checked path
  // runs); the other operand holds every kind of value. Rows each side of
  // 16, 32, 64 and 1024 bytes; each input order, in place over the full
  // input too. Other dtypes run the same shapes through their own paths.
  using T = typename Tr::T;
  const int64_t es = int64_t(sizeof(T));
  std::mt19937_64 rng(29);
  std::vector<T> clean, sp = test::specials<Tr>();
  T nan{};  // a NaN with a payload (the float types; the integers have none: 0 then)
  for (T x : sp) {
    if (!Tr::isnan1(x) && !test::same_bits(x, T{})) clean.push_back(x);
    if (Tr::isnan1(x) && !Tr::isnan1(nan)) nan = x;
  }
  for (int64_t c : {int64_t(1), 16 / es, 16 / es + 1, 32 / es, 32 / es + 1, 64 / es - 1, 64 / es, 64 / es + 1, 1024 / es,
                    1024 / es + 3}) {
    const int64_t group = std::max<int64_t>(1, 4096 / (c * es));
    // (a, b): a few rows; groups of rows and a part; groups and one row.
    for (const auto& ab : {std::pair<int64_t, int64_t>{3, 2}, {3, 2 * group + 3}, {1, 2 * group + 1}}) {
      const int64_t a = ab.first, b = ab.second;
      for (int variant = 0; variant < 9; ++variant) {
        // The shapes, and which input is made clean: the reused row (0, 1), the value per row
        // (2-6; in 5 and 6, the outer products, the row holds every kind of value), the row
        // reused within blocks of b rows (7, 8).
        std::vector<Dims> shapes;
        int values = 1;
        switch (variant) {
          case 0: shapes = {Dims{a, b, c}, Dims{c}}; break;
          case 1: shapes = {Dims{1, 1, c}, Dims{a, b, c}}, values = 0; break;
          case 2: shapes = {Dims{a, b, c}, Dims{a, b, 1}}; break;
          case 3: shapes = {Dims{1, b, 1}, Dims{a, b, c}}, values = 0; break;
          case 4: shapes = {Dims{a, b, c}, Dims{a, 1, 1}}; break;
          case 5: shapes = {Dims{a, b, 1}, Dims{c}}, values = 0; break;
          case 6: shapes = {Dims{1, 1, c}, Dims{a, b, 1}}; break;
          case 7: shapes = {Dims{a, b, c}, Dims{a, 1, c}}; break;
          default: shapes = {Dims{a, 1, c}, Dims{a, b, c}}, values = 0; break;
        }
        for (int spoil = 0; spoil < 3; ++spoil) {  // 0: clean; 1: one NaN; 2: one +0
          std::vector<std::vector<T>> data;
          for (int i = 0; i < 2; ++i) {
            const size_t m = size_t(count(shapes[size_t(i)]));
            if (i == values) {
              std::vector<T> v(m);
              for (auto& x : v) x = clean[rng() % clean.size()];
              if (spoil) v[rng() % m] = spoil == 1 ? nan : T{};
              data.push_back(v);
            } else {
              data.push_back(test::random_vector<Tr>(rng, m));
            }
          }
          const Dims out_dims{a, b, c};
          std::vector<Shape> views;
          for (auto& s : shapes) views.push_back(Shape{s.data(), int(s.size())});
          const auto want = naive_max<Tr>(shapes, data, out_dims);
          const int full = count(shapes[0]) == count(out_dims) ? 0 : count(shapes[1]) == count(out_dims) ? 1 : -1;
          for (int in_place = 0; in_place < (full >= 0 ? 2 : 1); ++in_place) {
            std::vector<T> copy = in_place ? data[size_t(full)] : std::vector<T>();
            std::vector<T> sep(want.size());
            T* dst = in_place ? copy.data() : sep.data();
            const void* ptrs[2] = {in_place && full == 0 ? copy.data() : data[0].data(),
                                   in_place && full == 1 ? copy.data() : data[1].data()};
            REQUIRE(test::call_max(int32_t(test::dtype_of<Tr>()), 2, ptrs, views.data(), dst, Shape{out_dims.data(), 3}) ==
                    Status::Ok);
            size_t i = 0;
            while (i < want.size() && test::same_bits(dst[i], want[i])) ++i;
            INFO("c=" << c << " b=" << b << " variant=" << variant << " spoil=" << spoil << " in_place=" << in_place
                      << " first difference at " << i);
            REQUIRE(i == want.size());
          }
        }
      }
    }
  }
}
