// SPDX-License-Identifier: Apache-2.0
// The executor's fusions (core/exec/passes/fuse_*): what they fold, where they must not, and
// that the fused graph computes what the graph as written computes, up to float rounding.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/exec/session.h"
#include "core/model/model.h"
#include "core/text/parser.h"
#include "core/types/tensor_proto.h"
#include "onnx.pb.h"
#include "tests/ops/test_nn_support.h"

using namespace onnxtool;
using namespace onnxtool::test::nn;

namespace {

using Constants = std::vector<std::pair<std::string, Tensor>>;

Tensor positive(const Shape& shape, uint32_t seed) {
  return random_tensor(DataType::float32, shape, seed, 0.5, 2.0);
}

// The batch-norm parameters for c channels: scale, bias, mean, var.
Constants bn_params(int64_t c, uint32_t seed) {
  return {{"scale", random_tensor(DataType::float32, {c}, seed)},
          {"bias", random_tensor(DataType::float32, {c}, seed + 1)},
          {"mean", random_tensor(DataType::float32, {c}, seed + 2)},
          {"var", positive({c}, seed + 3)}};
}

struct Runs {
  std::vector<Value> fused, unfused;
  int64_t fused_nodes = 0, unfused_nodes = 0;
};

Runs run_both(const Model& m, const Tensor& x, int threads = 2,
              const std::vector<std::string>& disabled = {}) {
  SessionOptions on;
  on.threads = threads;
  on.disabled_passes = disabled;
  SessionOptions off = on;
  off.fuse = false;
  Session a(m, on), b(m, off);
  Runs r;
  r.fused = a.run({{"x", Value(x)}});
  r.unfused = b.run({{"x", Value(x)}});
  r.fused_nodes = a.stats().nodes;
  r.unfused_nodes = b.stats().nodes;
  return r;
}

void check_same_outputs(const Runs& r) {
  REQUIRE(r.fused.size() == r.unfused.size());
  for (std::size_t i = 0; i < r.fused.size(); ++i)
    check_close(r.fused[i].tensor(), r.unfused[i].tensor(), 1e-5, 1e-5);
}

const char* kConvBnRelu = R"(<ir_version: 8, opset_import: ["" : 15]>
g (float[1,3,9,9] x) => (float[1,8,9,9] y) {
  c = Conv <pads = [1, 1, 1, 1]> (x, w, b)
  n = BatchNormalization <epsilon = 0.001> (c, scale, bias, mean, var)
  y = Relu (n)
})";

}  // namespace

TEST_CASE("BatchNormalization after Conv folds into the Conv's weights; same outputs") {
  Constants k = bn_params(8, 10);
  k.emplace_back("w", random_tensor(DataType::float32, {8, 3, 3, 3}, 1));
  k.emplace_back("b", random_tensor(DataType::float32, {8}, 2));
  const Runs r =
      run_both(model_of(kConvBnRelu, k), random_tensor(DataType::float32, {1, 3, 9, 9}, 3));
  CHECK(r.unfused_nodes == 3);
  CHECK(r.fused_nodes == 1);  // the Relu too, as the Conv's epilogue
  check_same_outputs(r);
  // One thread and two give the same bits on the fused graph too.
  const Runs one =
      run_both(model_of(kConvBnRelu, k), random_tensor(DataType::float32, {1, 3, 9, 9}, 3), 1);
  CHECK(values(one.fused[0].tensor()) == values(r.fused[0].tensor()));
}

TEST_CASE("a Conv without a bias gets one when a BatchNormalization folds into it") {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 9]>
g (float[2,4,6,6] x) => (float[2,5,6,6] y) {
  c = Conv (x, w)
  y = BatchNormalization (c, scale, bias, mean, var)
})";
  Constants k = bn_params(5, 20);
  k.emplace_back("w", random_tensor(DataType::float32, {5, 4, 1, 1}, 4));
  const Runs r = run_both(model_of(text, k), random_tensor(DataType::float32, {2, 4, 6, 6}, 5));
  CHECK(r.fused_nodes == 1);
  check_same_outputs(r);
}

TEST_CASE("grouped and depthwise Convs absorb a BatchNormalization too") {
  for (const char* group : {"2", "8"}) {
    const std::string text = std::string(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,8,7,7] x) => (float[1,8,7,7] y) {
  c = Conv <group = )") + group +
                             R"(, pads = [1, 1, 1, 1]> (x, w, b)
  y = BatchNormalization (c, scale, bias, mean, var)
})";
    Constants k = bn_params(8, 30);
    k.emplace_back("w", random_tensor(DataType::float32, {8, 8 / std::stoi(group), 3, 3}, 6));
    k.emplace_back("b", random_tensor(DataType::float32, {8}, 7));
    const Runs r = run_both(model_of(text, k), random_tensor(DataType::float32, {1, 8, 7, 7}, 8));
    INFO("group ", group);
    CHECK(r.fused_nodes == 1);
    check_same_outputs(r);
  }
}

TEST_CASE("no fold where the Conv's output is read elsewhere, or the statistics vary") {
  SUBCASE("the Conv's output is also a graph output") {
    const char* text = R"(<ir_version: 8, opset_import: ["" : 15]>
g (float[1,3,5,5] x) => (float[1,4,5,5] y, float[1,4,5,5] c) {
  c = Conv (x, w)
  y = BatchNormalization (c, scale, bias, mean, var)
})";
    Constants k = bn_params(4, 40);
    k.emplace_back("w", random_tensor(DataType::float32, {4, 3, 1, 1}, 9));
    const Runs r = run_both(model_of(text, k), random_tensor(DataType::float32, {1, 3, 5, 5}, 1));
    CHECK(r.fused_nodes == 2);
    check_same_outputs(r);
  }
  SUBCASE("the Conv's output feeds a second node") {
    const char* text = R"(<ir_version: 8, opset_import: ["" : 15]>
g (float[1,3,5,5] x) => (float[1,4,5,5] y) {
  c = Conv (x, w)
  n = BatchNormalization (c, scale, bias, mean, var)
  y = Add (n, c)
})";
    Constants k = bn_params(4, 50);
    k.emplace_back("w", random_tensor(DataType::float32, {4, 3, 1, 1}, 9));
    const Runs r = run_both(model_of(text, k), random_tensor(DataType::float32, {1, 3, 5, 5}, 1));
    CHECK(r.fused_nodes == 3);
    check_same_outputs(r);
  }
  SUBCASE("the mean is an input of the graph") {
    const char* text = R"(<ir_version: 8, opset_import: ["" : 15]>
g (float[1,3,5,5] x, float[4] mean) => (float[1,4,5,5] y) {
  c = Conv (x, w)
  y = BatchNormalization (c, scale, bias, mean, var)
})";
    Constants k = bn_params(4, 60);
    k.erase(k.begin() + 2);  // mean
    k.emplace_back("w", random_tensor(DataType::float32, {4, 3, 1, 1}, 9));
    SessionOptions on;
    Session s(model_of(text, k), on);
    CHECK(s.stats().nodes == 2);
  }
  SUBCASE("training mode") {
    const char* text = R"(<ir_version: 8, opset_import: ["" : 15]>
g (float[2,3,5,5] x) => (float[2,4,5,5] y) {
  c = Conv (x, w)
  y = BatchNormalization <training_mode = 1> (c, scale, bias, mean, var)
})";
    Constants k = bn_params(4, 70);
    k.emplace_back("w", random_tensor(DataType::float32, {4, 3, 1, 1}, 9));
    const Runs r = run_both(model_of(text, k), random_tensor(DataType::float32, {2, 3, 5, 5}, 1));
    CHECK(r.fused_nodes == 2);
    check_same_outputs(r);
  }
}

TEST_CASE("weights shared by two Convs: each fused Conv gets its own, the other keeps them") {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 15]>
g (float[1,3,5,5] x) => (float[1,4,5,5] y, float[1,4,5,5] z) {
  c = Conv (x, w)
  y = BatchNormalization (c, scale, bias, mean, var)
  z = Conv (x, w)
})";
  Constants k = bn_params(4, 80);
  k.emplace_back("w", random_tensor(DataType::float32, {4, 3, 1, 1}, 9));
  const Runs r = run_both(model_of(text, k), random_tensor(DataType::float32, {1, 3, 5, 5}, 1));
  CHECK(r.fused_nodes == 2);
  check_same_outputs(r);
  // z is the Conv as written: the same bits with and without fusion.
  CHECK(values(r.fused[1].tensor()) == values(r.unfused[1].tensor()));
}

namespace {

// A Conv (3x3 padded, 1x1, or depthwise) followed by `activation` ("Relu (c)", ...), opset 13.
std::string conv_then(const std::string& conv_attrs, const std::string& activation) {
  return std::string(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,8,9,9] x) => (float[1,8,9,9] y) {
  c = Conv )") +
         conv_attrs + " (x, w, b)\n  y = " + activation + "\n}";
}

}  // namespace

TEST_CASE("an activation after a Conv runs in the Conv's kernel, with the same bits") {
  struct Case {
    const char* conv;
    int64_t w_in;  // input channels per group
    int64_t kernel;
    const char* activation;
  };
  const Case cases[] = {
      {"<pads = [1, 1, 1, 1]>", 8, 3, "Relu (c)"},
      {"", 8, 1, "Relu (c)"},
      {"<group = 8, pads = [1, 1, 1, 1]>", 1, 3, "Relu (c)"},
      {"<pads = [1, 1, 1, 1]>", 8, 3, "LeakyRelu <alpha = 0.2> (c)"},
      {"<pads = [1, 1, 1, 1]>", 8, 3, "Clip (c, lo, hi)"},
      {"<pads = [1, 1, 1, 1]>", 8, 3, "Clip (c, , hi)"},
  };
  for (const Case& c : cases) {
    INFO(c.conv, " ", c.activation);
    Constants k = {{"w", random_tensor(DataType::float32, {8, c.w_in, c.kernel, c.kernel}, 11)},
                   {"b", random_tensor(DataType::float32, {8}, 12)},
                   {"lo", Tensor::scalar<float>(-0.25f)},
                   {"hi", Tensor::scalar<float>(0.5f)}};
    const Runs r = run_both(model_of(conv_then(c.conv, c.activation), k),
                            random_tensor(DataType::float32, {1, 8, 9, 9}, 13));
    CHECK(r.unfused_nodes == 2);
    CHECK(r.fused_nodes == 1);
    CHECK(values(r.fused[0].tensor()) == values(r.unfused[0].tensor()));
  }
}

// In float16 the Conv computes in float32 and rounds once at the end; the nodes as written
// round before the activation. A clamp (Relu, Clip, even with bounds float16 cannot hold)
// gives the same values either way, so it folds; a LeakyRelu would not, so it stays a node.
// (These are the narrow types' own fusions: widen-float16, which would compute it all in
// float32, is left out.)
TEST_CASE("float16 and bfloat16 Convs take clamps as epilogues, with the same bits") {
  struct Case {
    const char* activation;
    bool folds;
  };
  const Case cases[] = {{"Relu (c)", true},
                        {"Clip (c, lo, hi)", true},
                        {"Clip <min = 0.1, max = 0.7> (c)", true},
                        {"LeakyRelu <alpha = 0.2> (c)", false}};
  for (DataType type : {DataType::float16, DataType::bfloat16})
    for (const Case& c : cases) {
      const bool clip6 = std::string(c.activation).find("min =") != std::string::npos;
      if (clip6 && type == DataType::bfloat16) continue;  // Clip-6 has no bfloat16
      const std::string name = type == DataType::float16 ? "float16" : "bfloat16";
      INFO(name, " ", c.activation);
      const std::string text = std::string(R"(<ir_version: 8, opset_import: ["" : )") +
                               (clip6                        ? "6"
                                : type == DataType::bfloat16 ? "22"
                                                             : "13") +
                               "]>\ng (" + name + "[1,8,9,9] x) => (" + name +
                               "[1,8,9,9] y) {\n  c = Conv <pads = [1, 1, 1, 1]> (x, w, b)\n" +
                               "  y = " + c.activation + "\n}";
      Constants k = {{"w", cast_to(random_tensor(DataType::float32, {8, 8, 3, 3}, 31), type)},
                     {"b", cast_to(random_tensor(DataType::float32, {8}, 32), type)},
                     {"lo", cast_to(Tensor::scalar<float>(-0.3f), type)},
                     {"hi", cast_to(Tensor::scalar<float>(0.6f), type)}};
      const Runs r = run_both(model_of(text, k),
                              cast_to(random_tensor(DataType::float32, {1, 8, 9, 9}, 33), type), 2,
                              {"widen-float16"});
      CHECK(r.unfused_nodes == 2);
      CHECK(r.fused_nodes == (c.folds ? 1 : 2));
      CHECK(values(r.fused[0].tensor()) == values(r.unfused[0].tensor()));
    }
}

TEST_CASE("Clip-6's attribute bounds and Conv, BatchNormalization, Relu as one node") {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 9]>
g (float[1,3,9,9] x) => (float[1,8,9,9] y) {
  c = Conv <pads = [1, 1, 1, 1]> (x, w, b)
  n = BatchNormalization (c, scale, bias, mean, var)
  y = Clip <min = 0.0, max = 6.0> (n)
})";
  Constants k = bn_params(8, 90);
  k.emplace_back("w", random_tensor(DataType::float32, {8, 3, 3, 3}, 1));
  k.emplace_back("b", random_tensor(DataType::float32, {8}, 2));
  const Runs r = run_both(model_of(text, k), random_tensor(DataType::float32, {1, 3, 9, 9}, 3));
  CHECK(r.unfused_nodes == 3);
  CHECK(r.fused_nodes == 1);
  check_same_outputs(r);
}

TEST_CASE("no epilogue where the Conv's output is read elsewhere or the bounds vary") {
  SUBCASE("a second reader") {
    const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,8,5,5] x) => (float[1,8,5,5] y) {
  c = Conv (x, w)
  r = Relu (c)
  y = Add (r, c)
})";
    // (Without element-wise regions, which would run Relu and Add as one node.)
    const Runs r =
        run_both(model_of(text, {{"w", random_tensor(DataType::float32, {8, 8, 1, 1}, 4)}}),
                 random_tensor(DataType::float32, {1, 8, 5, 5}, 5), 2, {"fuse-elementwise"});
    CHECK(r.fused_nodes == 3);
    CHECK(values(r.fused[0].tensor()) == values(r.unfused[0].tensor()));
  }
  SUBCASE("a bound that is an input of the graph") {
    const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,8,5,5] x, float hi) => (float[1,8,5,5] y) {
  c = Conv (x, w)
  y = Clip (c, , hi)
})";
    SessionOptions on;
    Session s(model_of(text, {{"w", random_tensor(DataType::float32, {8, 8, 1, 1}, 4)}}), on);
    CHECK(s.stats().nodes == 2);
  }
}

TEST_CASE("Mul, Add and Sub by per-channel constants fold into the Conv before them") {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,3,6,6] x) => (float[1,4,6,6] y) {
  c = Conv (x, w)
  m = Mul (c, s)
  a = Add (m, t)
  u = Sub (a, h)
  y = Relu (u)
})";
  const Constants k = {{"w", random_tensor(DataType::float32, {4, 3, 1, 1}, 1)},
                       {"s", random_tensor(DataType::float32, {4, 1, 1}, 2)},
                       {"t", random_tensor(DataType::float32, {1, 4, 1, 1}, 3)},
                       {"h", Tensor::scalar<float>(0.25f)}};
  const Runs r = run_both(model_of(text, k), random_tensor(DataType::float32, {1, 3, 6, 6}, 4));
  CHECK(r.unfused_nodes == 5);
  CHECK(r.fused_nodes == 1);
  check_same_outputs(r);
}

TEST_CASE("no fold for constants along another axis, or that would add axes") {
  // Along the last axis (width), or rank 5 against a rank-4 output (broadcasting adds an axis).
  for (const char* shape : {"[6]", "[1,1,4,1,1]"}) {
    INFO(shape);
    const std::string text = std::string(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,3,6,6] x) => (y) {
  c = Conv (x, w)
  y = Mul (c, s)
})");
    const Shape s = std::string(shape) == "[6]" ? Shape{6} : Shape{1, 1, 4, 1, 1};
    const Constants k = {{"w", random_tensor(DataType::float32, {4, 3, 1, 1}, 1)},
                         {"s", random_tensor(DataType::float32, s, 2)}};
    const Runs r = run_both(model_of(text, k), random_tensor(DataType::float32, {1, 3, 6, 6}, 4));
    CHECK(r.fused_nodes == 2);
    CHECK(values(r.fused[0].tensor()) == values(r.unfused[0].tensor()));
  }
}

TEST_CASE("a BatchNormalization no Conv absorbs takes the Mul, Add and Relu after it") {
  // Pre-activation, as DenseNet has it: the normalisation reads a Concat, not a Conv.
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,3,6,6] x, float[1,2,6,6] z) => (float[1,5,6,6] y) {
  j = Concat <axis = 1> (x, z)
  n = BatchNormalization (j, scale, bias, mean, var)
  m = Mul (n, s)
  a = Add (m, t)
  y = Relu (a)
})";
  Constants k = bn_params(5, 100);
  k.emplace_back("s", random_tensor(DataType::float32, {5, 1, 1}, 2));
  k.emplace_back("t", random_tensor(DataType::float32, {5, 1, 1}, 3));
  const Model m = model_of(text, k);
  SessionOptions on, off;
  off.fuse = false;
  Session fused(m, on), plain(m, off);
  const std::vector<std::pair<std::string, Value>> feeds = {
      {"x", Value(random_tensor(DataType::float32, {1, 3, 6, 6}, 4))},
      {"z", Value(random_tensor(DataType::float32, {1, 2, 6, 6}, 5))}};
  CHECK(plain.stats().nodes == 5);
  CHECK(fused.stats().nodes == 2);
  check_close(fused.run(feeds)[0].tensor(), plain.run(feeds)[0].tensor(), 1e-5, 1e-5);
}

namespace {

// c = Conv(x, w, b), then `tail` (which reads c and r and writes y), opset 13.
std::string conv_with_residual(int64_t cin, int64_t cout, int64_t hw, const std::string& conv,
                               const std::string& tail) {
  const std::string in =
      "[1," + std::to_string(cin) + "," + std::to_string(hw) + "," + std::to_string(hw) + "]";
  const std::string out =
      "[1," + std::to_string(cout) + "," + std::to_string(hw) + "," + std::to_string(hw) + "]";
  return R"(<ir_version: 8, opset_import: ["" : 13]>
g (float)" +
         in + " x, float" + out + " r) => (float" + out + " y) {\n  c = Conv " + conv +
         " (x, w, b)\n" + tail + "\n}";
}

}  // namespace

TEST_CASE("a residual Add after a Conv runs in the Conv's kernel, with the same bits") {
  struct Case {
    int64_t cin, cout, hw, kernel;
    const char* conv;
    const char* tail;
  };
  // Pointwise and im2col Convs whose products split into column tiles (24x24 positions) or
  // into row blocks (7x7), depthwise by planes (9x9) and by channel blocks (7x7, 16 and 4
  // channels), Winograd's 3x3 path (32 channels in or more, 24x24 and 28x28
  // positions), the phase-plane products (16 channels in: 5x5, and 3x3 on 13x13), the summand
  // on either side, a Sum, and an activation after.
  const Case cases[] = {
      {16, 64, 24, 1, "", "  s = Add (c, r)\n  y = Relu (s)"},
      {16, 64, 24, 1, "", "  y = Add (r, c)"},
      {16, 64, 7, 1, "", "  s = Sum (c, r)\n  y = Relu (s)"},
      {8, 24, 24, 3, "<pads = [1, 1, 1, 1]>", "  s = Add (c, r)\n  y = Relu (s)"},
      {32, 40, 7, 3, "<pads = [1, 1, 1, 1]>", "  s = Add (r, c)\n  y = LeakyRelu (s)"},
      {8, 8, 9, 3, "<group = 8, pads = [1, 1, 1, 1]>", "  s = Add (c, r)\n  y = Relu (s)"},
      {20, 20, 7, 3, "<group = 20, pads = [1, 1, 1, 1]>", "  s = Add (c, r)\n  y = Relu (s)"},
      {32, 40, 24, 3, "<pads = [1, 1, 1, 1]>", "  s = Add (c, r)\n  y = Relu (s)"},
      {48, 16, 28, 3, "<pads = [1, 1, 1, 1]>", "  s = Add (r, c)\n  y = LeakyRelu (s)"},
      {16, 24, 20, 5, "<pads = [2, 2, 2, 2]>", "  s = Add (c, r)\n  y = Relu (s)"},
      {16, 20, 13, 3, "<pads = [1, 1, 1, 1]>", "  y = Add (r, c)"},
  };
  for (const Case& c : cases) {
    INFO(c.conv, " ", c.tail, " hw=", c.hw);
    const int64_t w_in = std::string(c.conv).find("group") != std::string::npos ? 1 : c.cin;
    Constants k = {{"w", random_tensor(DataType::float32, {c.cout, w_in, c.kernel, c.kernel}, 21)},
                   {"b", random_tensor(DataType::float32, {c.cout}, 22)}};
    const Model m = model_of(conv_with_residual(c.cin, c.cout, c.hw, c.conv, c.tail), k);
    const auto x = random_tensor(DataType::float32, {1, c.cin, c.hw, c.hw}, 23);
    const auto r = random_tensor(DataType::float32, {1, c.cout, c.hw, c.hw}, 24);
    const FusedRuns runs = run_fused_and_plain(m, {{"x", Value(x)}, {"r", Value(r)}});
    const bool has_activation = std::string(c.tail).find("s = ") != std::string::npos;
    CHECK(runs.unfused_nodes == (has_activation ? 3 : 2));
    CHECK(runs.fused_nodes == 1);
    CHECK(values(runs.fused[0].tensor()) == values(runs.unfused[0].tensor()));
    CHECK(values(runs.fused_one_thread[0].tensor()) == values(runs.fused[0].tensor()));
  }
}

// In float16 and bfloat16 the nodes round the Conv's output, then the Add's sum, then the clamp's
// result; the fused Conv does the same roundings in that order (store_float32_plus). (Without
// widen-float16, which would compute it all in float32.)
TEST_CASE("float16 and bfloat16 residual Adds run in the Conv's kernel, with the same bits") {
  const char* tails[] = {"  s = Add (c, r)\n  y = Relu (s)", "  y = Add (r, c)"};
  for (DataType type : {DataType::float16, DataType::bfloat16})
    for (const char* tail : tails) {
      const std::string name = type == DataType::float16 ? "float16" : "bfloat16";
      INFO(name, " ", std::string(tail));
      std::string text = conv_with_residual(32, 40, 14, "<pads = [1, 1, 1, 1]>", tail);
      // conv_with_residual writes float32 and opset 13; a bfloat16 Conv needs 22.
      for (std::size_t at; (at = text.find("float[")) != std::string::npos;)
        text.replace(at, 5, name);
      if (type == DataType::bfloat16) text.replace(text.find("\"\" : 13"), 7, "\"\" : 22");
      Constants k = {{"w", cast_to(random_tensor(DataType::float32, {40, 32, 3, 3}, 41), type)},
                     {"b", cast_to(random_tensor(DataType::float32, {40}, 42), type)}};
      const Model m = model_of(text, k);
      const auto x = cast_to(random_tensor(DataType::float32, {1, 32, 14, 14}, 43), type);
      const auto r = cast_to(random_tensor(DataType::float32, {1, 40, 14, 14}, 44), type);
      const FusedRuns runs =
          run_fused_and_plain(m, {{"x", Value(x)}, {"r", Value(r)}}, {"widen-float16"});
      CHECK(runs.fused_nodes == 1);
      CHECK(values(runs.fused[0].tensor()) == values(runs.unfused[0].tensor()));
      CHECK(values(runs.fused_one_thread[0].tensor()) == values(runs.fused[0].tensor()));
    }
}

TEST_CASE("no residual fusion where the Add broadcasts, sums three, or c is read twice") {
  Constants k = {{"w", random_tensor(DataType::float32, {8, 8, 1, 1}, 31)},
                 {"b", random_tensor(DataType::float32, {8}, 32)}};
  const auto x = random_tensor(DataType::float32, {1, 8, 5, 5}, 33);
  SUBCASE("a summand that broadcasts along the positions") {
    const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,8,5,5] x, float[1,8,1,1] r) => (float[1,8,5,5] y) {
  c = Conv (x, w, b)
  y = Add (c, r)
})";
    const FusedRuns runs = run_fused_and_plain(
        model_of(text, k),
        {{"x", Value(x)}, {"r", Value(random_tensor(DataType::float32, {1, 8, 1, 1}, 34))}});
    CHECK(runs.fused_nodes == 2);
    CHECK(values(runs.fused[0].tensor()) == values(runs.unfused[0].tensor()));
  }
  const auto r = random_tensor(DataType::float32, {1, 8, 5, 5}, 35);
  SUBCASE("three summands") {
    const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,8,5,5] x, float[1,8,5,5] r) => (float[1,8,5,5] y) {
  c = Conv (x, w, b)
  y = Sum (c, r, r)
})";
    const FusedRuns runs =
        run_fused_and_plain(model_of(text, k), {{"x", Value(x)}, {"r", Value(r)}});
    CHECK(runs.fused_nodes == 2);
    CHECK(values(runs.fused[0].tensor()) == values(runs.unfused[0].tensor()));
  }
  SUBCASE("the Conv's output read twice") {
    const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,8,5,5] x, float[1,8,5,5] r) => (float[1,8,5,5] y, float[1,8,5,5] c) {
  c = Conv (x, w, b)
  y = Add (c, r)
})";
    const FusedRuns runs =
        run_fused_and_plain(model_of(text, k), {{"x", Value(x)}, {"r", Value(r)}});
    CHECK(runs.fused_nodes == 2);
    CHECK(values(runs.fused[0].tensor()) == values(runs.unfused[0].tensor()));
  }
}

TEST_CASE("a summand made after the Conv: the fused Conv runs where the Add was") {
  // The first Conv's summand is the second Conv's output (a ResNet block's shortcut made after
  // its main branch). The first Conv takes the Add and the Relu, and now runs second.
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,8,6,6] x) => (float[1,16,6,6] y) {
  c = Conv (x, w, b)
  d = Conv (x, w2, b2)
  s = Add (c, d)
  y = Relu (s)
})";
  Constants k = {{"w", random_tensor(DataType::float32, {16, 8, 1, 1}, 41)},
                 {"b", random_tensor(DataType::float32, {16}, 42)},
                 {"w2", random_tensor(DataType::float32, {16, 8, 1, 1}, 43)},
                 {"b2", random_tensor(DataType::float32, {16}, 44)}};
  const auto x = random_tensor(DataType::float32, {1, 8, 6, 6}, 45);
  const FusedRuns runs = run_fused_and_plain(model_of(text, k), {{"x", Value(x)}});
  CHECK(runs.unfused_nodes == 4);
  CHECK(runs.fused_nodes == 2);
  CHECK(values(runs.fused[0].tensor()) == values(runs.unfused[0].tensor()));
}

namespace {

// n = BatchNormalization(x), then `act` (reading n, writing a; empty: none), then a Conv with
// attributes `conv` reading a (or n), opset 13: x is [batch, c, hw, hw].
std::string bn_then_conv(int64_t batch, int64_t c, int64_t m, int64_t hw, const std::string& act,
                         const std::string& conv = "") {
  const auto dims = [&](int64_t ch) {
    return "[" + std::to_string(batch) + "," + std::to_string(ch) + "," + std::to_string(hw) + "," +
           std::to_string(hw) + "]";
  };
  const std::string tail = act.empty() ? "" : "  a = " + act + "\n";
  return R"(<ir_version: 8, opset_import: ["" : 13]>
g (float)" +
         dims(c) + " x) => (float" + dims(m) + R"( y) {
  n = BatchNormalization <epsilon = 0.001> (x, scale, bias, mean, var)
)" + tail +
         "  y = Conv " + conv + (act.empty() ? " (n, w)\n}" : " (a, w)\n}");
}

}  // namespace

// DenseNet's pre-activation: the BatchNormalization and Relu reading a Concat run inside the 1x1
// Conv after them, applied as the Conv packs its input (planes of 49 positions take the
// transposed product, larger ones the plain one; batches, and the paths that do not pack X,
// which apply it to a copy first), with the bits of the nodes as written.
TEST_CASE("a BatchNormalization and its activation before a 1x1 Conv run in the Conv's kernel") {
  struct Case {
    int64_t batch, c, m, hw;
    const char* act;
  };
  const Case cases[] = {
      {1, 24, 16, 7, "Relu (n)"},
      {1, 24, 16, 14, "Relu (n)"},
      {2, 40, 24, 9, "Relu (n)"},
      {1, 33, 20, 5, "Clip (n, lo, hi)"},
      {1, 16, 40, 28, "LeakyRelu <alpha = 0.1> (n)"},
      {1, 20, 8, 3, ""},
  };
  for (const Case& c : cases)
    for (int threads : {1, 2}) {
      INFO("batch ", c.batch, " c ", c.c, " m ", c.m, " hw ", c.hw, " ", c.act, " threads ",
           threads);
      Constants k = bn_params(c.c, 40);
      k.emplace_back("w", random_tensor(DataType::float32, {c.m, c.c, 1, 1}, 41));
      k.emplace_back("lo", Tensor::scalar<float>(-0.3f));
      k.emplace_back("hi", Tensor::scalar<float>(0.6f));
      const Runs r =
          run_both(model_of(bn_then_conv(c.batch, c.c, c.m, c.hw, c.act), k),
                   random_tensor(DataType::float32, {c.batch, c.c, c.hw, c.hw}, 42), threads);
      CHECK(r.unfused_nodes == (*c.act ? 3 : 2));
      CHECK(r.fused_nodes == 1);  // the BatchNormalization and its activation in the Conv
      CHECK(values(r.fused[0].tensor()) == values(r.unfused[0].tensor()));
    }
}

TEST_CASE("no input transform for Convs that are not 1x1, or that read the value twice") {
  Constants k = bn_params(8, 50);
  k.emplace_back("w", random_tensor(DataType::float32, {8, 8, 3, 3}, 51));
  k.emplace_back("w1", random_tensor(DataType::float32, {8, 8, 1, 1}, 52));
  const Tensor x = random_tensor(DataType::float32, {1, 8, 6, 6}, 53);
  // A 3x3 window would transform each value once per tap (and the padding is not transformed).
  Runs r = run_both(model_of(bn_then_conv(1, 8, 8, 6, "Relu (n)", "<pads = [1, 1, 1, 1]>"), k), x);
  CHECK(r.fused_nodes == 2);
  CHECK(values(r.fused[0].tensor()) == values(r.unfused[0].tensor()));
  // Strided: the columns are a subsample, not X's rows.
  const std::string strided = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,8,6,6] x) => (float[1,8,3,3] y) {
  n = BatchNormalization <epsilon = 0.001> (x, scale, bias, mean, var)
  a = Relu (n)
  y = Conv <strides = [2, 2]> (a, w1)
})";
  r = run_both(model_of(strided, k), x);
  CHECK(r.fused_nodes == 2);
  CHECK(values(r.fused[0].tensor()) == values(r.unfused[0].tensor()));
  // The normalised value read by two nodes stays a node.
  const std::string shared = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,8,6,6] x) => (float[1,8,6,6] y, float[1,8,6,6] z) {
  n = BatchNormalization <epsilon = 0.001> (x, scale, bias, mean, var)
  a = Relu (n)
  y = Conv (a, w1)
  z = Conv (a, w1)
})";
  r = run_both(model_of(shared, k), x);
  CHECK(r.fused_nodes == 3);
  CHECK(values(r.fused[1].tensor()) == values(r.unfused[1].tensor()));
}

// An output nothing reads need not be made: Dropout-9's mask (a tensor of ones as big as X) is
// not computed when only Y is used. Without the fusions (as --dump-values runs) every output
// the graph names is made and seen.
TEST_CASE("outputs nothing reads are not computed, with the fusions on") {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 9]>
g (float[2,3] x) => (float[2,3] z) {
  y, mask = Dropout (x)
  z = Relu (y)
})";
  const Tensor x = random_tensor(DataType::float32, {2, 3}, 3);
  for (bool fuse : {false, true}) {
    CAPTURE(fuse);
    SessionOptions o;
    o.fuse = fuse;
    const Model model = model_of(text, {});  // the session refers to it
    Session s(model, o);
    std::vector<std::string> seen;
    const ValueObserver observer = [&](const ProducedValue& v) {
      seen.push_back(v.name);
      if (v.name == "mask") CHECK(v.value.tensor().numel() == 6);
    };
    const auto out = s.run({{"x", Value(x)}}, &observer);
    const auto relu = [](float v) { return v > 0 ? v : 0.0f; };
    for (int64_t i = 0; i < 6; ++i)
      CHECK(out[0].tensor().data<float>()[i] == relu(x.data<float>()[i]));
    const bool mask_seen = std::find(seen.begin(), seen.end(), "mask") != seen.end();
    CHECK(mask_seen == !fuse);
    CHECK(std::find(seen.begin(), seen.end(), "y") != seen.end());
  }
}

namespace {

// x [rows, 64] (with a batch dim of one when `batched`) times a constant w, then `tail` on c.
std::string matmul_with(const std::string& x_dims, const std::string& y_dims,
                        const std::string& tail) {
  return "<ir_version: 8, opset_import: [\"\" : 13]>\ng (float[" + x_dims + "] x, float[" + y_dims +
         "] r) => (float[" + y_dims + "] y) {\n  c = MatMul (x, w)\n" + tail + "\n}";
}

}  // namespace

TEST_CASE("a MatMul's bias, residual Add and activation run in its kernel, with the same bits") {
  struct Case {
    const char* x_dims;
    Shape x_shape;
    Shape w_shape;
    const char* y_dims;
    Shape y_shape;
    const char* tail;
    Shape bias_shape;
    int64_t unfused_nodes;
  };
  // B packed at planning (one matrix; A's batch folded into its rows, or A of rank 2), and B with
  // batch dims of its own (the plain products); the bias as an Add or a Sub, on either side of
  // the residual, of one value or along the last axis, with or without the batch's axes.
  const Case cases[] = {
      {"1,128,64",
       {1, 128, 64},
       {64, 96},
       "1,128,96",
       {1, 128, 96},
       "  d = Add (c, bias)\n  s = Add (d, r)\n  y = Relu (s)",
       {96},
       4},
      {"37,64",
       {37, 64},
       {64, 40},
       "37,40",
       {37, 40},
       "  d = Sub (c, bias)\n  y = Add (r, d)",
       {1, 40},
       3},
      {"37,64",
       {37, 64},
       {64, 40},
       "37,40",
       {37, 40},
       "  d = Add (c, bias)\n  y = Add (d, r)",
       {1},
       3},
      {"2,5,64",
       {2, 5, 64},
       {2, 64, 24},
       "2,5,24",
       {2, 5, 24},
       "  d = Add (c, bias)\n  s = Add (d, r)\n  y = LeakyRelu (s)",
       {1, 1, 24},
       4},
  };
  for (const Case& c : cases) {
    INFO(c.x_dims, " x ", shape_to_string(c.w_shape), ": ", c.tail);
    Constants k = {{"w", random_tensor(DataType::float32, c.w_shape, 51)},
                   {"bias", random_tensor(DataType::float32, c.bias_shape, 52)}};
    const Model m = model_of(matmul_with(c.x_dims, c.y_dims, c.tail), k);
    const auto x = random_tensor(DataType::float32, c.x_shape, 53);
    const auto r = random_tensor(DataType::float32, c.y_shape, 54);
    const FusedRuns runs = run_fused_and_plain(m, {{"x", Value(x)}, {"r", Value(r)}});
    CHECK(runs.unfused_nodes == c.unfused_nodes);
    CHECK(runs.fused_nodes == 1);
    CHECK(values(runs.fused[0].tensor()) == values(runs.unfused[0].tensor()));
    CHECK(values(runs.fused_one_thread[0].tensor()) == values(runs.fused[0].tensor()));
  }
}

TEST_CASE("no bias fusion for a MatMul's scale, a shift along its rows, a B that varies") {
  struct Case {
    const char* what;
    std::string text;
    Shape bias_shape;
    int64_t fused_nodes;
  };
  const std::string head = "<ir_version: 8, opset_import: [\"\" : 13]>\n";
  const Case cases[] = {
      {"a scale", matmul_with("37,64", "37,40", "  d = Mul (c, bias)\n  y = Add (d, r)"), {40}, 3},
      {"a shift along the rows",
       matmul_with("37,64", "37,40", "  d = Add (c, bias)\n  y = Add (d, r)"),
       {37, 1},
       3},
      {"a constant with more axes than Y",
       head + "g (float[37,64] x, float[37,40] r) => (float[1,37,40] y) {\n  c = MatMul (x, w)\n"
              "  d = Add (c, bias)\n  y = Add (d, r)\n}",
       {1, 1, 40},
       3},
      {"a second shift",
       matmul_with("37,64", "37,40",
                   "  d = Add (c, bias)\n  e = Add (d, bias)\n"
                   "  y = Add (e, r)"),
       {40},
       3},
      {"a B that is an input",
       head + "g (float[37,64] x, float[37,40] r) => (float[37,40] y) {\n"
              "  v = Add (w, w)\n  c = MatMul (x, v)\n  d = Add (c, bias)\n  y = Add (d, r)\n}",
       {40},
       4},
  };
  // Each refused step stays a node of its own; the residual Add after it stays too (its other
  // summand is no MatMul's).
  for (const Case& c : cases) {
    INFO(std::string(c.what));
    Constants k = {{"w", random_tensor(DataType::float32, {64, 40}, 61)},
                   {"bias", random_tensor(DataType::float32, c.bias_shape, 62)}};
    const Model m = model_of(c.text, k);
    const auto x = random_tensor(DataType::float32, {37, 64}, 63);
    const auto r = random_tensor(DataType::float32, {37, 40}, 64);
    // Without folding, so that the B made from w stays a value the run computes; without
    // element-wise regions, which would run the refused steps and the Add after them as one.
    const FusedRuns runs = run_fused_and_plain(m, {{"x", Value(x)}, {"r", Value(r)}},
                                               {"fold-constants", "fuse-elementwise"});
    CHECK(runs.fused_nodes == c.fused_nodes);
    CHECK(values(runs.fused[0].tensor()) == values(runs.unfused[0].tensor()));
  }
}

TEST_CASE("a Gemm's residual Add and activation run in its kernel, with the same bits") {
  const char* texts[] = {
      R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[6,32] x, float[6,20] r) => (float[6,20] y) {
  c = Gemm <transB = 1, alpha = 0.5> (x, w, b)
  s = Add (c, r)
  y = Relu (s)
})",
      R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[6,32] x, float[6,20] r) => (float[6,20] y) {
  c = Gemm <transB = 1> (x, w)
  s = Add (r, c)
  y = Clip (s, lo, hi)
})",
  };
  for (const char* text : texts) {
    INFO(std::string(text));
    Constants k = {{"w", random_tensor(DataType::float32, {20, 32}, 71)},
                   {"b", random_tensor(DataType::float32, {20}, 72)},
                   {"lo", cast_to(doubles({}, {-0.25}), DataType::float32)},
                   {"hi", cast_to(doubles({}, {0.5}), DataType::float32)}};
    const Model m = model_of(text, k);
    const auto x = random_tensor(DataType::float32, {6, 32}, 73);
    const auto r = random_tensor(DataType::float32, {6, 20}, 74);
    const FusedRuns runs = run_fused_and_plain(m, {{"x", Value(x)}, {"r", Value(r)}});
    CHECK(runs.unfused_nodes == 3);
    CHECK(runs.fused_nodes == 1);
    CHECK(values(runs.fused[0].tensor()) == values(runs.unfused[0].tensor()));
    CHECK(values(runs.fused_one_thread[0].tensor()) == values(runs.fused[0].tensor()));
  }
}

namespace {

// MobileNet's block: a 1x1 Conv widening c to e channels, a depthwise Conv (k x k, stride s),
// a 1x1 Conv narrowing to o, each with a bias and an activation (the depthwise one `dw_act`,
// applied to d), and X added back where the shapes allow (`residual`).
std::string inverted_block(int64_t batch, int64_t c, int64_t e, int64_t o, int64_t hw, int64_t k,
                           int64_t s, bool residual, const std::string& dw_act) {
  const int64_t pad = k / 2, out = (hw + 2 * pad - k) / s + 1;
  const auto dims = [&](int64_t ch, int64_t side) {
    return "[" + std::to_string(batch) + "," + std::to_string(ch) + "," + std::to_string(side) +
           "," + std::to_string(side) + "]";
  };
  const std::string p = std::to_string(pad);
  std::string text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float)" + dims(c, hw) +
                     " x) => (float" + dims(o, out) + R"( y) {
  w0 = Conv (x, we, be)
  a0 = Clip (w0, lo, hi)
  d = Conv <group = )" +
                     std::to_string(e) + ", pads = [" + p + ", " + p + ", " + p + ", " + p +
                     "], strides = [" + std::to_string(s) + ", " + std::to_string(s) +
                     R"(]> (a0, wd, bd)
  a1 = )" + dw_act + R"(
  p = Conv (a1, wp, bp)
)";
  text += residual ? "  y = Add (p, x)\n}" : "  y = Relu (p)\n}";
  return text;
}

Constants block_constants(int64_t c, int64_t e, int64_t o, int64_t k, uint32_t seed) {
  return {{"we", random_tensor(DataType::float32, {e, c, 1, 1}, seed)},
          {"be", random_tensor(DataType::float32, {e}, seed + 1)},
          {"wd", random_tensor(DataType::float32, {e, 1, k, k}, seed + 2)},
          {"bd", random_tensor(DataType::float32, {e}, seed + 3)},
          {"wp", random_tensor(DataType::float32, {o, e, 1, 1}, seed + 4)},
          {"bp", random_tensor(DataType::float32, {o}, seed + 5)},
          {"lo", Tensor::scalar<float>(0.0f)},
          {"hi", Tensor::scalar<float>(6.0f)}};
}

}  // namespace

// core/exec/passes/channels_last.h: the depthwise Conv of a block reads its input from the 1x1
// Conv before it with each position's channels together (and, on planes small enough for the
// 1x1 Conv after it to take them so, writes them so), with the bits of the planar kernels.
// Channel counts off the 16-channel blocks, batches, strides, a 5x5 window, activations the
// kernels apply in registers (clamps, LeakyRelu) and after (swish), one thread and two.
TEST_CASE("depthwise blocks hold their values channels-last, with the same bits") {
  struct Case {
    int64_t batch, c, e, o, hw, k, s;
    bool residual;
    const char* dw_act;
    int64_t links;  // values held channels-last
  };
  const Case cases[] = {
      {1, 16, 48, 16, 14, 3, 1, true, "Clip (d, lo, hi)", 1},
      {2, 24, 40, 32, 7, 3, 1, false, "Clip (d, lo, hi)", 2},
      {1, 16, 72, 24, 28, 3, 2, false, "LeakyRelu <alpha = 0.1> (d)", 1},
      {1, 8, 36, 8, 13, 3, 2, true, "Clip (d, lo, hi)", 2},
      {1, 24, 56, 24, 7, 5, 1, true, "Mul (d, sd)\n  sd = Sigmoid (d)", 2},
      {2, 8, 20, 12, 6, 3, 1, false, "Relu (d)", 2},
      {1, 8, 24, 8, 56, 3, 1, true, "Clip (d, lo, hi)", 0},  // 56x56: planes are faster
  };
  for (const Case& c : cases) {
    const int64_t out = (c.hw + 2 * (c.k / 2) - c.k) / c.s + 1;
    const bool residual = c.residual && c.s == 1 && c.o == c.c;
    INFO("batch ", c.batch, " c ", c.c, " e ", c.e, " o ", c.o, " hw ", c.hw, " k ", c.k, " s ",
         c.s, " ", c.dw_act);
    const Model m =
        model_of(inverted_block(c.batch, c.c, c.e, c.o, c.hw, c.k, c.s, residual, c.dw_act),
                 block_constants(c.c, c.e, c.o, c.k, 60));
    const Tensor x = random_tensor(DataType::float32, {c.batch, c.c, c.hw, c.hw}, 61);
    SessionOptions off;
    off.fuse = false;
    Session plain(m, off);
    const std::vector<Value> want = plain.run({{"x", Value(x)}});
    for (int threads : {1, 2}) {
      SessionOptions on;
      on.threads = threads;
      Session fused(m, on);
      CHECK(fused.stats().channels_last == c.links);
      const std::vector<Value> got = fused.run({{"x", Value(x)}});
      REQUIRE(got.size() == 1);
      CHECK(got[0].tensor().shape() == Shape{c.batch, c.o, out, out});
      CHECK(values(got[0].tensor()) == values(want[0].tensor()));
    }
  }
}

// Only a value its producer alone makes and one reader alone reads changes layout: not one a
// second node reads, nor a graph output, nor where neither side is a depthwise Conv.
TEST_CASE("no channels-last value where another node or the caller reads it") {
  Constants k = block_constants(16, 32, 16, 3, 70);
  const Tensor x = random_tensor(DataType::float32, {1, 16, 7, 7}, 71);
  const std::string shared = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,16,7,7] x) => (float[1,16,7,7] y, float[1,32,7,7] z) {
  a0 = Conv (x, we, be)
  d = Conv <group = 32, pads = [1, 1, 1, 1]> (a0, wd, bd)
  z = Relu (a0)
  y = Conv (d, wp, bp)
})";
  SessionOptions off;
  off.fuse = false;
  Model m = model_of(shared, k);
  Session fused(m), plain(m, off);
  CHECK(fused.stats().channels_last == 1);  // d only: a0 has two readers
  std::vector<Value> got = fused.run({{"x", Value(x)}}), want = plain.run({{"x", Value(x)}});
  CHECK(values(got[0].tensor()) == values(want[0].tensor()));
  CHECK(values(got[1].tensor()) == values(want[1].tensor()));
  const std::string output = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,16,7,7] x) => (float[1,32,7,7] d, float[1,16,7,7] y) {
  a0 = Conv (x, we, be)
  d = Conv <group = 32, pads = [1, 1, 1, 1]> (a0, wd, bd)
  y = Conv (d, wp, bp)
})";
  m = model_of(output, k);
  Session fused2(m), plain2(m, off);
  CHECK(fused2.stats().channels_last == 1);  // a0 only: d is the caller's
  got = fused2.run({{"x", Value(x)}});
  want = plain2.run({{"x", Value(x)}});
  CHECK(values(got[0].tensor()) == values(want[0].tensor()));
  CHECK(values(got[1].tensor()) == values(want[1].tensor()));
  const std::string pointwise = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[1,16,7,7] x) => (float[1,16,7,7] y) {
  a0 = Conv (x, we, be)
  y = Conv (a0, wp, bp)
})";
  Session fused3(model_of(pointwise, k));
  CHECK(fused3.stats().channels_last == 0);  // two 1x1 Convs gain nothing
}
