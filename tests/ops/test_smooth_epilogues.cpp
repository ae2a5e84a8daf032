// SPDX-License-Identifier: Apache-2.0
// The epilogues that are not clamps (kernels::Epilogue sigmoid, hard_sigmoid, hard_swish,
// swish): Sigmoid, HardSigmoid, HardSwish and Swish written as Sigmoid and Mul, after a Conv
// on each of its kernel paths, a MatMul, a Gemm and a BatchNormalization, run in the
// producer's kernel with the bits of the nodes as written, on one thread and two.
#include <doctest/doctest.h>

#include <string>
#include <utility>
#include <vector>

#include "core/exec/session.h"
#include "core/model/model.h"
#include "tests/ops/test_nn_support.h"

using namespace onnxtool;
using namespace onnxtool::test::nn;

namespace {

using Constants = std::vector<std::pair<std::string, Tensor>>;

// The activations, each reading c and writing y.
const char* const kActivations[] = {
    "y = Sigmoid (c)",
    "y = HardSigmoid <alpha = 0.3, beta = 0.4> (c)",
    "y = HardSwish (c)",
    "s = Sigmoid (c)\n  y = Mul (c, s)",
    "s = Sigmoid (c)\n  y = Mul (s, c)",
};

int64_t nodes_of(const std::string& activation) {
  return activation.find("Mul") != std::string::npos ? 2 : 1;
}

void check_fused_bits(const FusedRuns& r, int64_t producer_nodes, const std::string& activation) {
  CHECK(r.unfused_nodes == producer_nodes + nodes_of(activation));
  CHECK(r.fused_nodes == producer_nodes);
  CHECK(values(r.fused[0].tensor()) == values(r.unfused[0].tensor()));
  CHECK(values(r.fused_one_thread[0].tensor()) == values(r.unfused[0].tensor()));
}

struct ConvCase {
  const char* what;
  int64_t channels, size, filters, kernel, stride, pad, group;
};

std::string conv_model(const ConvCase& c, const std::string& activation) {
  const int64_t out = (c.size + 2 * c.pad - c.kernel) / c.stride + 1;
  const std::string in = "1," + std::to_string(c.channels) + "," + std::to_string(c.size) + "," +
                         std::to_string(c.size);
  const std::string y =
      "1," + std::to_string(c.filters) + "," + std::to_string(out) + "," + std::to_string(out);
  const std::string p = std::to_string(c.pad), s = std::to_string(c.stride);
  return "<ir_version: 8, opset_import: [\"\" : 14]>\ng (float[" + in + "] x) => (float[" + y +
         "] y) {\n  c = Conv <pads = [" + p + ", " + p + ", " + p + ", " + p + "], strides = [" +
         s + ", " + s + "], group = " + std::to_string(c.group) + "> (x, w, b)\n  " + activation +
         "\n}";
}

}  // namespace

TEST_CASE("smooth activations after a Conv, on every kernel path, keep their bits") {
  const ConvCase cases[] = {
      {"3x3 products", 8, 9, 8, 3, 1, 1, 1},
      {"1x1 products", 16, 12, 24, 1, 1, 0, 1},
      {"depthwise", 8, 9, 8, 3, 1, 1, 8},
      {"depthwise, small planes by channel blocks", 32, 7, 32, 3, 1, 1, 32},
      {"few positions: the product transposed", 64, 7, 48, 3, 1, 1, 1},
      {"Winograd's size", 64, 28, 64, 3, 1, 1, 1},
      {"few input channels: read in place", 3, 20, 16, 3, 2, 1, 1},
  };
  for (const ConvCase& c : cases) {
    for (const char* activation : kActivations) {
      INFO(std::string(c.what), ": ", std::string(activation));
      Constants k = {{"w", random_tensor(DataType::float32,
                                         {c.filters, c.channels / c.group, c.kernel, c.kernel}, 21,
                                         -0.5, 0.5)},
                     {"b", random_tensor(DataType::float32, {c.filters}, 22)}};
      const Tensor x = random_tensor(DataType::float32, {1, c.channels, c.size, c.size}, 23, -2, 2);
      check_fused_bits(
          run_fused_and_plain(model_of(conv_model(c, activation), k), {{"x", Value(x)}}), 1,
          activation);
    }
  }
}

TEST_CASE("smooth activations after a MatMul, a Gemm and a BatchNormalization keep their bits") {
  for (const char* activation : kActivations) {
    INFO(std::string(activation));
    SUBCASE("MatMul, B packed at planning") {
      const std::string text =
          "<ir_version: 8, opset_import: [\"\" : 14]>\ng (float[37,64] x) => (float[37,40] y) {\n"
          "  c = MatMul (x, w)\n  " +
          std::string(activation) + "\n}";
      const FusedRuns r = run_fused_and_plain(
          model_of(text, {{"w", random_tensor(DataType::float32, {64, 40}, 31)}}),
          {{"x", Value(random_tensor(DataType::float32, {37, 64}, 32))}});
      check_fused_bits(r, 1, activation);
    }
    SUBCASE("Gemm") {
      const std::string text =
          "<ir_version: 8, opset_import: [\"\" : 14]>\ng (float[5,64] x) => (float[5,40] y) {\n"
          "  c = Gemm <transB = 1> (x, w, b)\n  " +
          std::string(activation) + "\n}";
      Constants k = {{"w", random_tensor(DataType::float32, {40, 64}, 33)},
                     {"b", random_tensor(DataType::float32, {40}, 34)}};
      const FusedRuns r = run_fused_and_plain(
          model_of(text, k), {{"x", Value(random_tensor(DataType::float32, {5, 64}, 35))}});
      check_fused_bits(r, 1, activation);
    }
    SUBCASE("BatchNormalization of an input") {
      const std::string text =
          "<ir_version: 8, opset_import: [\"\" : 14]>\ng (float[2,6,5,7] x) => (float[2,6,5,7] y) "
          "{\n  c = BatchNormalization (x, scale, bias, mean, var)\n  " +
          std::string(activation) + "\n}";
      Constants k = {{"scale", random_tensor(DataType::float32, {6}, 36)},
                     {"bias", random_tensor(DataType::float32, {6}, 37)},
                     {"mean", random_tensor(DataType::float32, {6}, 38)},
                     {"var", random_tensor(DataType::float32, {6}, 39, 0.5, 2)}};
      const FusedRuns r = run_fused_and_plain(
          model_of(text, k), {{"x", Value(random_tensor(DataType::float32, {2, 6, 5, 7}, 40))}});
      check_fused_bits(r, 1, activation);
    }
  }
}

TEST_CASE("Swish written out stays apart where the Conv's output has another reader") {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 14]>
g (float[1,8,9,9] x) => (float[1,8,9,9] y, float[1,8,9,9] c) {
  c = Conv <pads = [1, 1, 1, 1]> (x, w, b)
  s = Sigmoid (c)
  y = Mul (c, s)
})";
  Constants k = {{"w", random_tensor(DataType::float32, {8, 8, 3, 3}, 41)},
                 {"b", random_tensor(DataType::float32, {8}, 42)}};
  const FusedRuns r = run_fused_and_plain(
      model_of(text, k), {{"x", Value(random_tensor(DataType::float32, {1, 8, 9, 9}, 43))}},
      {"fuse-elementwise"});
  CHECK(r.fused_nodes == 3);
  for (std::size_t i = 0; i < 2; ++i)
    CHECK(values(r.fused[i].tensor()) == values(r.unfused[i].tensor()));
}
