// SPDX-License-Identifier: Apache-2.0
// Output comparison as the ONNX backend suite does it.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/exec/compare.h"
#include "core/types/float_formats.h"

using namespace onnxtool;

namespace {

Value f32(const std::vector<float>& v) {
  return Value(Tensor::from_vector<float>({static_cast<int64_t>(v.size())}, v));
}

}  // namespace

TEST_CASE("floats: |a - e| <= atol + rtol * |e|, NaN equals NaN, infinities must agree") {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  CHECK(compare_values(f32({1.0f, nan, inf, -inf}), f32({1.0005f, nan, inf, -inf})).ok);
  auto c = compare_values(f32({1.0f, 2.0f, 3.0f}), f32({1.0f, 2.01f, nan}));
  CHECK_FALSE(c.ok);
  CHECK(c.mismatches == 2);
  CHECK(c.elements == 3);
  CHECK(c.first_where == "[1]");
  CHECK(c.max_abs_err == std::numeric_limits<double>::infinity());
  CHECK(c.summary().rfind("2 of 3 elements differ (max abs err inf", 0) == 0);
  CHECK(c.summary().find("first at [1]: 2, expected 2.00999999") != std::string::npos);
  CHECK_FALSE(compare_values(f32({inf}), f32({-inf})).ok);
  // Tolerances are configurable.
  CHECK(compare_values(f32({1.1f}), f32({1.0f}), {0.2, 0}).ok);
  CHECK_FALSE(compare_values(f32({5e-8f}), f32({0.0f}), {0, 1e-8}).ok);
  CHECK(compare_values(f32({5e-8f}), f32({0.0f})).ok);  // atol 1e-7
}

TEST_CASE("integers, bools and strings compare exactly") {
  auto i = [](std::vector<int64_t> v) {
    return Value(Tensor::from_vector<int64_t>({static_cast<int64_t>(v.size())}, v));
  };
  CHECK(compare_values(i({1, 2}), i({1, 2})).ok);
  auto c = compare_values(i({1, 1000001}), i({1, 1000000}));
  CHECK_FALSE(c.ok);
  CHECK(c.max_abs_err == 1);
  CHECK_FALSE(compare_values(Value(Tensor::from_vector<bool>({1}, {true})),
                             Value(Tensor::from_vector<bool>({1}, {false})))
                  .ok);
  CHECK(compare_values(Value(Tensor::from_strings({1}, {"x"})),
                       Value(Tensor::from_strings({1}, {"x"})))
            .ok);
  CHECK(compare_values(Value(Tensor::from_strings({1}, {"x"})),
                       Value(Tensor::from_strings({1}, {"y"})))
            .summary() ==
        "1 of 1 elements differ (max abs err 0, max rel err 0); first at [0]: "
        "\"x\", expected \"y\"");
}

TEST_CASE("narrow floats are compared on their values") {
  auto h = [](float x) { return Value(Tensor::from_vector<Float16>({1}, {to_float16(x)})); };
  CHECK(compare_values(h(0.1f), h(0.1f)).ok);
  CHECK_FALSE(compare_values(h(0.1f), h(0.2f)).ok);
}

TEST_CASE("type, shape, kind and length differences are structural") {
  CHECK(compare_values(f32({1}), Value(Tensor::from_vector<double>({1}, {1}))).summary() ==
        "has type float, expected double");
  CHECK(compare_values(f32({1, 2}), Value(Tensor::from_vector<float>({2, 1}, {1, 2}))).summary() ==
        "has shape [2], expected [2,1]");
  CHECK(compare_values(Value(), f32({1})).summary() == "is none, expected tensor(float)[1]");
  CHECK(compare_values(Value(), Value()).ok);
  const Value s1 = Value::sequence({f32({1}), f32({2})});
  const Value s2 = Value::sequence({f32({1}), f32({3})});
  CHECK(compare_values(s1, s1).ok);
  auto c = compare_values(s1, s2);
  CHECK_FALSE(c.ok);
  CHECK(c.first_where == "element 1 [0]");
  CHECK(compare_values(s1, Value::sequence({f32({1})})).summary() == "has 2 elements, expected 1");
}
