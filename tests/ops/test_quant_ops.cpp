// SPDX-License-Identifier: Apache-2.0
// QuantizeLinear, DequantizeLinear, DynamicQuantizeLinear: rounding and saturation for every
// integer output, float8 with and without saturation, per-axis and blocked scales, output
// types across versions, errors, inference.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "core/types/float_formats.h"
#include "tests/ops/test_misc_support.h"

using namespace onnxtool;
using namespace onnxtool::test::misc;

namespace {

std::string model(int opset, const std::string& body) {
  return "<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" + body;
}

}  // namespace

TEST_CASE("QuantizeLinear rounds half to even and saturates (uint8 default, int8, int16, int4)") {
  const Tensor x = f32({6}, {-300, -2.5, 0.5, 1.5, 2.5, 300});
  auto out = run(model(21, "g (float[6] x, float s) => (uint8[6] y) { y = QuantizeLinear (x, s) }"),
                 {{"x", x}, {"s", Tensor::scalar<float>(1)}});
  CHECK(out[0].tensor().dtype() == DataType::uint8);
  CHECK(vals(out[0].tensor()) == std::vector<double>{0, 0, 0, 2, 2, 255});
  out = run(
      model(21, "g (float[6] x, float s, int8 z) => (int8[6] y) { y = QuantizeLinear (x, s, z) }"),
      {{"x", x}, {"s", Tensor::scalar<float>(1)}, {"z", Tensor::scalar<int8_t>(1)}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{-128, -1, 1, 3, 3, 127});
  out = run(model(21,
                  "g (float[6] x, float s) => (int4[6] y) { y = QuantizeLinear <output_dtype = 22> "
                  "(x, s) }"),
            {{"x", x}, {"s", Tensor::scalar<float>(1)}});
  CHECK(out[0].tensor().dtype() == DataType::int4);
  CHECK(vals(out[0].tensor()) == std::vector<double>{-8, -2, 0, 2, 2, 7});
}

TEST_CASE("QuantizeLinear of NaN gives 0, whatever the zero point (found by fuzz_executor)") {
  // The spec defines no integer for NaN; converting it was undefined behaviour (UBSan).
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Tensor x = f32({3}, {nan, 1, -nan});
  auto out = run(
      model(21,
            "g (float[3] x, float s, int16 z) => (int16[3] y) { y = QuantizeLinear (x, s, z) }"),
      {{"x", x}, {"s", Tensor::scalar<float>(1)}, {"z", Tensor::scalar<int16_t>(5)}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{0, 6, 0});
  out = run(model(21, "g (float[3] x, float s) => (uint8[3] y) { y = QuantizeLinear (x, s) }"),
            {{"x", x}, {"s", Tensor::scalar<float>(0.5f)}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{0, 2, 0});
}

TEST_CASE("QuantizeLinear per axis and blocked") {
  const Tensor x = f32({2, 4}, {1, 2, 3, 4, 5, 6, 7, 8});
  auto out = run(model(21,
                       "g (float[2,4] x, float[2] s) => (uint8[2,4] y) { y = QuantizeLinear <axis "
                       "= 0> (x, s) }"),
                 {{"x", x}, {"s", f32({2}, {1, 2})}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{1, 2, 3, 4, 2, 3, 4, 4});
  out = run(model(21,
                  "g (float[2,4] x, float[2,2] s) => (uint8[2,4] y) { y = QuantizeLinear <axis = "
                  "1, block_size = 2> (x, s) }"),
            {{"x", x}, {"s", f32({2, 2}, {1, 2, 1, 4})}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{1, 2, 2, 2, 5, 6, 2, 2});
  CHECK(run_error(model(21,
                        "g (float[2,4] x, float[3] s) => (uint8[2,4] y) { y = QuantizeLinear <axis "
                        "= 1> (x, s) }"),
                  {{"x", x}, {"s", f32({3}, {1, 1, 1})}})
            .find("per-axis") != std::string::npos);
}

TEST_CASE("QuantizeLinear to float8 saturates unless told not to") {
  const Tensor x = f32({2}, {1000, 1});
  auto sat =
      run(model(19,
                "g (float[2] x, float s, float8e4m3fn z) => (float8e4m3fn[2] y) { y = "
                "QuantizeLinear (x, s, z) }"),
          {{"x", x}, {"s", Tensor::scalar<float>(1)}, {"z", Tensor(DataType::float8e4m3fn, {})}});
  CHECK(vals(sat[0].tensor()) == std::vector<double>{448, 1});
  auto nosat =
      run(model(19,
                "g (float[2] x, float s, float8e4m3fn z) => (float8e4m3fn[2] y) { y = "
                "QuantizeLinear <saturate = 0> (x, s, z) }"),
          {{"x", x}, {"s", Tensor::scalar<float>(1)}, {"z", Tensor(DataType::float8e4m3fn, {})}});
  CHECK(std::isnan(vals(nosat[0].tensor())[0]));
}

TEST_CASE("DequantizeLinear: zero point, int32 without one, blocked, output_dtype") {
  auto out = run(
      model(13,
            "g (uint8[3] x, float s, uint8 z) => (float[3] y) { y = DequantizeLinear (x, s, z) }"),
      {{"x", Tensor::from_vector<uint8_t>({3}, {0, 128, 255})},
       {"s", Tensor::scalar<float>(0.5f)},
       {"z", Tensor::scalar<uint8_t>(128)}});
  check_close(out[0].tensor(), {3}, {-64, 0, 63.5});
  out = run(model(13, "g (int32[2] x, float s) => (float[2] y) { y = DequantizeLinear (x, s) }"),
            {{"x", i32({2}, {-7, 9})}, {"s", Tensor::scalar<float>(2)}});
  check_close(out[0].tensor(), {2}, {-14, 18});
  out =
      run(model(23,
                "g (int8[1,4] x, float[1,2] s) => (float16[1,4] y) { y = DequantizeLinear <axis = "
                "1, block_size = 2, output_dtype = 10> (x, s) }"),
          {{"x", Tensor::from_vector<int8_t>({1, 4}, {1, 2, 3, 4})}, {"s", f32({1, 2}, {1, 10})}});
  CHECK(out[0].tensor().dtype() == DataType::float16);
  check_close(out[0].tensor(), {1, 4}, {1, 2, 30, 40});
}

TEST_CASE("DynamicQuantizeLinear follows the spec's example") {
  auto out = run(model(11,
                       "g (float[6] x) => (uint8[6] y, float s, uint8 z) { y, s, z = "
                       "DynamicQuantizeLinear (x) }"),
                 {{"x", f32({6}, {0, 2, -3, -2.5f, 1.34f, 0.5f})}});
  check_close(out[1].tensor(), {}, {0.0196078438});
  CHECK(vals(out[2].tensor()) == std::vector<double>{153});
  CHECK(vals(out[0].tensor()) == std::vector<double>{153, 255, 0, 26, 221, 179});
  // All zeros: no division by zero.
  out = run(model(11,
                  "g (float[2] x) => (uint8[2] y, float s, uint8 z) { y, s, z = "
                  "DynamicQuantizeLinear (x) }"),
            {{"x", f32({2}, {0, 0})}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{0, 0});
  // Infinities (a fuzzer's input): the scale is infinite, the zero point's -lo / scale NaN,
  // which becomes 0 (its conversion to uint8 was undefined: UBSan stopped the run).
  const float inf = std::numeric_limits<float>::infinity();
  out = run(model(11,
                  "g (float[3] x) => (uint8[3] y, float s, uint8 z) { y, s, z = "
                  "DynamicQuantizeLinear (x) }"),
            {{"x", f32({3}, {-inf, 1, inf})}});
  CHECK(std::isinf(vals(out[1].tensor())[0]));
  CHECK(vals(out[2].tensor()) == std::vector<double>{0});
  CHECK(vals(out[0].tensor()) == std::vector<double>{0, 0, 0});
}

TEST_CASE("quantization inference: output types by version and attribute") {
  auto t =
      infer(model(10, "g (float[N,3] x, float s) => (uint8[N,3] y) { y = QuantizeLinear (x, s) }"));
  CHECK(t.at("y") == "uint8[N,3]");
  t = infer(model(21,
                  "g (float[N,3] x, float s) => (int4[N,3] y) { y = QuantizeLinear <output_dtype = "
                  "22> (x, s) }"));
  CHECK(t.at("y") == "int4[N,3]");
  t = infer(model(
      21, "g (float[N,3] x, float s, int8 z) => (int8[N,3] y) { y = QuantizeLinear (x, s, z) }"));
  CHECK(t.at("y") == "int8[N,3]");
  t = infer(
      model(19, "g (int8[4] x, float16 s) => (float16[4] y) { y = DequantizeLinear (x, s) }"));
  CHECK(t.at("y") == "float16[4]");
  t = infer(model(10, "g (int8[4] x, float s) => (float[4] y) { y = DequantizeLinear (x, s) }"));
  CHECK(t.at("y") == "float[4]");
  t = infer(model(
      13,
      "g (float[2,3] x, float[4] s) => (uint8[2,3] y) { y = QuantizeLinear <axis = 1> (x, s) }"));
  CHECK(t.count("error") == 1);
  t = infer(model(11,
                  "g (float[A,B] x) => (uint8[A,B] y, float s, uint8 z) { y, s, z = "
                  "DynamicQuantizeLinear (x) }"));
  CHECK(t.at("y") == "uint8[A,B]");
  CHECK(t.at("s") == "float");
}
