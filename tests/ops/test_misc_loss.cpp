// SPDX-License-Identifier: Apache-2.0
// NegativeLogLikelihoodLoss and SoftmaxCrossEntropyLoss: weights, ignore_index, the three
// reductions, extra spatial dims, double and float16, errors, inference.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/ops/test_misc_support.h"

using namespace onnxtool;
using namespace onnxtool::test::misc;

namespace {
const std::string k13 = "<ir_version: 10, opset_import: [\"\" : 13]>\n";
}

TEST_CASE("NegativeLogLikelihoodLoss with weights and an ignored target, each reduction") {
  // input (N=2, C=3), target (2): row 0 picks class 2, row 1 is ignored (-1).
  const Tensor input = f32({2, 3}, {-1, -2, -3, -4, -5, -6});
  const Tensor target = i64({2}, {2, -1});
  const Tensor weight = f32({3}, {1, 2, 4});
  for (const char* red : {"none", "sum", "mean"}) {
    const std::string m = k13 +
                          "g (float[2,3] x, int64[2] t, float[3] w) => (float[] y) { y = "
                          "NegativeLogLikelihoodLoss <reduction = \"" +
                          red + "\", ignore_index = -1> (x, t, w) }";
    auto out = run(m, {{"x", input}, {"t", target}, {"w", weight}});
    if (std::string(red) == "none")
      check_close(out[0].tensor(), {2}, {12, 0});
    else if (std::string(red) == "sum")
      check_close(out[0].tensor(), {}, {12});
    else
      check_close(out[0].tensor(), {}, {3});  // 12 / weight 4
  }
}

TEST_CASE("NegativeLogLikelihoodLoss over spatial dims in double, and out-of-range targets") {
  const std::string m =
      k13 +
      "g (double[1,2,2] x, int32[1,2] t) => (double y) { y = NegativeLogLikelihoodLoss (x, t) }";
  auto out = run(m, {{"x", f64({1, 2, 2}, {-1, -2, -3, -4})}, {"t", i32({1, 2}, {1, 0})}});
  // (3 + 2) / 2
  check_close(out[0].tensor(), {}, {2.5});
  CHECK(run_error(m, {{"x", f64({1, 2, 2}, {-1, -2, -3, -4})}, {"t", i32({1, 2}, {2, 0})}})
            .find("out of range") != std::string::npos);
  CHECK(run_error(m, {{"x", f64({1, 2, 2}, {-1, -2, -3, -4})}, {"t", i32({1, 1}, {0})}}).size() >
        0);
}

TEST_CASE("SoftmaxCrossEntropyLoss gives the loss and the log-probabilities") {
  const std::string m = k13 + R"(g (float[2,2] x, int64[2] t) => (float y, float[2,2] lp) {
    y, lp = SoftmaxCrossEntropyLoss (x, t)
  })";
  auto out = run(m, {{"x", f32({2, 2}, {0, 0, 1, 3})}, {"t", i64({2}, {0, 1})}});
  const double l0 = std::log(2.0), l1 = std::log(1 + std::exp(-2.0));
  check_close(out[0].tensor(), {}, {(l0 + l1) / 2});
  check_close(out[1].tensor(), {2, 2}, {-l0, -l0, -2 - l1, -l1});
  const auto t = infer(m);
  CHECK(t.at("y") == "float");
  CHECK(t.at("lp") == "float[2,2]");
}

TEST_CASE("SoftmaxCrossEntropyLoss mean without weights divides by the elements not ignored") {
  const std::string m = k13 + R"(g (float[3,2] x, int64[3] t) => (float y) {
    y = SoftmaxCrossEntropyLoss <ignore_index = 1> (x, t)
  })";
  auto out = run(m, {{"x", f32({3, 2}, {0, 0, 0, 0, 0, 0})}, {"t", i64({3}, {0, 1, 1})}});
  check_close(out[0].tensor(), {}, {std::log(2.0)});
}

TEST_CASE("SoftmaxCrossEntropyLoss in float16") {
  const std::string m =
      k13 + "g (float16[1,2] x, int64[1] t) => (float16 y) { y = SoftmaxCrossEntropyLoss (x, t) }";
  auto out = run(m, {{"x", cast(f32({1, 2}, {0, 0}), DataType::float16)}, {"t", i64({1}, {1})}});
  CHECK(out[0].tensor().dtype() == DataType::float16);
  check_close(out[0].tensor(), {}, {std::log(2.0)}, 1e-3);
}

TEST_CASE("loss inference: shapes per reduction, contradictions") {
  const std::string m =
      k13 + R"(g (float[N,C,H] x, int64[N,H] t, float[C] w) => (float[] a, float[] b) {
    a = NegativeLogLikelihoodLoss <reduction = "none"> (x, t, w)
    b = SoftmaxCrossEntropyLoss <reduction = "sum"> (x, t, w)
  })";
  const auto t = infer(m);
  CHECK(t.at("a") == "float[N,H]");
  CHECK(t.at("b") == "float");
  const std::string bad =
      k13 +
      "g (float[2,3,4] x, int64[2,5] t) => (float y) { y = NegativeLogLikelihoodLoss (x, t) }";
  CHECK(infer(bad).count("error") == 1);
  const std::string bad_red = k13 +
                              "g (float[2,3] x, int64[2] t) => (float y) { y = "
                              "NegativeLogLikelihoodLoss <reduction = \"avg\"> (x, t) }";
  CHECK(infer(bad_red).count("error") == 1);
}
