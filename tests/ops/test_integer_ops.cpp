// SPDX-License-Identifier: Apache-2.0
// MatMulInteger, QLinearMatMul, ConvInteger, QLinearConv, Det, Einsum: zero points per row,
// column and channel, batch broadcasting, rounding half to even and saturation, a singular
// matrix, traces and diagonals, inference.
#include <doctest/doctest.h>

#include "tests/ops/test_misc_support.h"

using namespace onnxtool;
using namespace onnxtool::test::misc;

namespace {

std::string model(int opset, const std::string& body) {
  return "<ir_version: 10, opset_import: [\"\" : " + std::to_string(opset) + "]>\n" + body;
}

Tensor u8(const Shape& shape, const std::vector<uint8_t>& v) {
  return Tensor::from_vector<uint8_t>(shape, v);
}
Tensor s8(const Shape& shape, const std::vector<int8_t>& v) {
  return Tensor::from_vector<int8_t>(shape, v);
}

}  // namespace

TEST_CASE("MatMulInteger: per-row and per-column zero points, B broadcast over A's batch") {
  auto out =
      run(model(10,
                "g (uint8[2,2,2] a, uint8[2,2] b, uint8[2] az, uint8[2] bz) => (int32[2,2,2] "
                "y) { y = MatMulInteger (a, b, az, bz) }"),
          {{"a", u8({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})},
           {"b", u8({2, 2}, {1, 4, 2, 5})},
           {"az", u8({2}, {1, 2})},
           {"bz", u8({2}, {0, 3})}});
  CHECK(out[0].tensor().dtype() == DataType::int32);
  CHECK(out[0].tensor().shape() == Shape{2, 2, 2});
  CHECK(vals(out[0].tensor()) == std::vector<double>{2, 2, 5, 5, 14, 14, 17, 17});
  // No zero points, int8 x uint8, a 1-D A.
  out = run(model(10, "g (int8[2] a, uint8[2,1] b) => (int32[1] y) { y = MatMulInteger (a, b) }"),
            {{"a", s8({2}, {-128, 127})}, {"b", u8({2, 1}, {255, 255})}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{-255});
}

TEST_CASE("QLinearMatMul rounds half to even and saturates to the output type") {
  auto out =
      run(model(10,
                "g (uint8[2,2] a, float as, uint8 az, uint8[2,2] b, float bs, uint8 bz, float ys, "
                "int8 yz) => (int8[2,2] y) { y = QLinearMatMul (a, as, az, b, bs, bz, ys, yz) }"),
          {{"a", u8({2, 2}, {1, 3, 200, 250})},
           {"as", Tensor::scalar<float>(1)},
           {"az", Tensor::scalar<uint8_t>(0)},
           {"b", u8({2, 2}, {1, 0, 0, 1})},
           {"bs", Tensor::scalar<float>(1)},
           {"bz", Tensor::scalar<uint8_t>(0)},
           {"ys", Tensor::scalar<float>(2)},
           {"yz", Tensor::scalar<int8_t>(100)}});
  CHECK(out[0].tensor().dtype() == DataType::int8);
  // 0.5 -> 0 and 1.5 -> 2 (half to even), then +100; 100 + 100 and 125 + 100 saturate to 127.
  CHECK(vals(out[0].tensor()) == std::vector<double>{100, 102, 127, 127});
}

TEST_CASE("ConvInteger subtracts zero points; QLinearConv with per-channel weight scales") {
  auto out = run(model(10,
                       "g (uint8[1,1,2,2] x, uint8[1,1,1,1] w, uint8 xz, uint8 wz) => "
                       "(int32[1,1,2,2] y) { y = ConvInteger (x, w, xz, wz) }"),
                 {{"x", u8({1, 1, 2, 2}, {2, 3, 4, 5})},
                  {"w", u8({1, 1, 1, 1}, {3})},
                  {"xz", Tensor::scalar<uint8_t>(2)},
                  {"wz", Tensor::scalar<uint8_t>(1)}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{0, 2, 4, 6});
  out = run(model(10,
                  "g (uint8[1,1,1,2] x, float xs, uint8 xz, int8[2,1,1,1] w, float[2] ws, int8 wz, "
                  "float ys, uint8 yz, int32[2] b) => (uint8[1,2,1,2] y) { y = QLinearConv (x, xs, "
                  "xz, w, ws, wz, ys, yz, b) }"),
            {{"x", u8({1, 1, 1, 2}, {10, 20})},
             {"xs", Tensor::scalar<float>(1)},
             {"xz", Tensor::scalar<uint8_t>(0)},
             {"w", s8({2, 1, 1, 1}, {1, -1})},
             {"ws", f32({2}, {0.5f, 1})},
             {"wz", Tensor::scalar<int8_t>(0)},
             {"ys", Tensor::scalar<float>(1)},
             {"yz", Tensor::scalar<uint8_t>(128)},
             {"b", i32({2}, {0, 4})}});
  CHECK(out[0].tensor().shape() == Shape{1, 2, 1, 2});
  CHECK(vals(out[0].tensor()) == std::vector<double>{133, 138, 122, 112});
}

TEST_CASE("Det over a batch: singular, pivoting, 3x3") {
  auto out = run(model(11, "g (float[2,2,2] x) => (float[2] y) { y = Det (x) }"),
                 {{"x", f32({2, 2, 2}, {1, 2, 2, 4, 0, 1, 1, 0})}});
  check_close(out[0].tensor(), {2}, {0, -1});
  out = run(model(22, "g (double[3,3] x) => (double y) { y = Det (x) }"),
            {{"x", f64({3, 3}, {0, 2, 1, 3, 0, 0, 1, 1, 4})}});
  check_close(out[0].tensor(), {}, {-21});
}

TEST_CASE("Einsum: trace, diagonal over an ellipsis batch, implicit matmul, integers") {
  auto out = run(model(12, "g (float[3,3] x) => (float y) { y = Einsum <equation = \"ii\"> (x) }"),
                 {{"x", f32({3, 3}, {1, 2, 3, 4, 5, 6, 7, 8, 9})}});
  check_close(out[0].tensor(), {}, {15});
  out = run(model(12,
                  "g (float[2,2,2] x) => (float[2,2] y) { y = Einsum <equation = \"...ii->...i\"> "
                  "(x) }"),
            {{"x", f32({2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8})}});
  check_close(out[0].tensor(), {2, 2}, {1, 4, 5, 8});
  out = run(model(12,
                  "g (int64[2,3] a, int64[3] b) => (int64[2] y) { y = Einsum <equation = \"ij,j\"> "
                  "(a, b) }"),
            {{"a", i64({2, 3}, {1, 2, 3, 4, 5, 6})}, {"b", i64({3}, {1, 0, -1})}});
  CHECK(vals(out[0].tensor()) == std::vector<double>{-2, -2});
}

TEST_CASE("inference of the integer ops, Det and Einsum") {
  auto t = infer(model(10,
                       "g (uint8[N,4,3] a, int8[3,5] b) => (int32[N,4,5] y) { m = MatMulInteger "
                       "(a, b)\n y = Identity (m) }"));
  CHECK(t.at("m") == "int32[N,4,5]");
  t = infer(model(22, "g (float[N,3,3] x) => (float[N] y) { d = Det (x)\n y = Identity (d) }"));
  CHECK(t.at("d") == "float[N]");
  t = infer(model(12,
                  "g (float[B,2,3] a, float[3,4] b) => (float[B,2,4] y) { e = Einsum <equation = "
                  "\"...ij,jk\"> (a, b)\n y = Identity (e) }"));
  CHECK(t.at("e") == "float[B,2,4]");
  t = infer(model(10,
                  "g (uint8[1,2,5,5] x, uint8[3,2,3,3] w) => (int32[1,3,5,5] y) { c = ConvInteger "
                  "<pads = [1, 1, 1, 1]> (x, w)\n y = Identity (c) }"));
  CHECK(t.at("c") == "int32[1,3,5,5]");
}
