// SPDX-License-Identifier: Apache-2.0
// The widening of float16 and bfloat16 values to float32 (core/exec/passes/widen_float16.h): a
// graph converted to float16 computes what the float32 graph it came from computes, on the
// float16 weights; its edges keep their types; operators without a float32 equivalent stay
// narrow behind conversions.
#include <doctest/doctest.h>

#include <algorithm>
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

// Conv (W, B) with its Relu, a MaxPool, and a residual Add of the pooled Conv of the pool: the
// nodes of a converted CNN. `head` and `tail` are the nodes making h from x and y from t.
std::string cnn_text(const std::string& in, const std::string& out, const std::string& head,
                     const std::string& tail, int opset = 13) {
  return R"(<ir_version: 8, opset_import: ["" : )" + std::to_string(opset) + R"(]>
g ()" + in +
         " x) => (" + out + R"( y) {
)" + head +
         R"(
  c = Conv <pads = [1, 1, 1, 1]> (h, w, b)
  a = Relu (c)
  p = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (a)
  d = Conv <pads = [1, 1, 1, 1]> (p, w2, b2)
  t = Add (p, d)
)" + tail +
         "\n}";
}

// The weights in `type`: float16 values, the float32 model's given the same values exactly.
Constants weights(DataType type) {
  const auto narrow = [](const Tensor& t) { return cast_to(t, DataType::float16); };
  Constants c = {{"w", narrow(random_tensor(DataType::float32, {8, 4, 3, 3}, 41, -0.3, 0.3))},
                 {"b", narrow(random_tensor(DataType::float32, {8}, 42))},
                 {"w2", narrow(random_tensor(DataType::float32, {8, 8, 3, 3}, 43, -0.2, 0.2))},
                 {"b2", narrow(random_tensor(DataType::float32, {8}, 44))}};
  for (auto& [name, t] : c) t = cast_to(t, type);
  return c;
}

std::vector<std::pair<std::string, Value>> feed(DataType type) {
  return {{"x", Value(cast_to(random_tensor(DataType::float32, {1, 4, 10, 10}, 45), type))}};
}

// The same CNN in float32, on the float16 weights.
Tensor float32_reference(const std::vector<std::pair<std::string, Value>>& feeds) {
  const Model m = model_of(
      cnn_text("float[1,4,10,10]", "float[1,8,5,5]", "  h = Identity (x)", "  y = Identity (t)"),
      weights(DataType::float32));
  SessionOptions o;
  o.threads = 2;
  Session s(m, o);
  return s.run(feeds)[0].tensor();
}

}  // namespace

TEST_CASE("a float16 graph with float32 edges computes as the float32 graph does") {
  // As onnxconverter-common's keep_io_types leaves a model: Cast to float16 after the input,
  // Cast to float32 before the output.
  const Model m = model_of(cnn_text("float[1,4,10,10]", "float[1,8,5,5]",
                                    "  h = Cast <to = 10> (x)", "  y = Cast <to = 1> (t)"),
                           weights(DataType::float16));
  const auto feeds = feed(DataType::float32);
  const FusedRuns r = run_fused_and_plain(m, feeds);
  REQUIRE(r.fused.size() == 1);
  const Tensor& y = r.fused[0].tensor();
  CHECK(y.dtype() == DataType::float32);
  // Both Casts went: Conv+Relu, MaxPool, Conv+Add (the residual).
  CHECK(r.unfused_nodes == 7);
  CHECK(r.fused_nodes == 3);
  // Nothing is rounded to float16 any more but the weights: the float32 graph's own values.
  CHECK(values(y) == values(float32_reference(feeds)));
  // The graph as written rounds every value to float16 (a relative step of 2^-11).
  check_close(y, r.unfused[0].tensor(), 1e-2, 1e-2);
  CHECK(values(y) != values(r.unfused[0].tensor()));
  CHECK(values(r.fused_one_thread[0].tensor()) == values(y));
}

TEST_CASE("a float16 graph with float16 edges keeps them, converting at the edges") {
  const Model m = model_of(cnn_text("float16[1,4,10,10]", "float16[1,8,5,5]", "  h = Identity (x)",
                                    "  y = Identity (t)"),
                           weights(DataType::float16));
  const auto feeds = feed(DataType::float16);
  const FusedRuns r = run_fused_and_plain(m, feeds);
  const Tensor& y = r.fused[0].tensor();
  CHECK(y.dtype() == DataType::float16);
  // A conversion in, and one out (the Identity nodes widen too: they only move data).
  CHECK(r.fused_nodes == 7);
  // The float32 graph's values on the same (float16) input, rounded once at the end.
  const Tensor want = cast_to(
      float32_reference({{"x", Value(cast_to(feeds[0].second.tensor(), DataType::float32))}}),
      DataType::float16);
  CHECK(values(y) == values(want));
  check_close(y, r.unfused[0].tensor(), 1e-2, 1e-2);
}

TEST_CASE("values the region shares with the outside stay narrow there") {
  // p is also a graph output, and read by CumSum, which has no float32 equivalent declared:
  // both read float16, converted back from the region's float32.
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 14]>
g (float16[1,4,10,10] x) => (float16[1,8,5,5] y, float16[1,8,5,5] p, float16[1,8,5,5] s) {
  c = Conv <pads = [1, 1, 1, 1]> (x, w, b)
  a = Relu (c)
  p = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (a)
  s = CumSum (p, axis)
  y = Add (p, s)
})";
  Constants constants = weights(DataType::float16);
  constants.emplace_back("axis", Tensor::scalar<int64_t>(1));
  const Model m = model_of(text, constants);
  const FusedRuns r = run_fused_and_plain(m, feed(DataType::float16));
  REQUIRE(r.fused.size() == 3);
  for (const Value& v : r.fused) CHECK(v.tensor().dtype() == DataType::float16);
  // p, rounded where it leaves the region, is the graph's as written (rounding to nearest
  // commutes with Relu and max), and so is CumSum's s; y adds the unrounded p.
  CHECK(values(r.fused[1].tensor()) == values(r.unfused[1].tensor()));
  CHECK(values(r.fused[2].tensor()) == values(r.unfused[2].tensor()));
  check_close(r.fused[0].tensor(), r.unfused[0].tensor(), 1e-2, 1e-2);
}

TEST_CASE("bfloat16 widens as float16 does, and the pass can be left out") {
  const Model m = model_of(cnn_text("float[1,4,10,10]", "float[1,8,5,5]",
                                    "  h = Cast <to = 16> (x)", "  y = Cast <to = 1> (t)", 22),
                           weights(DataType::bfloat16));
  const auto feeds = feed(DataType::float32);
  const FusedRuns r = run_fused_and_plain(m, feeds);
  CHECK(r.fused_nodes == 3);
  // The weights in bfloat16 are not those in float16: compare with the graph as written, whose
  // bfloat16 roundings (a relative step of 2^-8) are the difference.
  check_close(r.fused[0].tensor(), r.unfused[0].tensor(), 5e-2, 5e-2);
  const FusedRuns kept = run_fused_and_plain(m, feeds, {"widen-float16"});
  CHECK(kept.fused_nodes == 5);  // the Casts stay; the fusions still apply
  CHECK(values(kept.fused[0].tensor()) != values(r.fused[0].tensor()));
}

TEST_CASE("a value a subgraph reads stays float16 for it; the branches widen on their own") {
  // a is computed in the region (MatMul, Add) and read by the If's branches, which declare
  // float16 outputs: they get a converted back, widen their own Relu or Neg, and round what
  // they return; the Mul after the If reads that and the unrounded a.
  const std::string text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2,4] x, bool c) => (float[2,8] y) {
  h = Cast <to = 10> (x)
  m = MatMul (h, w)
  a = Add (m, b)
  f = If (c) <then_branch = t () => (float16[2,8] o) { o = Relu (a) }, else_branch = e () => (float16[2,8] o) { o = Neg (a) }>
  z = Mul (f, a)
  y = Cast <to = 1> (z)
})";
  const Constants constants = {
      {"w", cast_to(random_tensor(DataType::float32, {4, 8}, 51), DataType::float16)},
      {"b", cast_to(random_tensor(DataType::float32, {8}, 52), DataType::float16)}};
  const Model m = model_of(text, constants);
  const Tensor x = random_tensor(DataType::float32, {2, 4}, 53);
  for (bool take_then : {true, false}) {
    INFO("then branch: ", take_then);
    const std::vector<std::pair<std::string, Value>> feeds = {
        {"x", Value(x)}, {"c", Value(Tensor::scalar<bool>(take_then))}};
    const FusedRuns r = run_fused_and_plain(m, feeds);
    const Tensor& y = r.fused[0].tensor();
    REQUIRE(y.dtype() == DataType::float32);
    // The same in double: a unrounded, f rounded to float16 where the branch returns it.
    const std::vector<double> xs = values(x), ws = values(constants[0].second),
                              bs = values(constants[1].second);
    std::vector<double> a(16), f(16), want(16);
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 8; ++j) {
        double sum = 0;
        for (int k = 0; k < 4; ++k) sum += xs[i * 4 + k] * ws[k * 8 + j];
        a[i * 8 + j] = sum + bs[j];
      }
    for (int i = 0; i < 16; ++i) {
      const double rounded_a = values(cast_to(doubles({}, {a[i]}), DataType::float16))[0];
      const double branch = take_then ? std::max(0.0, rounded_a) : -rounded_a;
      f[i] = values(cast_to(doubles({}, {branch}), DataType::float16))[0];
      want[i] = f[i] * a[i];
    }
    check_close(y, doubles({2, 8}, want), 1e-5, 1e-6);
    // The graph as written rounds m and a to float16 too.
    CHECK(values(y) != values(r.unfused[0].tensor()));
    check_close(y, r.unfused[0].tensor(), 1e-2, 1e-2);
  }
}
