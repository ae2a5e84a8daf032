// SPDX-License-Identifier: Apache-2.0
// The unary math family (ops/onnx/unary_math.cpp) through the real Session: every operator at
// every version against the C library, the element types each kernel claims, special values,
// empty tensors, scalars and large (multi-threaded) tensors.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/kernels/vmath.h"
#include "core/registry/registry.h"
#include "core/types/float_formats.h"
#include "tests/ops/test_elementwise_support.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// The opsets at which `op` changes version, from the registry.
std::vector<int64_t> versions_of(const std::string& op) {
  std::vector<int64_t> out;
  for (const auto& v : Registry::standard().find("", op)->versions()) out.push_back(v.since);
  return out;
}

bool same_float(double a, double b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  if (std::isinf(a) || std::isinf(b)) return a == b;
  return std::fabs(a - b) <= 1e-6 + 1e-5 * std::fabs(b);
}

std::vector<Float16> halves(const std::vector<float>& v) {
  std::vector<Float16> out;
  for (float x : v) out.push_back(to_float16(x));
  return out;
}
std::vector<BFloat16> bhalves(const std::vector<float>& v) {
  std::vector<BFloat16> out;
  for (float x : v) out.push_back(to_bfloat16(x));
  return out;
}

struct MathRow {
  const char* op;
  double (*ref)(double);
  std::vector<float> inputs;
};

const std::vector<float> kSpread{-2.5f, -1.0f, -0.25f, 0.0f, 0.3f, 1.0f, 2.75f};
const std::vector<float> kUnit{-0.9f, -0.5f, 0.0f, 0.25f, 0.75f};
const std::vector<float> kPositive{0.1f, 0.5f, 1.0f, 2.0f, 100.0f};

const std::vector<MathRow> kMath{
    {"Abs", [](double x) { return std::fabs(x); }, kSpread},
    {"Neg", [](double x) { return -x; }, kSpread},
    {"Reciprocal", [](double x) { return 1 / x; }, kPositive},
    {"Sqrt", [](double x) { return std::sqrt(x); }, kPositive},
    {"Exp", [](double x) { return std::exp(x); }, kSpread},
    {"Log", [](double x) { return std::log(x); }, kPositive},
    {"Floor", [](double x) { return std::floor(x); }, kSpread},
    {"Ceil", [](double x) { return std::ceil(x); }, kSpread},
    {"Erf", [](double x) { return std::erf(x); }, kSpread},
    {"Sin", [](double x) { return std::sin(x); }, kSpread},
    {"Cos", [](double x) { return std::cos(x); }, kSpread},
    {"Tan", [](double x) { return std::tan(x); }, kSpread},
    {"Asin", [](double x) { return std::asin(x); }, kUnit},
    {"Acos", [](double x) { return std::acos(x); }, kUnit},
    {"Atan", [](double x) { return std::atan(x); }, kSpread},
    {"Sinh", [](double x) { return std::sinh(x); }, kSpread},
    {"Cosh", [](double x) { return std::cosh(x); }, kSpread},
    {"Tanh", [](double x) { return std::tanh(x); }, kSpread},
    {"Asinh", [](double x) { return std::asinh(x); }, kSpread},
    {"Acosh", [](double x) { return std::acosh(x); }, {1.0f, 1.5f, 10.0f}},
    {"Atanh", [](double x) { return std::atanh(x); }, kUnit},
};

}  // namespace

TEST_CASE("unary math on float and double matches the C library at every version") {
  for (const MathRow& row : kMath) {
    for (int64_t opset : versions_of(row.op)) {
      CAPTURE(row.op);
      CAPTURE(opset);
      const auto n = static_cast<int64_t>(row.inputs.size());
      const Tensor y = run_op(row.op, {make<float>({n}, row.inputs)}, "", opset);
      REQUIRE(y.dtype() == DataType::float32);
      REQUIRE(y.shape() == Shape{n});
      for (int64_t i = 0; i < n; ++i)
        CHECK(same_float(y.data<float>()[i], row.ref(row.inputs[static_cast<std::size_t>(i)])));
      std::vector<double> d(row.inputs.begin(), row.inputs.end());
      const Tensor yd = run_op(row.op, {make<double>({n}, d)}, "", opset);
      for (int64_t i = 0; i < n; ++i)
        CHECK(same_float(yd.data<double>()[i], row.ref(d[static_cast<std::size_t>(i)])));
    }
  }
}

TEST_CASE("unary math computes float16 and bfloat16 in float and rounds back") {
  for (const MathRow& row : kMath) {
    CAPTURE(row.op);
    const auto n = static_cast<int64_t>(row.inputs.size());
    const Tensor h = run_op(row.op, {make<Float16>({n}, halves(row.inputs))});
    // bfloat16 joined the trigonometric functions' types in opset 22.
    const Tensor b = run_op(row.op, {make<BFloat16>({n}, bhalves(row.inputs))}, "", 22);
    REQUIRE(h.dtype() == DataType::float16);
    REQUIRE(b.dtype() == DataType::bfloat16);
    for (int64_t i = 0; i < n; ++i) {
      const double x16 = to_float(halves(row.inputs)[static_cast<std::size_t>(i)]);
      const double want = to_float(to_float16(static_cast<float>(row.ref(x16))));
      CHECK(same_float(to_float(h.data<Float16>()[i]), want));
      const double xb = to_float(bhalves(row.inputs)[static_cast<std::size_t>(i)]);
      const double wantb = to_float(to_bfloat16(static_cast<float>(row.ref(xb))));
      CHECK(same_float(to_float(b.data<BFloat16>()[i]), wantb));
    }
  }
}

TEST_CASE("Round rounds halves to even and keeps specials") {
  const std::vector<float> x{0.5f, 1.5f, 2.5f, -0.5f, -1.5f, -2.5f, 2.3f, -4.5f, 0.9f, kInf, -0.0f};
  const Tensor y = run_op("Round", {make<float>({11}, x)});
  CHECK(elements<float>(y) == std::vector<float>{0, 2, 2, -0.0f, -2, -2, 2, -4, 1, kInf, -0.0f});
  CHECK(std::signbit(y.data<float>()[10]));
  CHECK(std::isnan(run_op("Round", {make<float>({1}, {kNaN})}).data<float>()[0]));
}

TEST_CASE("Sign and Abs and Neg on every integer type they claim") {
  CHECK(elements<int8_t>(run_op("Sign", {make<int8_t>({3}, {-5, 0, 7})})) ==
        std::vector<int8_t>{-1, 0, 1});
  CHECK(elements<uint8_t>(run_op("Sign", {make<uint8_t>({2}, {0, 9})})) ==
        std::vector<uint8_t>{0, 1});
  CHECK(elements<int64_t>(run_op("Sign", {make<int64_t>({2}, {-9, 4})})) ==
        std::vector<int64_t>{-1, 1});
  const Tensor s = run_op("Sign", {make<float>({4}, {-2.0f, 0.0f, 3.0f, kNaN})});
  CHECK(s.data<float>()[0] == -1);
  CHECK(s.data<float>()[1] == 0);
  CHECK(s.data<float>()[2] == 1);
  CHECK(std::isnan(s.data<float>()[3]));
  // The most negative value has no positive twin: it wraps, as two's complement does.
  CHECK(elements<int8_t>(run_op("Abs", {make<int8_t>({3}, {-128, -1, 5})})) ==
        std::vector<int8_t>{-128, 1, 5});
  CHECK(elements<uint32_t>(run_op("Abs", {make<uint32_t>({2}, {0, 4000000000u})})) ==
        std::vector<uint32_t>{0, 4000000000u});
  CHECK(elements<int16_t>(run_op("Abs", {make<int16_t>({2}, {-300, 300})})) ==
        std::vector<int16_t>{300, 300});
  const int32_t lo = std::numeric_limits<int32_t>::min();
  CHECK(elements<int32_t>(run_op("Neg", {make<int32_t>({3}, {lo, -7, 0})})) ==
        std::vector<int32_t>{lo, 7, 0});
  CHECK(elements<int64_t>(run_op("Neg", {make<int64_t>({1}, {5})})) == std::vector<int64_t>{-5});
}

TEST_CASE("IsNaN and IsInf give bool, IsInf honours detect_positive and detect_negative") {
  const Tensor x = make<float>({4}, {kInf, -kInf, 1.0f, kNaN});
  const Tensor nan = run_op("IsNaN", {x});
  CHECK(nan.dtype() == DataType::boolean);
  CHECK(elements<bool>(nan) == std::vector<bool>{false, false, false, true});
  CHECK(elements<bool>(run_op("IsInf", {x})) == std::vector<bool>{true, true, false, false});
  CHECK(elements<bool>(run_op("IsInf", {x}, "detect_negative = 0")) ==
        std::vector<bool>{true, false, false, false});
  CHECK(elements<bool>(run_op("IsInf", {x}, "detect_positive = 0")) ==
        std::vector<bool>{false, true, false, false});
  CHECK(elements<bool>(run_op("IsInf", {make<double>({2}, {-HUGE_VAL, 0.0})}, "", 10)) ==
        std::vector<bool>{true, false});
  // IsNaN-20 and IsInf-20 take the float8 formats too (E4M3FN has a NaN and no infinity, E5M2
  // has both).
  const Tensor f8 = make<Float8E4M3FN>({2}, {Float8E4M3FN{0x7F}, Float8E4M3FN{0x38}});
  CHECK(elements<bool>(run_op("IsNaN", {f8})) == std::vector<bool>{true, false});
  const Tensor e5 = make<Float8E5M2>({3}, {Float8E5M2{0x7C}, Float8E5M2{0xFC}, Float8E5M2{0x7E}});
  CHECK(elements<bool>(run_op("IsInf", {e5})) == std::vector<bool>{true, true, false});
  CHECK(elements<bool>(run_op("IsNaN", {make<Float16>({2}, halves({kNaN, 2.0f}))})) ==
        std::vector<bool>{true, false});
}

TEST_CASE("Not and BitwiseNot") {
  CHECK(elements<bool>(run_op("Not", {make<bool>({3}, {true, false, true})})) ==
        std::vector<bool>{false, true, false});
  CHECK(elements<uint8_t>(run_op("BitwiseNot", {make<uint8_t>({3}, {0, 255, 15})})) ==
        std::vector<uint8_t>{255, 0, 240});
  CHECK(elements<int32_t>(run_op("BitwiseNot", {make<int32_t>({2}, {0, -1})})) ==
        std::vector<int32_t>{-1, 0});
  CHECK(elements<uint64_t>(run_op("BitwiseNot", {make<uint64_t>({1}, {0})})) ==
        std::vector<uint64_t>{~uint64_t{0}});
}

TEST_CASE("unary operators keep empty tensors and scalars as they are") {
  const Tensor empty = run_op("Sqrt", {make<float>({0, 3}, {})});
  CHECK(empty.shape() == Shape{0, 3});
  CHECK(run_op("IsNaN", {make<float>({2, 0}, {})}).shape() == Shape{2, 0});
  const Tensor scalar = run_op("Exp", {Tensor::scalar<float>(1.0f)});
  CHECK(scalar.shape().empty());
  CHECK(scalar.data<float>()[0] == doctest::Approx(std::exp(1.0)));
}

TEST_CASE("a large tensor is split across threads and every element is computed") {
  const int64_t n = 300001;  // not a multiple of any chunk size
  std::vector<float> x(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i)
    x[static_cast<std::size_t>(i)] = static_cast<float>(i % 97) / 10 - 4;
  const Tensor y = run_op("Tanh", {make<float>({n}, x)});
  const Tensor a = run_op("Abs", {make<float>({n}, x)});
  for (int64_t i = 0; i < n; i += 1) {
    const float xi = x[static_cast<std::size_t>(i)];
    float tanh_xi;  // float32 Tanh is the vector tanh's: the same bits one element at a time
    kernels::tanh_f32(&xi, &tanh_xi, 1);
    if (y.data<float>()[i] != tanh_xi || a.data<float>()[i] != std::fabs(xi)) {
      FAIL("element " << i << " differs");
      break;
    }
  }
}
