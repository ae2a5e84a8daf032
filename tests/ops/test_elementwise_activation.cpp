// SPDX-License-Identifier: Apache-2.0
// The activation family (ops/onnx/activations.cpp) through the real Session: each formula with
// its attributes and defaults, PRelu's unidirectional (and legacy per-channel) slope, Clip's
// attribute and input forms, Shrink and Relu on integers.
#include <doctest/doctest.h>

#include <cmath>
#include <functional>
#include <limits>
#include <numbers>

#include "core/types/float_formats.h"
#include "tests/ops/test_elementwise_support.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();

const std::vector<float> kX{-30.0f, -3.0f, -1.0f, -0.5f, 0.0f, 0.4f, 1.0f, 2.5f, 30.0f};

void check_formula(const std::string& op, const std::string& attrs,
                   const std::function<double(double)>& f, int64_t opset = 22) {
  CAPTURE(op);
  CAPTURE(attrs);
  const auto n = static_cast<int64_t>(kX.size());
  const Tensor y = run_op(op, {make<float>({n}, kX)}, attrs, opset);
  REQUIRE(y.shape() == Shape{n});
  for (std::size_t i = 0; i < kX.size(); ++i) {
    CAPTURE(kX[i]);
    CHECK(y.data<float>()[i] == doctest::Approx(f(kX[i])).epsilon(1e-5));
  }
  const std::vector<double> xd(kX.begin(), kX.end());
  const Tensor yd = run_op(op, {make<double>({n}, xd)}, attrs, opset);
  for (std::size_t i = 0; i < kX.size(); ++i)
    CHECK(yd.data<double>()[i] == doctest::Approx(f(xd[i])).epsilon(1e-12));
}

double sigmoid(double x) {
  return 1 / (1 + std::exp(-x));
}
// Attributes are float32, so a kernel computing in double sees float(0.01), not 0.01.
constexpr double f32(float v) {
  return v;
}
double softplus(double x) {
  return std::log1p(std::exp(-std::fabs(x))) + std::max(x, 0.0);
}

}  // namespace

TEST_CASE("activation formulas with default and given attributes") {
  check_formula("Relu", "", [](double x) { return std::max(x, 0.0); });
  check_formula("LeakyRelu", "", [](double x) { return x < 0 ? f32(0.01f) * x : x; });
  check_formula("LeakyRelu", "alpha = 0.2", [](double x) { return x < 0 ? f32(0.2f) * x : x; });
  check_formula("Elu", "", [](double x) { return x < 0 ? std::exp(x) - 1 : x; });
  check_formula("Elu", "alpha = 2.0", [](double x) { return x < 0 ? 2 * (std::exp(x) - 1) : x; });
  check_formula("Selu", "", [](double x) {
    const double alpha = 1.67326319217681884765625, gamma = 1.05070102214813232421875;
    return x > 0 ? gamma * x : gamma * (alpha * std::exp(x) - alpha);
  });
  check_formula("Selu", "alpha = 2.0, gamma = 3.0",
                [](double x) { return x > 0 ? 3 * x : 3 * (2 * std::exp(x) - 2); });
  check_formula(
      "Celu", "", [](double x) { return std::max(0.0, x) + std::min(0.0, std::expm1(x)); }, 28);
  check_formula(
      "Celu", "alpha = 2.0",
      [](double x) { return std::max(0.0, x) + std::min(0.0, 2 * std::expm1(x / 2)); }, 28);
  check_formula("Gelu", "", [](double x) { return 0.5 * x * (1 + std::erf(x / std::sqrt(2.0))); });
  check_formula("Gelu", "approximate = \"tanh\"", [](double x) {
    return 0.5 * x * (1 + std::tanh(std::sqrt(2 / std::numbers::pi) * (x + 0.044715 * x * x * x)));
  });
  check_formula("Sigmoid", "", sigmoid);
  check_formula("HardSigmoid", "",
                [](double x) { return std::clamp(f32(0.2f) * x + 0.5, 0.0, 1.0); });
  check_formula("HardSigmoid", "alpha = 0.5, beta = 0.1",
                [](double x) { return std::clamp(0.5 * x + f32(0.1f), 0.0, 1.0); });
  check_formula("HardSwish", "", [](double x) { return x * std::clamp(x / 6 + 0.5, 0.0, 1.0); });
  check_formula("Mish", "", [](double x) { return x * std::tanh(softplus(x)); });
  check_formula("Softplus", "", softplus);
  check_formula("Softsign", "", [](double x) { return x / (1 + std::fabs(x)); });
  check_formula("ThresholdedRelu", "", [](double x) { return x > 1 ? x : 0; });
  check_formula("ThresholdedRelu", "alpha = 0.3", [](double x) { return x > f32(0.3f) ? x : 0; });
  check_formula(
      "Swish", "", [](double x) { return x * sigmoid(x); }, 24);
  check_formula(
      "Swish", "alpha = 0.5", [](double x) { return x * sigmoid(0.5 * x); }, 24);
  check_formula(
      "Shrink", "", [](double x) { return x < -0.5 ? x : (x > 0.5 ? x : 0); }, 9);
  check_formula(
      "Shrink", "lambd = 1.0, bias = 0.5",
      [](double x) { return x < -1 ? x + 0.5 : (x > 1 ? x - 0.5 : 0); }, 9);
  // Older versions of the same operators.
  check_formula(
      "Relu", "", [](double x) { return std::max(x, 0.0); }, 6);
  check_formula(
      "Elu", "", [](double x) { return x < 0 ? std::exp(x) - 1 : x; }, 6);
  check_formula(
      "HardSigmoid", "", [](double x) { return std::clamp(f32(0.2f) * x + 0.5, 0.0, 1.0); }, 6);
}

TEST_CASE("activations keep NaN, compute float16 in float, and reject unknown modes") {
  for (const char* op : {"Relu", "Sigmoid", "Elu", "Celu", "Gelu", "Softplus", "HardSwish"}) {
    CAPTURE(op);
    CHECK(std::isnan(run_op(op, {make<float>({1}, {kNaN})}).data<float>()[0]));
  }
  const Tensor h = run_op("Sigmoid", {make<Float16>({1}, {to_float16(0.0f)})});
  CHECK(to_float(h.data<Float16>()[0]) == 0.5f);
  const Tensor b = run_op("Relu", {make<BFloat16>({2}, {to_bfloat16(-1.0f), to_bfloat16(2.0f)})});
  CHECK(to_float(b.data<BFloat16>()[0]) == 0.0f);
  CHECK(to_float(b.data<BFloat16>()[1]) == 2.0f);
  CHECK(op_error("Gelu", {make<float>({1}, {1})}, "approximate = \"fast\"").find("approximate") !=
        std::string::npos);
}

TEST_CASE("Relu-14 and Shrink take integers") {
  CHECK(elements<int8_t>(run_op("Relu", {make<int8_t>({3}, {-5, 0, 7})}, "", 14)) ==
        std::vector<int8_t>{0, 0, 7});
  CHECK(elements<int64_t>(run_op("Relu", {make<int64_t>({2}, {-5, 9})}, "", 14)) ==
        std::vector<int64_t>{0, 9});
  CHECK(elements<int32_t>(
            run_op("Shrink", {make<int32_t>({5}, {-5, -1, 0, 1, 5})}, "lambd = 1.5, bias = 1.0")) ==
        std::vector<int32_t>{-4, 0, 0, 0, 4});
  // As Shrink's function body computes it (bias cast to uint8, then Sub): 1 - 2 wraps to 255.
  CHECK(elements<uint8_t>(run_op("Shrink", {make<uint8_t>({3}, {0, 1, 200})}, "bias = 2.0")) ==
        std::vector<uint8_t>{0, 255, 198});
}

TEST_CASE("PRelu: slope broadcasts to X unidirectionally; opset 6 also per channel") {
  const Tensor x = make<float>({2, 3, 1, 2}, {-1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6});
  const Tensor per_channel = make<float>({3, 1, 1}, {10, 100, 1000});
  CHECK(elements<float>(run_op("PRelu", {x, per_channel})) ==
        std::vector<float>{-10, 1, -200, 2, -3000, 3, -40, 4, -500, 5, -6000, 6});
  CHECK(elements<float>(run_op("PRelu", {x, make<float>({}, {0.5f})})) ==
        std::vector<float>{-0.5f, 1, -1, 2, -1.5f, 3, -2, 4, -2.5f, 5, -3, 6});
  CHECK(elements<float>(run_op("PRelu", {x, make<float>({2}, {1, 2})})) ==
        std::vector<float>{-1, 1, -2, 2, -3, 3, -4, 4, -5, 5, -6, 6});
  // The slope may not widen X (unidirectional), and must broadcast at all.
  CHECK(op_error("PRelu", {make<float>({3}, {1, 2, 3}), make<float>({2, 3}, {1, 1, 1, 1, 1, 1})})
            .find("does not broadcast to X") != std::string::npos);
  CHECK(op_error("PRelu", {x, make<float>({3}, {1, 2, 3})}).find("broadcast") != std::string::npos);
  // PRelu-6: a 1-D slope of X's channel count applies per channel.
  CHECK(elements<float>(run_op("PRelu", {x, make<float>({3}, {10, 100, 1000})}, "", 6)) ==
        std::vector<float>{-10, 1, -200, 2, -3000, 3, -40, 4, -500, 5, -6000, 6});
  CHECK(elements<int32_t>(run_op("PRelu", {make<int32_t>({2}, {-3, 3}), make<int32_t>({}, {2})}, "",
                                 16)) == std::vector<int32_t>{-6, 3});
  CHECK(elements<uint32_t>(run_op("PRelu", {make<uint32_t>({1}, {3}), make<uint32_t>({}, {2})}, "",
                                  16)) == std::vector<uint32_t>{3});
}

TEST_CASE("Clip: attributes through opset 6, optional scalar inputs from 11, integers from 12") {
  const Tensor x = make<float>({5}, {-3, -1, 0, 1, 3});
  CHECK(elements<float>(run_op("Clip", {x}, "min = -1.5, max = 2.0", 6)) ==
        std::vector<float>{-1.5f, -1, 0, 1, 2});
  CHECK(elements<float>(run_op("Clip", {x}, "", 6)) == elements<float>(x));
  CHECK(elements<float>(run_op("Clip", {x}, "max = 0.5", 1)) ==
        std::vector<float>{-3, -1, 0, 0.5f, 0.5f});
  CHECK(elements<float>(run_op("Clip", {x, make<float>({}, {-2}), make<float>({}, {2})}, "", 11)) ==
        std::vector<float>{-2, -1, 0, 1, 2});
  CHECK(elements<float>(run_op("Clip", {x, make<float>({}, {0})})) ==
        std::vector<float>{0, 0, 0, 1, 3});
  CHECK(elements<float>(run_op("Clip", {x, Tensor(), make<float>({}, {0})})) ==
        std::vector<float>{-3, -1, 0, 0, 0});
  CHECK(elements<float>(run_op("Clip", {x})) == elements<float>(x));
  // min > max: everything becomes max.
  CHECK(elements<float>(run_op("Clip", {x, make<float>({}, {2}), make<float>({}, {1})})) ==
        std::vector<float>{1, 1, 1, 1, 1});
  CHECK(std::isnan(
      run_op("Clip", {make<float>({1}, {kNaN}), make<float>({}, {0}), make<float>({}, {1})})
          .data<float>()[0]));
  CHECK(elements<int8_t>(run_op(
            "Clip",
            {make<int8_t>({3}, {-100, 5, 100}), make<int8_t>({}, {-10}), make<int8_t>({}, {10})},
            "", 12)) == std::vector<int8_t>{-10, 5, 10});
  CHECK(elements<uint64_t>(
            run_op("Clip", {make<uint64_t>({2}, {1, 50}), Tensor(), make<uint64_t>({1}, {7})})) ==
        std::vector<uint64_t>{1, 7});
  CHECK(op_error("Clip", {x, make<float>({2}, {0, 1})}).find("min must be a scalar") !=
        std::string::npos);
  const Tensor h = run_op(
      "Clip", {make<Float16>({2}, {to_float16(-5.0f), to_float16(5.0f)}),
               make<Float16>({}, {to_float16(-1.0f)}), make<Float16>({}, {to_float16(1.0f)})});
  CHECK(to_float(h.data<Float16>()[0]) == -1.0f);
  CHECK(to_float(h.data<Float16>()[1]) == 1.0f);
}
