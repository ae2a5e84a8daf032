// SPDX-License-Identifier: Apache-2.0
// The fusion of dequantized operands (core/exec/passes/fuse_dequantized.h): a Conv whose X and W
// are DequantizeLinear outputs, as ONNX Runtime's quantize_static writes a model in QDQ form,
// computes on the integers. What it takes and leaves, and that it computes what the graph as
// written computes, up to the float rounding of the sums it makes exact.
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

std::string dims(const Shape& s) {
  std::string out = "[";
  for (std::size_t i = 0; i < s.size(); ++i) out += (i ? "," : "") + std::to_string(s[i]);
  return out + "]";
}

// One QDQ convolution: x quantized and dequantized (scale xs, zero point xz), W dequantized along
// axis 0 (ws, wz), Conv with bias b, then `tail` reading c (and r, an extra input of Y's shape
// when `residual`) and writing y.
struct QdqConv {
  Shape x, w;
  std::string conv_attrs = "<pads = [1, 1, 1, 1]>";
  std::string tail = "  y = Relu (c)";
  bool residual = false;
  DataType activations = DataType::uint8, weights = DataType::int8;
  int xz = 10, wz = 0;      // zero points (wz for every channel)
  bool per_channel = true;  // W's scale (and zero point) per output channel, or one
  Shape out;                // Y's shape
};

std::string model_text(const QdqConv& q) {
  std::string in = "float" + dims(q.x) + " x";
  if (q.residual) in += ", float" + dims(q.out) + " r";
  return R"(<ir_version: 8, opset_import: ["" : 13]>
g ()" + in +
         ") => (float" + dims(q.out) + R"( y) {
  xq = QuantizeLinear (x, xs, xz)
  xd = DequantizeLinear (xq, xs, xz)
  wd = DequantizeLinear <axis = 0> (wq, ws, wz)
  c = Conv )" +
         q.conv_attrs +
         R"( (xd, wd, b)
)" + q.tail +
         "\n}";
}

Tensor filled(DataType type, const Shape& shape, int value) {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return cast_to(doubles(shape, std::vector<double>(static_cast<std::size_t>(n), value)), type);
}

Constants constants_of(const QdqConv& q) {
  const int64_t m = q.w[0];
  const Shape per = q.per_channel ? Shape{m} : Shape{};
  const bool unsigned_w = q.weights == DataType::uint8;
  return {{"xs", Tensor::scalar<float>(1.0f / 100)},
          {"xz", filled(q.activations, {}, q.xz)},
          {"wq", random_tensor(q.weights, q.w, 31, unsigned_w ? 0 : -127, unsigned_w ? 255 : 127)},
          {"ws", random_tensor(DataType::float32, per, 32, 0.002, 0.02)},
          {"wz", filled(q.weights, per, q.wz)},
          {"b", random_tensor(DataType::float32, {m}, 33)}};
}

FusedRuns run_qdq(const QdqConv& q, const std::vector<std::string>& disabled = {}) {
  std::vector<std::pair<std::string, Value>> feeds = {
      {"x", Value(random_tensor(DataType::float32, q.x, 34))}};
  if (q.residual) feeds.emplace_back("r", Value(random_tensor(DataType::float32, q.out, 35)));
  return run_fused_and_plain(model_of(model_text(q), constants_of(q)), feeds, disabled);
}

// The graph as written sums the dequantized products in float (a few hundred terms of size up
// to about 2.5 here, so its rounding stays below 1e-4); the fused Conv sums them exactly and
// scales once. A wrong zero point, scale or padding moves results by a step of 1e-4 or more
// times the depth.
void check_matches_graph(const FusedRuns& r) {
  REQUIRE(r.fused.size() == 1);
  check_close(r.fused[0].tensor(), r.unfused[0].tensor(), 1e-4, 2e-4);
  // Exact integer sums, then the same float steps: the thread count changes no bit.
  CHECK(values(r.fused_one_thread[0].tensor()) == values(r.fused[0].tensor()));
}

}  // namespace

TEST_CASE("a QDQ Conv computes on the integers: per-channel, per-tensor, either signedness") {
  QdqConv base;
  base.x = {1, 32, 9, 11};
  base.w = {40, 32, 3, 3};
  base.out = {1, 40, 9, 11};
  SUBCASE("uint8 activations with a zero point (the padding reads it), per-channel int8 W") {
    const FusedRuns r = run_qdq(base);
    // Unfused, W's dequantization is still folded into a float constant.
    CHECK(r.unfused_nodes == 4);
    CHECK(r.fused_nodes == 2);  // QuantizeLinear, and the Conv with its Relu
    check_matches_graph(r);
  }
  SUBCASE("one scale for W, and W's zero point not 0 (its column sums come in)") {
    QdqConv q = base;
    q.per_channel = false;
    q.wz = 3;
    const FusedRuns r = run_qdq(q);
    CHECK(r.fused_nodes == 2);
    check_matches_graph(r);
  }
  SUBCASE("int8 activations, uint8 W around 128") {
    QdqConv q = base;
    q.activations = DataType::int8;
    q.xz = -5;
    q.weights = DataType::uint8;
    q.wz = 128;
    const FusedRuns r = run_qdq(q);
    CHECK(r.fused_nodes == 2);
    check_matches_graph(r);
  }
  SUBCASE("groups, strides, a batch") {
    QdqConv q = base;
    q.x = {2, 64, 10, 10};
    q.w = {48, 32, 3, 3};
    q.conv_attrs = "<group = 2, strides = [2, 2], pads = [1, 1, 1, 1]>";
    q.out = {2, 48, 5, 5};
    const FusedRuns r = run_qdq(q);
    CHECK(r.fused_nodes == 2);
    check_matches_graph(r);
  }
  SUBCASE("a 1x1 Conv deep enough, more positions than one block of the integer products") {
    QdqConv q = base;
    q.x = {1, 256, 20, 20};
    q.w = {24, 256, 1, 1};
    q.conv_attrs = "";
    q.out = {1, 24, 20, 20};
    const FusedRuns r = run_qdq(q);
    CHECK(r.fused_nodes == 2);
    check_matches_graph(r);
  }
}

TEST_CASE("a QDQ Conv takes the residual Add and the activation after it") {
  QdqConv q;
  q.x = {1, 32, 8, 8};
  q.w = {16, 32, 3, 3};
  q.out = {1, 16, 8, 8};
  q.residual = true;
  q.tail = "  s = Add (r, c)\n  y = LeakyRelu <alpha = 0.1> (s)";
  const FusedRuns r = run_qdq(q);
  CHECK(r.unfused_nodes == 5);
  CHECK(r.fused_nodes == 2);
  check_matches_graph(r);
}

TEST_CASE("what stays in float: depthwise, shallow, per-channel X, a shared X dequantization") {
  QdqConv base;
  base.x = {1, 32, 9, 9};
  base.w = {40, 32, 3, 3};
  base.out = {1, 40, 9, 9};
  SUBCASE("depthwise") {
    QdqConv q = base;
    q.w = {32, 1, 3, 3};
    q.conv_attrs = "<group = 32, pads = [1, 1, 1, 1]>";
    q.out = {1, 32, 9, 9};
    const FusedRuns r = run_qdq(q);
    // The weights' dequantization folds into a constant; the activations' stays.
    CHECK(r.fused_nodes == 3);
    check_close(r.fused[0].tensor(), r.unfused[0].tensor(), 1e-5, 1e-5);
  }
  SUBCASE("sums of fewer than 192 products (16 channels x 9)") {
    QdqConv q = base;
    q.x = {1, 16, 9, 9};
    q.w = {40, 16, 3, 3};
    CHECK(run_qdq(q).fused_nodes == 3);
  }
  SUBCASE("the dequantized X read elsewhere too: it stays for that reader") {
    QdqConv q = base;
    q.tail = "  y = Relu (c)\n  z = Relu (xd)";
    std::string text = model_text(q);
    text.replace(text.find(" y) {"), 5, " y, float[1,32,9,9] z) {");
    const Model m = model_of(text, constants_of(q));
    SessionOptions on, off;
    off.fuse = false;
    Session a(m, on), b(m, off);
    const std::vector<std::pair<std::string, Value>> feeds = {
        {"x", Value(random_tensor(DataType::float32, q.x, 34))}};
    CHECK(a.stats().nodes == 4);  // QuantizeLinear, DequantizeLinear, Conv, Relu
    const auto got = a.run(feeds), want = b.run(feeds);
    check_close(got[0].tensor(), want[0].tensor(), 1e-4, 2e-4);
    CHECK(values(got[1].tensor()) == values(want[1].tensor()));
  }
  SUBCASE("the pass switched off") {
    const FusedRuns r = run_qdq(base, {"fuse-dequantized"});
    CHECK(r.fused_nodes == 3);
    check_close(r.fused[0].tensor(), r.unfused[0].tensor(), 1e-5, 1e-5);
  }
}

namespace {

// A dynamically quantized Conv as ONNX Runtime's quantize_dynamic writes it: the activations
// quantized at run time, ConvInteger, its sums cast to float and multiplied by the two scales'
// product, then `tail` (reading cf and writing y; r is an extra input of Y's shape).
std::string dynamic_conv(const std::string& tail) {
  return R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,32,9,9] x, float[1,24,9,9] r) => (float[1,24,9,9] y) {
  xq, xs, xz = DynamicQuantizeLinear (x)
  c = ConvInteger <pads = [1, 1, 1, 1]> (xq, wq, xz, wz)
  cf = Cast <to = 1> (c)
  s = Mul (xs, ws)
)" + tail +
         "\n}";
}

FusedRuns run_dynamic(const std::string& tail) {
  const Constants k = {{"wq", random_tensor(DataType::uint8, {24, 32, 3, 3}, 41, 0, 255)},
                       {"wz", Tensor::scalar<uint8_t>(131)},
                       {"ws", Tensor::scalar<float>(0.0037f)},
                       {"b", random_tensor(DataType::float32, {24, 1, 1}, 42)},
                       {"pc", random_tensor(DataType::float32, {1, 24, 1, 1}, 43)}};
  return run_fused_and_plain(model_of(dynamic_conv(tail), k),
                             {{"x", Value(random_tensor(DataType::float32, {1, 32, 9, 9}, 44))},
                              {"r", Value(random_tensor(DataType::float32, {1, 24, 9, 9}, 45))}});
}

// The fused kernel does the nodes' float operations in their order: the same bits.
void check_same_bits(const FusedRuns& r) {
  CHECK(values(r.fused[0].tensor()) == values(r.unfused[0].tensor()));
  CHECK(values(r.fused_one_thread[0].tensor()) == values(r.fused[0].tensor()));
}

}  // namespace

TEST_CASE("ConvInteger finishes in float: cast, scale, bias, residual and activation fold in") {
  SUBCASE("the whole chain") {
    const auto r = run_dynamic(
        "  cm = Mul (cf, s)\n  cb = Add (cm, b)\n  t = Add (cb, r)\n"
        "  y = Relu (t)");
    CHECK(r.unfused_nodes == 8);
    CHECK(r.fused_nodes == 3);  // DynamicQuantizeLinear, the scales' Mul, ConvInteger
    check_same_bits(r);
  }
  SUBCASE("the scale on the left, a Sub of the bias, no residual") {
    const auto r = run_dynamic("  cm = Mul (s, cf)\n  y = Sub (cm, b)");
    CHECK(r.fused_nodes == 3);
    check_same_bits(r);
  }
  SUBCASE("a bias without a scale") {
    const auto r = run_dynamic("  cb = Add (cf, b)\n  y = Mul (cb, s)");
    // The Mul after the bias is not the scale the kernel applies first: it stays.
    CHECK(r.fused_nodes == 4);
    check_same_bits(r);
  }
}

TEST_CASE("ConvInteger's float finish: what stays a node of its own") {
  SUBCASE("a product by a per-channel tensor: the cast folds, the Mul stays") {
    const auto r = run_dynamic("  y = Mul (cf, pc)");
    CHECK(r.fused_nodes == 4);
    check_same_bits(r);
  }
  SUBCASE("the sums read elsewhere: nothing folds") {
    const auto r = run_dynamic("  cm = Mul (cf, s)\n  d = Cast <to = 1> (c)\n  y = Add (cm, d)");
    CHECK(r.fused_nodes == r.unfused_nodes);
    check_same_bits(r);
  }
}
