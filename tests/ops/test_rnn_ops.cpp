// SPDX-License-Identifier: Apache-2.0
// RNN, GRU and LSTM on hand-computed one-unit cases: the cell equations (peepholes, coupled
// gates, linear_before_reset), directions, variable sequence lengths, layout 1, activations
// with parameters, clip, double, errors and inference.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/ops/test_misc_support.h"

using namespace onnxtool;
using namespace onnxtool::test::misc;

namespace {

double sigmoid(double x) {
  return 1 / (1 + std::exp(-x));
}

std::string model(int opset, const std::string& body) {
  return "<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" + body;
}

}  // namespace

TEST_CASE("RNN: one unit over two steps, with bias and initial state") {
  const std::string m = model(
      14,
      R"(g (float[2,1,1] x, float[1,1,1] w, float[1,1,1] r, float[1,2] b, float[1,1,1] h0) => (float[2,1,1,1] y, float[1,1,1] yh) {
    y, yh = RNN <hidden_size = 1> (x, w, r, b, "", h0)
  })");
  auto out = run(m, {{"x", f32({2, 1, 1}, {1, 2})},
                     {"w", f32({1, 1, 1}, {0.5})},
                     {"r", f32({1, 1, 1}, {0.25})},
                     {"b", f32({1, 2}, {0.1f, 0.2f})},
                     {"h0", f32({1, 1, 1}, {0.3f})}});
  const double h1 = std::tanh(0.5 * 1 + 0.25 * 0.3 + 0.3);
  const double h2 = std::tanh(0.5 * 2 + 0.25 * h1 + 0.3);
  check_close(out[0].tensor(), {2, 1, 1, 1}, {h1, h2});
  check_close(out[1].tensor(), {1, 1, 1}, {h2});
  const auto t = infer(m);
  CHECK(t.at("y") == "float[2,1,1,1]");
  CHECK(t.at("yh") == "float[1,1,1]");
}

TEST_CASE("RNN: reverse, bidirectional and per-batch sequence lengths") {
  const std::string m = model(
      14,
      R"(g (float[2,2,1] x, float[2,1,1] w, float[2,1,1] r, int32[2] lens) => (float[2,2,2,1] y, float[2,2,1] yh) {
    y, yh = RNN <hidden_size = 1, direction = "bidirectional", activations = ["Relu", "Relu"]> (x, w, r, "", lens)
  })");
  // Relu with w = 1, r = 1 sums the inputs seen so far; batch 1 has length 1.
  auto out = run(m, {{"x", f32({2, 2, 1}, {1, 10, 2, 20})},
                     {"w", f32({2, 1, 1}, {1, 1})},
                     {"r", f32({2, 1, 1}, {1, 1})},
                     {"lens", i32({2}, {2, 1})}});
  // y[t, dir, batch]: forward batch 0: 1, 3; backward batch 0: t=1 sees 2, t=0 sees 3.
  check_close(out[0].tensor(), {2, 2, 2, 1}, {1, 10, 3, 10, 3, 0, 2, 0});
  check_close(out[1].tensor(), {2, 2, 1}, {3, 10, 3, 10});
}

TEST_CASE("RNN: layout 1 puts the batch first") {
  const std::string m = model(
      14,
      R"(g (float[1,2,1] x, float[1,1,1] w, float[1,1,1] r) => (float[1,2,1,1] y, float[1,1,1] yh) {
    y, yh = RNN <hidden_size = 1, layout = 1, activations = ["Relu"]> (x, w, r)
  })");
  auto out = run(
      m, {{"x", f32({1, 2, 1}, {1, 2})}, {"w", f32({1, 1, 1}, {1})}, {"r", f32({1, 1, 1}, {1})}});
  check_close(out[0].tensor(), {1, 2, 1, 1}, {1, 3});
  CHECK(infer(m).at("y") == "float[1,2,1,1]");
}

TEST_CASE("GRU: both linear_before_reset forms match the equations") {
  for (int lbr : {0, 1}) {
    const std::string m = model(
        14,
        R"(g (float[1,1,1] x, float[1,3,1] w, float[1,3,1] r, float[1,6] b, float[1,1,1] h0) => (float[1,1,1,1] y) {
      y = GRU <hidden_size = 1, linear_before_reset = )" +
            std::to_string(lbr) + R"(> (x, w, r, b, "", h0)
    })");
    const double x = 0.7, h = 0.4;
    const double wz = 0.1, wr = 0.2, wh = 0.3, rz = 0.4, rr = 0.5, rh = 0.6;
    const double bwz = 0.01, bwr = 0.02, bwh = 0.03, brz = 0.04, brr = 0.05, brh = 0.06;
    auto out = run(m, {{"x", f32({1, 1, 1}, {0.7f})},
                       {"w", f32({1, 3, 1}, {0.1f, 0.2f, 0.3f})},
                       {"r", f32({1, 3, 1}, {0.4f, 0.5f, 0.6f})},
                       {"b", f32({1, 6}, {0.01f, 0.02f, 0.03f, 0.04f, 0.05f, 0.06f})},
                       {"h0", f32({1, 1, 1}, {0.4f})}});
    const double z = sigmoid(x * wz + h * rz + bwz + brz),
                 rg = sigmoid(x * wr + h * rr + bwr + brr);
    const double hh = lbr ? std::tanh(x * wh + rg * (h * rh + brh) + bwh)
                          : std::tanh(x * wh + (rg * h) * rh + brh + bwh);
    check_close(out[0].tensor(), {1, 1, 1, 1}, {(1 - z) * hh + z * h});
  }
}

TEST_CASE("LSTM: peepholes, then coupled input and forget gates, in double") {
  for (int coupled : {0, 1}) {
    const std::string m = model(
        14,
        R"(g (double[1,1,1] x, double[1,4,1] w, double[1,4,1] r, double[1,3] p, double[1,1,1] h0, double[1,1,1] c0) => (double[1,1,1,1] y, double[1,1,1] yc) {
      y, "", yc = LSTM <hidden_size = 1, input_forget = )" +
            std::to_string(coupled) + R"(> (x, w, r, "", "", h0, c0, p)
    })");
    const double x = 0.5, h = 0.2, c = 0.3;
    const double wi = 0.1, wo = 0.2, wf = 0.3, wc = 0.4, ri = 0.5, ro = 0.6, rf = 0.7, rc = 0.8,
                 pi = 0.9, po = 1.0, pf = 1.1;
    auto out = run(m, {{"x", f64({1, 1, 1}, {x})},
                       {"w", f64({1, 4, 1}, {wi, wo, wf, wc})},
                       {"r", f64({1, 4, 1}, {ri, ro, rf, rc})},
                       {"p", f64({1, 3}, {pi, po, pf})},
                       {"h0", f64({1, 1, 1}, {h})},
                       {"c0", f64({1, 1, 1}, {c})}});
    const double i = sigmoid(x * wi + h * ri + pi * c);
    const double f = coupled ? 1 - i : sigmoid(x * wf + h * rf + pf * c);
    const double cc = std::tanh(x * wc + h * rc);
    const double cn = f * c + i * cc;
    const double o = sigmoid(x * wo + h * ro + po * cn);
    check_close(out[0].tensor(), {1, 1, 1, 1}, {o * std::tanh(cn)}, 1e-12, 1e-14);
    check_close(out[1].tensor(), {1, 1, 1}, {cn}, 1e-12, 1e-14);
  }
}

TEST_CASE("RNN activations with alpha/beta and clip") {
  const std::string m =
      model(14, R"(g (float[1,1,1] x, float[1,1,1] w, float[1,1,1] r) => (float[1,1,1,1] y) {
    y = RNN <hidden_size = 1, activations = ["ScaledTanh"], activation_alpha = [2.0], activation_beta = [0.5], clip = 1.0> (x, w, r)
  })");
  auto out =
      run(m, {{"x", f32({1, 1, 1}, {5})}, {"w", f32({1, 1, 1}, {1})}, {"r", f32({1, 1, 1}, {1})}});
  // The pre-activation 5 is clipped to 1 first.
  check_close(out[0].tensor(), {1, 1, 1, 1}, {2 * std::tanh(0.5)});
}

TEST_CASE("recurrent errors and inference from R's shape") {
  const std::string bad =
      model(14, R"(g (float[1,1,1] x, float[1,2,1] w, float[1,1,1] r) => (float[1,1,1,1] y) {
    y = RNN <hidden_size = 1> (x, w, r)
  })");
  CHECK(run_error(
            bad,
            {{"x", f32({1, 1, 1}, {1})}, {"w", f32({1, 2, 1}, {1, 1})}, {"r", f32({1, 1, 1}, {1})}})
            .find("W has shape") != std::string::npos);
  const std::string m = model(
      22,
      R"(g (float[S,B,I] x, float[1,12,I] w, float[1,12,3] r) => (float[] y, float[] yh, float[] yc) {
    y, yh, yc = LSTM (x, w, r)
  })");
  const auto t = infer(m);
  CHECK(t.at("y") == "float[S,1,B,3]");
  CHECK(t.at("yc") == "float[1,B,3]");
  const std::string gru1 =
      model(1, R"(g (float[S,B,I] x, float[1,6,I] w, float[1,6,2] r) => (float[] yh) {
    "", yh = GRU (x, w, r)
  })");
  CHECK(infer(gru1).at("yh") == "float[1,B,2]");
}
