// SPDX-License-Identifier: Apache-2.0
// The normalisations (BatchNormalization in inference and training, Instance-, Layer-, Group-,
// RMS-, Lp-, MeanVariance-Normalization, LRN) against formulas computed here in double.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/ops/test_nn_support.h"

using namespace onnxtool;
using namespace onnxtool::test::nn;

namespace {

// Normalises rows of `cols` elements of v: (x - mean) / sqrt(var + eps), or x / rms.
std::vector<double> normalize_rows(const std::vector<double>& v, std::size_t cols, double eps,
                                   bool center = true) {
  std::vector<double> out(v.size());
  for (std::size_t r = 0; r * cols < v.size(); ++r) {
    double mean = 0, var = 0;
    for (std::size_t i = 0; i < cols; ++i) mean += v[r * cols + i];
    mean = center ? mean / static_cast<double>(cols) : 0;
    for (std::size_t i = 0; i < cols; ++i)
      var += (v[r * cols + i] - mean) * (v[r * cols + i] - mean);
    var /= static_cast<double>(cols);
    for (std::size_t i = 0; i < cols; ++i)
      out[r * cols + i] = (v[r * cols + i] - mean) / std::sqrt(var + eps);
  }
  return out;
}

}  // namespace

TEST_CASE("BatchNormalization: inference in every version and type") {
  const Tensor x = random_tensor(DataType::float32, {2, 3, 4, 5}, 1);
  const Tensor s = random_tensor(DataType::float32, {3}, 2),
               b = random_tensor(DataType::float32, {3}, 3);
  const Tensor m = random_tensor(DataType::float32, {3}, 4),
               v = random_tensor(DataType::float32, {3}, 5, 0.5, 2);
  std::vector<double> want(static_cast<std::size_t>(x.numel()));
  const auto xv = values(x), sv = values(s), bv = values(b), mv = values(m), vv = values(v);
  for (std::size_t i = 0; i < want.size(); ++i) {
    const std::size_t c = i / 20 % 3;
    want[i] = sv[c] * (xv[i] - mv[c]) / std::sqrt(vv[c] + 1e-3) + bv[c];
  }
  for (int opset : {6, 7, 9, 14, 15}) {
    CAPTURE(opset);
    std::string attrs = "<epsilon = 1e-3" + std::string(opset < 7 ? ", is_test = 1" : "") + ">";
    NodeCase n{"y = BatchNormalization " + attrs + " (x, s, b, m, v)",
               opset,
               {{"x", x}},
               {{"s", s}, {"b", b}, {"m", m}, {"v", v}}};
    check_close(run_node(n)[0].tensor(), doubles(x.shape(), want), 1e-5, 1e-5);
  }
  NodeCase h{"y = BatchNormalization <epsilon = 1e-3> (x, s, b, m, v)",
             15,
             {{"x", cast_to(x, DataType::float16)}},
             {{"s", s}, {"b", b}, {"m", m}, {"v", v}}};
  check_close(run_node(h)[0].tensor(), doubles(x.shape(), want), 1e-2, 1e-2);
  NodeCase d{"y = BatchNormalization <epsilon = 1e-3> (x, s, b, m, v)",
             9,
             {{"x", cast_to(x, DataType::float64)}},
             {{"s", cast_to(s, DataType::float64)},
              {"b", cast_to(b, DataType::float64)},
              {"m", cast_to(m, DataType::float64)},
              {"v", cast_to(v, DataType::float64)}}};
  check_close(run_node(d)[0].tensor(), doubles(x.shape(), want), 1e-6, 1e-6);
}

TEST_CASE("BatchNormalization: spatial 0 keeps statistics per activation (before 9)") {
  const Tensor x = random_tensor(DataType::float32, {2, 2, 3}, 6);
  const Tensor s = random_tensor(DataType::float32, {2, 3}, 7),
               b = random_tensor(DataType::float32, {2, 3}, 8);
  const Tensor m = random_tensor(DataType::float32, {2, 3}, 9),
               v = random_tensor(DataType::float32, {2, 3}, 10, 0.5, 1);
  const auto xv = values(x), sv = values(s), bv = values(b), mv = values(m), vv = values(v);
  std::vector<double> want(xv.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    const std::size_t k = i % 6;
    want[i] = sv[k] * (xv[i] - mv[k]) / std::sqrt(vv[k] + 1e-5) + bv[k];
  }
  NodeCase n{"y = BatchNormalization <spatial = 0> (x, s, b, m, v)",
             7,
             {{"x", x}, {"s", s}, {"b", b}, {"m", m}, {"v", v}}};
  check_close(run_node(n)[0].tensor(), doubles(x.shape(), want), 1e-5, 1e-5);
}

TEST_CASE("BatchNormalization: training mode gives batch statistics and running averages") {
  const Tensor x = random_tensor(DataType::float32, {3, 2, 4}, 11);
  const Tensor s = random_tensor(DataType::float32, {2}, 12),
               b = random_tensor(DataType::float32, {2}, 13);
  const Tensor m = random_tensor(DataType::float32, {2}, 14),
               v = random_tensor(DataType::float32, {2}, 15, 0.5, 1);
  const auto xv = values(x), sv = values(s), bv = values(b), mv = values(m), vv = values(v);
  std::vector<double> mean(2), var(2), want(xv.size()), rm(2), rv(2);
  for (std::size_t c = 0; c < 2; ++c) {
    for (std::size_t n = 0; n < 3; ++n)
      for (std::size_t i = 0; i < 4; ++i) mean[c] += xv[n * 8 + c * 4 + i] / 12;
    for (std::size_t n = 0; n < 3; ++n)
      for (std::size_t i = 0; i < 4; ++i)
        var[c] += std::pow(xv[n * 8 + c * 4 + i] - mean[c], 2) / 12;
    rm[c] = mv[c] * 0.8 + mean[c] * 0.2;
    rv[c] = vv[c] * 0.8 + var[c] * 0.2;
  }
  for (std::size_t i = 0; i < want.size(); ++i) {
    const std::size_t c = i / 4 % 2;
    want[i] = sv[c] * (xv[i] - mean[c]) / std::sqrt(var[c] + 1e-5) + bv[c];
  }
  NodeCase n{"y, rm, rv = BatchNormalization <training_mode = 1, momentum = 0.8> (x, s, b, m, v)",
             15,
             {{"x", x}, {"s", s}, {"b", b}, {"m", m}, {"v", v}}};
  auto out = run_node(n);
  check_close(out[0].tensor(), doubles(x.shape(), want), 1e-5, 1e-5);
  check_close(out[1].tensor(), doubles({2}, rm), 1e-5, 1e-6);
  check_close(out[2].tensor(), doubles({2}, rv), 1e-5, 1e-6);
  n.node = "y, rm, rv, sm, sv = BatchNormalization <momentum = 0.8> (x, s, b, m, v)";
  n.opset = 9;
  out = run_node(n);
  check_close(out[0].tensor(), doubles(x.shape(), want), 1e-5, 1e-5);
  check_close(out[3].tensor(), doubles({2}, mean), 1e-5, 1e-6);
  check_close(out[4].tensor(), doubles({2}, var), 1e-5, 1e-6);
  CHECK(run_error({"y = BatchNormalization (x, s, b, m, v)",
                   15,
                   {{"x", x}, {"s", Tensor(DataType::float32, {3})}, {"b", b}, {"m", m}, {"v", v}}})
            .find("scale has shape [3], expected 2 values") != std::string::npos);
  CHECK(infer_node("y, rm, rv = BatchNormalization <training_mode = 1> (x, s, b, m, v)", 15,
                   {{"x", "float16[N,C,H,W]"},
                    {"s", "float[C]"},
                    {"b", "float[C]"},
                    {"m", "float[C]"},
                    {"v", "float[C]"}}) ==
        std::vector<std::string>{"float16[N,C,H,W]", "float[C]", "float[C]"});
}

TEST_CASE("InstanceNormalization and GroupNormalization") {
  const Tensor x = random_tensor(DataType::float32, {2, 4, 3, 5}, 21);
  const Tensor s = random_tensor(DataType::float32, {4}, 22),
               b = random_tensor(DataType::float32, {4}, 23);
  const auto xv = values(x), sv = values(s), bv = values(b);
  std::vector<double> inst = normalize_rows(xv, 15, 1e-5), grp = normalize_rows(xv, 30, 1e-2);
  for (std::size_t i = 0; i < xv.size(); ++i) {
    const std::size_t c = i / 15 % 4;
    inst[i] = inst[i] * sv[c] + bv[c];
    grp[i] = grp[i] * sv[c] + bv[c];
  }
  check_close(
      run_node({"y = InstanceNormalization (x, s, b)", 6, {{"x", x}, {"s", s}, {"b", b}}})[0]
          .tensor(),
      doubles(x.shape(), inst), 1e-5, 1e-5);
  check_close(run_node({"y = InstanceNormalization (x, s, b)",
                        22,
                        {{"x", cast_to(x, DataType::bfloat16)},
                         {"s", cast_to(s, DataType::bfloat16)},
                         {"b", cast_to(b, DataType::bfloat16)}}})[0]
                  .tensor(),
              doubles(x.shape(), inst), 5e-2, 5e-2);
  check_close(run_node({"y = GroupNormalization <num_groups = 2, epsilon = 1e-2> (x, s, b)",
                        21,
                        {{"x", x}, {"s", s}, {"b", b}}})[0]
                  .tensor(),
              doubles(x.shape(), grp), 1e-5, 1e-5);
  CHECK(
      run_error(
          {"y = GroupNormalization <num_groups = 3> (x, s, b)", 21, {{"x", x}, {"s", s}, {"b", b}}})
          .find("does not divide the 4 channels") != std::string::npos);
  CHECK(infer_node("y = InstanceNormalization (x, s, b)", 6,
                   {{"x", "float[N,3,H]"}, {"s", "float[3]"}, {"b", "float[3]"}}) ==
        std::vector<std::string>{"float[N,3,H]"});
}

TEST_CASE("LayerNormalization and RMSNormalization: axes, statistics outputs, broadcast scale") {
  const Tensor x = random_tensor(DataType::float32, {2, 3, 4}, 31);
  const auto xv = values(x);
  for (int64_t axis : {1, -1, 0}) {
    CAPTURE(axis);
    const std::size_t k = axis == 1 ? 1 : axis == -1 ? 2 : 0;
    const Shape norm(x.shape().begin() + static_cast<std::ptrdiff_t>(k), x.shape().end());
    int64_t cols = 1;
    for (int64_t d : norm) cols *= d;
    const Tensor s = random_tensor(DataType::float32, norm, 32),
                 b = random_tensor(DataType::float32, {norm.back()}, 33);
    const auto sv = values(s), bv = values(b);
    std::vector<double> y = normalize_rows(xv, static_cast<std::size_t>(cols), 1e-5);
    std::vector<double> r = normalize_rows(xv, static_cast<std::size_t>(cols), 1e-5, false);
    for (std::size_t i = 0; i < y.size(); ++i) {
      const std::size_t j = i % static_cast<std::size_t>(cols);
      y[i] = y[i] * sv[j] + bv[j % static_cast<std::size_t>(norm.back())];
      r[i] = r[i] * sv[j];
    }
    const std::string a = "<axis = " + std::to_string(axis) + ">";
    auto out = run_node(
        {"y, m, inv = LayerNormalization " + a + " (x, s, b)", 17, {{"x", x}, {"s", s}, {"b", b}}});
    check_close(out[0].tensor(), doubles(x.shape(), y), 1e-5, 1e-5);
    Shape stats = x.shape();
    for (std::size_t i = k; i < stats.size(); ++i) stats[i] = 1;
    CHECK(shape_to_string(out[1].tensor().shape()) == shape_to_string(stats));
    CHECK(out[2].tensor().dtype() == DataType::float32);
    check_close(
        run_node({"y = RMSNormalization " + a + " (x, s)", 23, {{"x", x}, {"s", s}}})[0].tensor(),
        doubles(x.shape(), r), 1e-5, 1e-5);
  }
  // RMSNormalization's output takes the scale's type.
  const Tensor s16 = random_tensor(DataType::float16, {4}, 34);
  CHECK(run_node({"y = RMSNormalization (x, s)", 23, {{"x", x}, {"s", s16}}})[0].tensor().dtype() ==
        DataType::float16);
  CHECK(infer_node("y, m, inv = LayerNormalization <axis = -2> (x, s)", 17,
                   {{"x", "float16[B,S,D]"}, {"s", "float16[S,D]"}}) ==
        std::vector<std::string>{"float16[B,S,D]", "float[B,1,1]", "float[B,1,1]"});
}

TEST_CASE("LpNormalization, MeanVarianceNormalization, LRN") {
  const Tensor x = random_tensor(DataType::float32, {2, 3, 2, 2}, 41);
  const auto xv = values(x);
  std::vector<double> l1(xv.size()), l2(xv.size());
  for (std::size_t o = 0; o < 2; ++o)
    for (std::size_t i = 0; i < 4; ++i) {
      double a = 0, q = 0;
      for (std::size_t c = 0; c < 3; ++c) {
        a += std::abs(xv[o * 12 + c * 4 + i]);
        q += xv[o * 12 + c * 4 + i] * xv[o * 12 + c * 4 + i];
      }
      for (std::size_t c = 0; c < 3; ++c) {
        l1[o * 12 + c * 4 + i] = xv[o * 12 + c * 4 + i] / a;
        l2[o * 12 + c * 4 + i] = xv[o * 12 + c * 4 + i] / std::sqrt(q);
      }
    }
  check_close(run_node({"y = LpNormalization <axis = 1, p = 1> (x)", 1, {{"x", x}}})[0].tensor(),
              doubles(x.shape(), l1), 1e-5, 1e-6);
  check_close(run_node({"y = LpNormalization <axis = -3> (x)", 22, {{"x", x}}})[0].tensor(),
              doubles(x.shape(), l2), 1e-5, 1e-6);
  // MVN over the default axes [0, 2, 3]: per channel over batch and space.
  std::vector<double> mvn(xv.size());
  for (std::size_t c = 0; c < 3; ++c) {
    double m = 0, sq = 0;
    for (std::size_t o = 0; o < 2; ++o)
      for (std::size_t i = 0; i < 4; ++i) {
        m += xv[o * 12 + c * 4 + i] / 8;
        sq += xv[o * 12 + c * 4 + i] * xv[o * 12 + c * 4 + i] / 8;
      }
    for (std::size_t o = 0; o < 2; ++o)
      for (std::size_t i = 0; i < 4; ++i)
        mvn[o * 12 + c * 4 + i] = (xv[o * 12 + c * 4 + i] - m) / (std::sqrt(sq - m * m) + 1e-9);
  }
  check_close(run_node({"y = MeanVarianceNormalization (x)", 13, {{"x", x}}})[0].tensor(),
              doubles(x.shape(), mvn), 1e-4, 1e-5);
  // LRN with size 2: channels [c, c+1].
  std::vector<double> lrn(xv.size());
  for (std::size_t i = 0; i < xv.size(); ++i) {
    const std::size_t c = i / 4 % 3;
    double sq = xv[i] * xv[i];
    if (c + 1 < 3) sq += xv[i + 4] * xv[i + 4];
    lrn[i] = xv[i] / std::pow(2.0 + 0.1 / 2 * sq, 0.6);
  }
  check_close(
      run_node({"y = LRN <size = 2, alpha = 0.1, beta = 0.6, bias = 2.0> (x)", 13, {{"x", x}}})[0]
          .tensor(),
      doubles(x.shape(), lrn), 1e-5, 1e-6);
  CHECK(infer_node("y = LRN <size = 3> (x)", 1, {{"x", "float16[N,C,H,W]"}}) ==
        std::vector<std::string>{"float16[N,C,H,W]"});
}
