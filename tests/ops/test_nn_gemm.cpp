// SPDX-License-Identifier: Apache-2.0
// MatMul and Gemm: BLAS and matrix-vector paths against a plain triple loop, batch broadcasting,
// 1-D operands, integer types (wrapping), narrow floats, C broadcasting, inference.
#include <doctest/doctest.h>

#include "tests/ops/test_nn_support.h"

using namespace onnxtool;
using namespace onnxtool::test::nn;

namespace {

// numpy.matmul in double, for the shapes the tests use (batch dims broadcast right-aligned).
Tensor reference_matmul(const Tensor& a, const Tensor& b) {
  Shape sa = a.shape(), sb = b.shape();
  const bool av = sa.size() == 1, bv = sb.size() == 1;
  if (av) sa.insert(sa.begin(), 1);
  if (bv) sb.push_back(1);
  const int64_t m = sa[sa.size() - 2], k = sa.back(), n = sb.back();
  Shape ba(sa.begin(), sa.end() - 2), bb(sb.begin(), sb.end() - 2);
  const std::size_t r = std::max(ba.size(), bb.size());
  ba.insert(ba.begin(), r - ba.size(), 1);
  bb.insert(bb.begin(), r - bb.size(), 1);
  Shape batch(r);
  int64_t items = 1;
  for (std::size_t i = 0; i < r; ++i) items *= (batch[i] = std::max(ba[i], bb[i]));
  Shape out = batch;
  if (!av) out.push_back(m);
  if (!bv) out.push_back(n);
  const std::vector<double> va = values(a), vb = values(b);
  std::vector<double> y(static_cast<std::size_t>(items * m * n));
  for (int64_t it = 0; it < items; ++it) {
    int64_t ia = 0, ib = 0, rest = it;
    std::vector<int64_t> idx(r);
    for (std::size_t d = r; d-- > 0;) {
      idx[d] = rest % batch[d];
      rest /= batch[d];
    }
    for (std::size_t d = 0; d < r; ++d) {
      ia = ia * ba[d] + (ba[d] == 1 ? 0 : idx[d]);
      ib = ib * bb[d] + (bb[d] == 1 ? 0 : idx[d]);
    }
    for (int64_t i = 0; i < m; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double s = 0;
        for (int64_t p = 0; p < k; ++p)
          s += va[static_cast<std::size_t>(ia * m * k + i * k + p)] *
               vb[static_cast<std::size_t>(ib * k * n + p * n + j)];
        y[static_cast<std::size_t>(it * m * n + i * n + j)] = s;
      }
  }
  return doubles(out, y);
}

void check_matmul(const Shape& sa, const Shape& sb, DataType type = DataType::float32,
                  double tol = 1e-4) {
  const Tensor a = random_tensor(type, sa, 21), b = random_tensor(type, sb, 22);
  const Tensor got = run_node({"y = MatMul (a, b)", 13, {{"a", a}, {"b", b}}})[0].tensor();
  CHECK(got.dtype() == type);
  check_close(got, reference_matmul(a, b), tol, tol);
}

}  // namespace

TEST_CASE("MatMul: shapes, broadcasting and 1-D operands") {
  check_matmul({3, 4}, {4, 5});
  check_matmul({1, 300}, {300, 200});      // a single row: the matrix-vector path
  check_matmul({2, 3, 64, 48}, {48, 40});  // batch folded into rows
  check_matmul({2, 1, 5, 6}, {3, 6, 7});   // both broadcast
  check_matmul({4, 5, 6}, {4, 6, 3});
  check_matmul({6}, {6, 4});
  check_matmul({2, 3, 6}, {6});
  check_matmul({5}, {5});
  check_matmul({128, 96}, {96, 160});  // split over threads
  check_matmul({3, 0}, {0, 4});        // empty inner dim: zeros
  check_matmul({0, 4}, {4, 2});
}

TEST_CASE("MatMul with a constant B (packed once): the bits of B fed at run time") {
  struct Case {
    Shape a, b;
    int threads;
  };
  const Case cases[] = {{{128, 96}, {96, 160}, 2},
                        {{1, 7, 33}, {33, 70}, 2},
                        {{3, 5, 40}, {1, 40, 300}, 2},
                        {{8, 2, 16}, {16, 9}, 2},
                        {{128, 96}, {96, 160}, 1},
                        {{1, 300}, {300, 33}, 2},
                        // A packed once for the column tiles, over several k blocks
                        {{2, 40, 700}, {700, 90}, 2}};
  for (const Case& c : cases) {
    INFO("a=", shape_to_string(c.a), " b=", shape_to_string(c.b), " threads=", c.threads);
    const Tensor a = random_tensor(DataType::float32, c.a, 31),
                 b = random_tensor(DataType::float32, c.b, 32);
    const Tensor fed =
        run_node({"y = MatMul (a, b)", 13, {{"a", a}, {"b", b}}, {}, c.threads})[0].tensor();
    const Tensor constant =
        run_node({"y = MatMul (a, b)", 13, {{"a", a}}, {{"b", b}}, c.threads})[0].tensor();
    CHECK(values(constant) == values(fed));
    check_close(constant, reference_matmul(a, b), 1e-4, 1e-4);
  }
  // float16 operands go through float32, the constant B packed in float32.
  const Tensor a = random_tensor(DataType::float16, {9, 24}, 33),
               b = random_tensor(DataType::float16, {24, 40}, 34);
  const Tensor fed = run_node({"y = MatMul (a, b)", 13, {{"a", a}, {"b", b}}})[0].tensor();
  const Tensor constant = run_node({"y = MatMul (a, b)", 13, {{"a", a}}, {{"b", b}}})[0].tensor();
  CHECK(values(constant) == values(fed));
}

TEST_CASE("MatMul: element types") {
  check_matmul({3, 4}, {4, 5}, DataType::float64, 1e-12);
  check_matmul({2, 3, 4}, {4, 5}, DataType::float16, 1e-2);
  check_matmul({3, 4}, {4, 5}, DataType::bfloat16, 5e-2);
  for (DataType t : {DataType::int32, DataType::int64, DataType::uint32, DataType::uint64}) {
    CAPTURE(type_name(t));
    const Tensor a = random_tensor(t, {2, 3, 4}, 31, 0, 20),
                 b = random_tensor(t, {4, 5}, 32, 0, 20);
    check_close(run_node({"y = MatMul (a, b)", 13, {{"a", a}, {"b", b}}})[0].tensor(),
                reference_matmul(a, b), 0, 0);
  }
  // int32 products wrap as two's complement.
  const Tensor big = cast_to(doubles({1, 1}, {65536}), DataType::int32);
  CHECK(values(run_node({"y = MatMul (a, b)", 13, {{"a", big}, {"b", big}}})[0].tensor()) ==
        std::vector<double>{0});
  CHECK(run_error(
            {"y = MatMul (a, b)",
             13,
             {{"a", Tensor(DataType::float32, {2, 3})}, {"b", Tensor(DataType::float32, {4, 2})}}})
            .find("do not multiply") != std::string::npos);
  CHECK(run_error({"y = MatMul (a, b)",
                   13,
                   {{"a", Tensor(DataType::float32, {2, 2, 3})},
                    {"b", Tensor(DataType::float32, {3, 3, 2})}}})
            .find("do not broadcast") != std::string::npos);
}

namespace {

Tensor reference_gemm(const Tensor& a, const Tensor& b, const Tensor* c, bool ta, bool tb,
                      double alpha, double beta) {
  const int64_t m = a.shape()[ta ? 1 : 0], k = a.shape()[ta ? 0 : 1], n = b.shape()[tb ? 0 : 1];
  const std::vector<double> va = values(a), vb = values(b);
  const std::vector<double> vc = c ? values(*c) : std::vector<double>{};
  std::vector<double> y(static_cast<std::size_t>(m * n));
  for (int64_t i = 0; i < m; ++i)
    for (int64_t j = 0; j < n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < k; ++p)
        s += va[static_cast<std::size_t>(ta ? p * m + i : i * k + p)] *
             vb[static_cast<std::size_t>(tb ? j * k + p : p * n + j)];
      double cv = 0;
      if (c) {
        const Shape& cs = c->shape();
        const int64_t cn = cs.empty() ? 1 : cs.back(), cm = cs.size() < 2 ? 1 : cs[0];
        cv = vc[static_cast<std::size_t>((cm == 1 ? 0 : i) * cn + (cn == 1 ? 0 : j))];
      }
      y[static_cast<std::size_t>(i * n + j)] = alpha * s + beta * cv;
    }
  return doubles({m, n}, y);
}

void check_gemm(int64_t m, int64_t n, int64_t k, bool ta, bool tb, const Shape& c_shape,
                int opset = 13, DataType type = DataType::float32, double tol = 1e-4) {
  const Tensor a = random_tensor(type, ta ? Shape{k, m} : Shape{m, k}, 41);
  const Tensor b = random_tensor(type, tb ? Shape{n, k} : Shape{k, n}, 42);
  const bool has_c = !(c_shape.size() == 1 && c_shape[0] == -1);
  const Tensor c = random_tensor(type, has_c ? c_shape : Shape{}, 43);
  std::string node = "y = Gemm <alpha = 0.5, beta = 2.0, transA = " + std::to_string(ta) +
                     ", transB = " + std::to_string(tb) + "> (a, b" + (has_c ? ", c)" : ")");
  NodeCase nc{node, opset, {{"a", a}}, {{"b", b}}};
  if (has_c) nc.initializers.emplace_back("c", c);
  const Tensor got = run_node(nc)[0].tensor();
  check_close(got, reference_gemm(a, b, has_c ? &c : nullptr, ta, tb, 0.5, 2.0), tol, tol);
}

}  // namespace

TEST_CASE("Gemm: transposes, C broadcasting, the fully connected path") {
  for (int ta = 0; ta < 2; ++ta)
    for (int tb = 0; tb < 2; ++tb) {
      CAPTURE(ta);
      CAPTURE(tb);
      check_gemm(5, 7, 6, ta, tb, {5, 7});
      check_gemm(1, 300, 257, ta, tb, {300});  // one sample through a fully connected layer
      check_gemm(4, 3, 2, ta, tb, {1});
      check_gemm(4, 3, 2, ta, tb, {4, 1});
      check_gemm(4, 3, 2, ta, tb, {});
    }
  check_gemm(64, 80, 96, false, true, {-1});  // no C (11+)
  check_gemm(3, 4, 5, false, false, {3, 4}, 6);
  check_gemm(3, 4, 5, true, false, {4}, 9, DataType::float64, 1e-12);
  check_gemm(3, 4, 5, false, true, {4}, 13, DataType::float16, 2e-2);
  check_gemm(3, 4, 5, false, true, {4}, 13, DataType::bfloat16, 6e-2);
  const Tensor a = random_tensor(DataType::int64, {2, 3}, 1, -5, 5);
  const Tensor b = random_tensor(DataType::int64, {3, 2}, 2, -5, 5);
  const Tensor c = random_tensor(DataType::int64, {2}, 3, -5, 5);
  check_close(run_node({"y = Gemm (a, b, c)", 11, {{"a", a}, {"b", b}, {"c", c}}})[0].tensor(),
              reference_gemm(a, b, &c, false, false, 1, 1), 0, 0);
  CHECK(run_error({"y = Gemm (a, b, c)",
                   11,
                   {{"a", Tensor(DataType::float32, {2, 3})},
                    {"b", Tensor(DataType::float32, {3, 4})},
                    {"c", Tensor(DataType::float32, {3})}}})
            .find("does not broadcast to [2,4]") != std::string::npos);
}

TEST_CASE("MatMul and Gemm: inference") {
  CHECK(infer_node("y = MatMul (a, b)", 13, {{"a", "float[B,S,64]"}, {"b", "float[64,K]"}}) ==
        std::vector<std::string>{"float[B,S,K]"});
  CHECK(infer_node("y = MatMul (a, b)", 13, {{"a", "int32[5]"}, {"b", "int32[3,5,2]"}}) ==
        std::vector<std::string>{"int32[3,2]"});
  CHECK(infer_node("y = Gemm <transA = 1, transB = 1> (a, b, c)", 11,
                   {{"a", "float[K,M]"}, {"b", "float[N,K]"}, {"c", "float[N]"}}) ==
        std::vector<std::string>{"float[M,N]"});
  CHECK(infer_node("y = Gemm (a, b)", 11, {{"a", "float[2,3]"}, {"b", "float[4,5]"}})[0].find(
            "error:") == 0);
}
