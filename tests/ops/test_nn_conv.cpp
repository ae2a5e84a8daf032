// SPDX-License-Identifier: Apache-2.0
// Conv and ConvTranspose: the fast paths (im2col tiles, 1x1 products, depthwise loops, col2im)
// against the plain reference loops on random inputs over many geometries; element types;
// weights held as constants across runs; bad shapes; inference with symbolic dims.
#include <doctest/doctest.h>
#include <cstring>

#include "ops/onnx/nn_reference.h"
#include "tests/ops/test_nn_support.h"

using namespace onnxtool;
using namespace onnxtool::test::nn;
using onnxtool::ops::nn::ConvGeometry;
using onnxtool::ops::nn::Window;

namespace {

struct ConvCase {
  Shape x, w;
  int64_t group = 1;
  std::vector<int64_t> strides, pads, dilations;
  std::string auto_pad;  // "" for none
  bool bias = true;
};

std::string list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string conv_attrs(const ConvCase& c) {
  std::vector<std::string> a;
  if (c.group != 1) a.push_back("group = " + std::to_string(c.group));
  if (!c.strides.empty()) a.push_back("strides = " + list(c.strides));
  if (!c.pads.empty()) a.push_back("pads = " + list(c.pads));
  if (!c.dilations.empty()) a.push_back("dilations = " + list(c.dilations));
  if (!c.auto_pad.empty()) a.push_back("auto_pad = \"" + c.auto_pad + "\"");
  std::string s;
  for (std::size_t i = 0; i < a.size(); ++i) s += (i ? ", " : "") + a[i];
  return a.empty() ? "" : " <" + s + ">";
}

// The geometry a Conv node with these attributes has, worked out here independently.
Window conv_window(const ConvCase& c) {
  const std::size_t r = c.x.size() - 2;
  Window w;
  w.in.assign(c.x.begin() + 2, c.x.end());
  w.kernel.assign(c.w.begin() + 2, c.w.end());
  w.stride = c.strides.empty() ? std::vector<int64_t>(r, 1) : c.strides;
  w.dilation = c.dilations.empty() ? std::vector<int64_t>(r, 1) : c.dilations;
  w.pad_begin.assign(r, 0);
  w.pad_end.assign(r, 0);
  w.out.resize(r);
  for (std::size_t i = 0; i < r; ++i) {
    const int64_t eff = w.dilation[i] * (w.kernel[i] - 1) + 1;
    if (c.auto_pad == "SAME_UPPER" || c.auto_pad == "SAME_LOWER") {
      w.out[i] = (w.in[i] + w.stride[i] - 1) / w.stride[i];
      const int64_t total = std::max<int64_t>(0, (w.out[i] - 1) * w.stride[i] + eff - w.in[i]);
      w.pad_begin[i] = c.auto_pad == "SAME_UPPER" ? total / 2 : total - total / 2;
      w.pad_end[i] = total - w.pad_begin[i];
      continue;
    }
    if (!c.pads.empty() && c.auto_pad.empty()) {
      w.pad_begin[i] = c.pads[i];
      w.pad_end[i] = c.pads[i + r];
    }
    w.out[i] = (w.in[i] + w.pad_begin[i] + w.pad_end[i] - eff) / w.stride[i] + 1;
  }
  return w;
}

ConvGeometry conv_geometry(const ConvCase& c) {
  ConvGeometry g;
  g.batch = c.x[0];
  g.in_channels = c.x[1];
  g.out_channels = c.w[0];
  g.group = c.group;
  g.window = conv_window(c);
  return g;
}

Shape conv_out_shape(const ConvGeometry& g) {
  Shape s{g.batch, g.out_channels};
  s.insert(s.end(), g.window.out.begin(), g.window.out.end());
  return s;
}

// Runs Conv on random inputs of `type` and compares with the reference in double, within tol
// (relative) and atol (absolute; tol when negative). W and B are fed at run time, or with
// `constant_weights` are initializers (the paths that transform or pack W at planning).
void check_conv(const ConvCase& c, DataType type = DataType::float32, double tol = 1e-4,
                int threads = 2, bool constant_weights = false, double atol = -1) {
  const Tensor x = random_tensor(type, c.x, 1), w = random_tensor(type, c.w, 2);
  const Tensor b = random_tensor(type, {c.w[0]}, 3);
  NodeCase n;
  n.node = "y = Conv" + conv_attrs(c) + " (x, w" + (c.bias ? ", b)" : ")");
  n.opset = 22;
  n.inputs = {{"x", x}};
  auto& weights = constant_weights ? n.initializers : n.inputs;
  weights.emplace_back("w", w);
  if (c.bias) weights.emplace_back("b", b);
  n.threads = threads;
  const Tensor got = run_node(n)[0].tensor();
  const ConvGeometry g = conv_geometry(c);
  Tensor want(DataType::float64, conv_out_shape(g));
  const Tensor xd = cast_to(x, DataType::float64), wd = cast_to(w, DataType::float64),
               bd = cast_to(b, DataType::float64);
  onnxtool::ops::nn::conv_reference<double>(g, xd.data<double>(), wd.data<double>(),
                                            c.bias ? bd.data<double>() : nullptr,
                                            want.mutable_data<double>());
  CHECK(got.dtype() == type);
  check_close(got, want, tol, atol < 0 ? tol : atol);
}

// Conv with W and B as initializers (packed, or transformed, at planning) gives the bits of the
// same Conv with them as inputs (the plain product).
void check_packed_gives_plain_bits(const ConvCase& c, int threads) {
  NodeCase n;
  n.node = "y = Conv" + conv_attrs(c) + " (x, w" + (c.bias ? ", b)" : ")");
  n.opset = 22;
  n.threads = threads;
  n.inputs = {{"x", random_tensor(DataType::float32, c.x, 1)}};
  n.initializers = {{"w", random_tensor(DataType::float32, c.w, 2)}};
  if (c.bias) n.initializers.emplace_back("b", random_tensor(DataType::float32, {c.w[0]}, 3));
  const Tensor packed = run_node(n)[0].tensor();
  n.inputs.insert(n.inputs.end(), n.initializers.begin(), n.initializers.end());
  n.initializers.clear();
  const Tensor plain = run_node(n)[0].tensor();
  REQUIRE(packed.shape() == plain.shape());
  CHECK(std::memcmp(packed.data<float>(), plain.data<float>(),
                    static_cast<std::size_t>(plain.numel()) * sizeof(float)) == 0);
}

// Each case with a constant W on one thread and two: the reference's values, the plain bits.
void check_packed_cases(const std::vector<ConvCase>& cases) {
  for (std::size_t i = 0; i < cases.size(); ++i)
    for (int threads : {1, 2}) {
      CAPTURE(i);
      CAPTURE(threads);
      check_conv(cases[i], DataType::float32, 1e-4, threads, true);
      check_packed_gives_plain_bits(cases[i], threads);
    }
}

}  // namespace

TEST_CASE("Conv: fast paths agree with the reference over many geometries") {
  const std::vector<ConvCase> cases = {
      {{1, 3, 9, 9}, {4, 3, 3, 3}},                                          // plain 3x3
      {{2, 4, 11, 7}, {6, 4, 3, 2}, 1, {2, 1}, {1, 0, 2, 1}},                // strides, pads
      {{1, 4, 12, 12}, {8, 2, 3, 3}, 2, {1, 1}, {1, 1, 1, 1}, {2, 2}},       // groups, dilations
      {{2, 6, 8, 8}, {6, 1, 3, 3}, 6, {1, 1}, {1, 1, 1, 1}},                 // depthwise
      {{1, 4, 9, 9}, {8, 1, 3, 3}, 4, {2, 2}, {1, 1, 1, 1}},                 // depthwise x2
      {{1, 4, 10, 9}, {4, 1, 5, 3}, 4, {2, 3}, {2, 0, 1, 2}, {1, 2}},        // depthwise odd
      {{2, 8, 5, 5}, {16, 8, 1, 1}},                                         // pointwise
      {{1, 12, 6, 6}, {12, 4, 1, 1}, 3},                                     // grouped 1x1
      {{1, 4, 7, 7}, {5, 4, 1, 1}, 1, {2, 2}},                               // strided 1x1
      {{1, 3, 10}, {4, 3, 3}, 1, {2}, {1, 1}},                               // 1-D
      {{1, 2, 9}, {2, 1, 3}, 2, {1}, {0, 2}, {2}},                           // 1-D depthwise
      {{1, 2, 5, 6, 4}, {3, 2, 3, 2, 2}, 1, {1, 2, 1}, {1, 0, 1, 1, 1, 0}},  // 3-D
      {{1, 3, 9, 8}, {4, 3, 3, 3}, 1, {2, 2}, {}, {}, "SAME_UPPER"},
      {{1, 3, 9, 8}, {4, 3, 4, 2}, 1, {2, 3}, {}, {}, "SAME_LOWER"},
      {{1, 3, 9, 8}, {4, 3, 3, 3}, 1, {2, 2}, {}, {}, "VALID"},
      {{1, 3, 6, 6}, {4, 3, 3, 3}, 1, {}, {}, {}, "", false},      // no bias
      {{1, 16, 40, 40}, {32, 16, 3, 3}, 1, {1, 1}, {1, 1, 1, 1}},  // several tiles
      {{1, 64, 7, 7}, {96, 64, 3, 3}, 1, {1, 1}, {1, 1, 1, 1}},    // one tile
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(i);
    check_conv(cases[i]);
    check_conv(cases[i], DataType::float32, 1e-4, 1);
  }
}

// Winograd's F(4x4, 3x3) takes stride-1 3x3 Convs with a constant W, 32 input channels a group
// or more and planes of 32 tiles or more: here with groups, a batch, odd planes and pads, and
// a plane of few tiles (its blocks' rows shared out). Its rounding is bounded in
// tests/unit/test_kernels_winograd.cpp by 2^-17 of the sum of the terms' magnitudes: about
// 5e-4 for these 288-term sums of values in [-1, 1].
TEST_CASE("Conv: the Winograd path agrees with the reference") {
  const std::vector<ConvCase> cases = {
      {{1, 32, 24, 24}, {16, 32, 3, 3}, 1, {1, 1}, {1, 1, 1, 1}},
      {{2, 64, 26, 22}, {48, 32, 3, 3}, 2, {1, 1}, {0, 2, 1, 1}},
      {{1, 40, 23, 29}, {72, 40, 3, 3}, 1, {1, 1}, {1, 0, 0, 1}, {}, "", false},
  };
  for (const ConvCase& c : cases)
    for (int threads : {1, 2}) {
      CAPTURE(threads);
      check_conv(c, DataType::float32, 1e-4, threads, true, 1e-3);
    }
}

// Planes of 49 positions or fewer with a constant W take the product transposed (positions as
// rows, W packed as B): each element is the same fmas in the same order as the other paths, so
// the output holds the bits a W given at run time (not packed, the plain product) gives, on one
// thread and two; and it agrees with the reference.
TEST_CASE("Conv: the transposed path for small planes gives the plain product's bits") {
  const std::vector<ConvCase> cases = {
      {{1, 64, 7, 7}, {96, 64, 3, 3}, 1, {1, 1}, {1, 1, 1, 1}},    // 3x3 on 7x7
      {{2, 48, 13, 13}, {40, 48, 3, 3}, 1, {2, 2}, {1, 1, 1, 1}},  // strided, a batch
      {{1, 96, 7, 7}, {70, 96, 1, 1}},                             // pointwise, odd channels
      {{1, 32, 6, 5}, {64, 16, 1, 1}, 2, {}, {}, {}, "", false},   // groups, no bias
      {{1, 8, 7}, {33, 8, 3}, 1, {1}, {1, 1}},                     // 1-D
      // One register tile of output channels: the threads split the positions.
      {{1, 128, 7, 7}, {32, 128, 3, 3}, 1, {1, 1}, {1, 1, 1, 1}},
      {{2, 64, 7, 7}, {12, 64, 1, 1}},
  };
  check_packed_cases(cases);
}

// A 2-D Conv on up to 4 input channels with a constant W reads its input in place (padded,
// split by stride phase) where the other paths build im2col's columns: the same fmas in the
// same order, so the bits of the plain product, on one thread and two; and the reference's
// values. Strides 1 to 4, pads on any side, dilations, a batch, no bias; and the cases it
// leaves to im2col.
TEST_CASE("Conv: the in-place path for few input channels gives the plain product's bits") {
  const std::vector<ConvCase> cases = {
      {{1, 3, 32, 30}, {16, 3, 7, 7}, 1, {2, 2}, {3, 3, 3, 3}},  // a stem
      {{2, 3, 17, 19}, {8, 3, 3, 3}, 1, {1, 1}, {2, 2, 2, 2}, {2, 2}},
      {{1, 4, 21, 20}, {12, 4, 5, 5}, 1, {3, 2}, {2, 0, 1, 3}},
      {{1, 1, 24, 200}, {6, 1, 5, 5}, 1, {4, 4}, {1, 1, 1, 1}, {}, "", false},
      {{1, 3, 50, 50}, {10, 3, 11, 11}, 1, {4, 4}, {2, 2, 2, 2}},  // AlexNet's stem, smaller
      {{1, 2, 5, 70}, {33, 2, 2, 3}, 1, {1, 1}},                   // rows wider than tiles
      // Left to the other paths: planes of few positions (the transposed product), a
      // stride past the bar, a strided 1x1 layer (16 phase planes, 32 times its columns), a
      // 1x1 layer.
      {{1, 1, 9, 40}, {6, 1, 3, 3}, 1, {4, 4}, {1, 1, 1, 1}, {}, "", false},
      {{1, 3, 40, 40}, {4, 3, 3, 3}, 1, {20, 20}},
      {{1, 2, 64, 64}, {4, 2, 1, 1}, 1, {4, 4}},
      {{1, 3, 6, 6}, {5, 3, 1, 1}},
  };
  check_packed_cases(cases);
}

// A 2-D Conv on 16 input channels or more with a constant W reads its input's phase planes
// (split by stride phase, padded) in one product per band of output rows, where the other
// paths build im2col's columns: the same fmas in the same order, so the bits of the plain
// product, on one thread and two; and the reference's values. Strides 1 to 3, 3x3 to 7x7,
// dilations, pads on any side, a batch, no bias, planes of several bands.
TEST_CASE("Conv: the phase-plane path for 16 input channels or more gives the plain bits") {
  const std::vector<ConvCase> cases = {
      {{1, 32, 28, 28}, {40, 32, 3, 3}, 1, {2, 2}, {1, 1, 1, 1}},  // Inception's stride 2
      {{1, 16, 20, 18}, {24, 16, 5, 5}, 1, {1, 1}, {2, 2, 2, 2}},  // a 5x5 layer
      {{2, 16, 15, 17}, {20, 16, 3, 3}, 1, {2, 1}, {0, 1, 2, 1}, {2, 2}, "", false},
      {{1, 20, 30, 30}, {8, 20, 7, 7}, 1, {3, 3}, {3, 3, 3, 3}},
      {{1, 16, 100, 100}, {64, 16, 3, 3}, 1, {2, 2}, {1, 1, 1, 1}},  // four bands
  };
  check_packed_cases(cases);
}

// Late layers (more filters than positions, past the transposed path's 49) split the product
// by rows: B (X itself, or im2col's columns) packed once by both threads, then row blocks
// handed out as threads free up. The same fmas in the same order: the plain product's bits.
TEST_CASE("Conv: products split by rows give the plain product's bits") {
  const std::vector<ConvCase> cases = {
      {{1, 64, 9, 9}, {200, 64, 1, 1}},                             // pointwise, X packed once
      {{1, 32, 17, 17}, {150, 32, 3, 3}, 1, {2, 2}, {1, 1, 1, 1}},  // columns built once
      {{2, 40, 10, 10}, {97, 40, 1, 1}, 1, {}, {}, {}, "", false},  // a batch, odd filters
  };
  check_packed_cases(cases);
}

TEST_CASE("Conv: every element type the schema allows") {
  const ConvCase c{{1, 4, 6, 6}, {4, 2, 3, 3}, 2, {1, 1}, {1, 1, 1, 1}};
  check_conv(c, DataType::float64, 1e-12);
  check_conv(c, DataType::float16, 2e-2);
  check_conv(c, DataType::bfloat16, 5e-2);
}

TEST_CASE("Conv: constant weights stay right across runs, and empty batches give empty output") {
  const Tensor x = random_tensor(DataType::float16, {1, 2, 5, 5}, 4);
  const Tensor w = random_tensor(DataType::float16, {3, 2, 3, 3}, 5);
  NodeCase n{"y = Conv (x, w)", 11, {{"x", x}}, {{"w", w}}};
  const Tensor once = run_node(n)[0].tensor();
  const Tensor twice = run_node_twice(n)[0].tensor();
  check_close(twice, once, 0, 0);
  NodeCase empty{"y = Conv <pads = [1, 1, 1, 1]> (x, w)",
                 11,
                 {{"x", Tensor(DataType::float32, {0, 2, 5, 5})},
                  {"w", random_tensor(DataType::float32, {3, 2, 3, 3}, 6)}}};
  CHECK(shape_to_string(run_node(empty)[0].tensor().shape()) == "[0,3,5,5]");
}

TEST_CASE("Conv: bad shapes fail with a clear message") {
  NodeCase n{"y = Conv (x, w)",
             11,
             {{"x", Tensor(DataType::float32, {1, 3, 5, 5})},
              {"w", Tensor(DataType::float32, {4, 2, 3, 3})}}};
  CHECK(run_error(n).find("X has 3 channels but W [4,2,3,3] with group 1 expects 2") !=
        std::string::npos);
  n.inputs[1].second = Tensor(DataType::float32, {4, 3, 7, 7});
  CHECK(run_error(n).find("larger than the padded input") != std::string::npos);
  n.inputs[1].second = Tensor(DataType::float32, {4, 3, 3});
  CHECK(run_error(n).find("expected equal ranks") != std::string::npos);
  n.node = "y = Conv (x, w, b)";
  n.inputs[1].second = Tensor(DataType::float32, {4, 3, 3, 3});
  n.inputs.emplace_back("b", Tensor(DataType::float32, {3}));
  CHECK(run_error(n).find("B has shape [3], expected [4]") != std::string::npos);
}

TEST_CASE("Conv: inference with symbolic dims, groups and auto_pad") {
  CHECK(infer_node("y = Conv <strides = [2, 2], pads = [3, 3, 3, 3]> (x, w)", 11,
                   {{"x", "float[N,3,H,W]"}, {"w", "float[64,3,7,7]"}}) ==
        std::vector<std::string>{"float[N,64,\"ceil(H/2)\",\"ceil(W/2)\"]"});
  CHECK(infer_node("y = Conv <group = 2, auto_pad = \"SAME_UPPER\", strides = [2, 2]> (x, w, b)",
                   22,
                   {{"x", "float16[1,4,9,H]"}, {"w", "float16[6,2,3,3]"}, {"b", "float16[6]"}}) ==
        std::vector<std::string>{"float16[1,6,5,\"ceil(H/2)\"]"});
  CHECK(infer_node("y = Conv (x, w)", 11, {{"x", "double[2,3,10]"}, {"w", "double[5,3,4]"}}) ==
        std::vector<std::string>{"double[2,5,7]"});
  CHECK(
      infer_node("y = Conv (x, w)", 11, {{"x", "float[1,4,9,9]"}, {"w", "float[6,3,3,3]"}})[0].find(
          "error: X has 4 channels") == 0);
}

// ---- ConvTranspose ---------------------------------------------------------------------------

namespace {

struct TransposeCase {
  Shape x, w;
  int64_t group = 1;
  std::string attrs;         // extra attribute text, e.g. "strides = [2, 2]"
  std::vector<int64_t> out;  // expected spatial output
  std::vector<int64_t> strides, dilations, pad_begin;
};

void check_conv_transpose(const TransposeCase& c, DataType type = DataType::float32,
                          double tol = 1e-4) {
  const Tensor x = random_tensor(type, c.x, 7), w = random_tensor(type, c.w, 8);
  const Tensor b = random_tensor(type, {c.w[1] * c.group}, 9);
  NodeCase n;
  std::string attrs = c.attrs;
  if (c.group != 1)
    attrs += std::string(attrs.empty() ? "" : ", ") + "group = " + std::to_string(c.group);
  n.node =
      "y = ConvTranspose" + (attrs.empty() ? std::string() : " <" + attrs + ">") + " (x, w, b)";
  n.opset = 22;
  n.inputs = {{"x", x}, {"w", w}, {"b", b}};
  const Tensor got = run_node(n)[0].tensor();
  const std::size_t r = c.x.size() - 2;
  ConvGeometry g;
  g.batch = c.x[0];
  g.in_channels = c.x[1];
  g.out_channels = c.w[1] * c.group;
  g.group = c.group;
  g.window.in = c.out;
  g.window.out.assign(c.x.begin() + 2, c.x.end());
  g.window.kernel.assign(c.w.begin() + 2, c.w.end());
  g.window.stride = c.strides.empty() ? std::vector<int64_t>(r, 1) : c.strides;
  g.window.dilation = c.dilations.empty() ? std::vector<int64_t>(r, 1) : c.dilations;
  g.window.pad_begin = c.pad_begin.empty() ? std::vector<int64_t>(r, 0) : c.pad_begin;
  g.window.pad_end.assign(r, 0);
  Shape shape{g.batch, g.out_channels};
  shape.insert(shape.end(), c.out.begin(), c.out.end());
  Tensor want(DataType::float64, shape);
  const Tensor xd = cast_to(x, DataType::float64), wd = cast_to(w, DataType::float64),
               bd = cast_to(b, DataType::float64);
  onnxtool::ops::nn::conv_transpose_reference<double>(
      g, xd.data<double>(), wd.data<double>(), bd.data<double>(), want.mutable_data<double>());
  check_close(got, want, tol, tol);
}

}  // namespace

TEST_CASE("ConvTranspose: col2im agrees with the reference") {
  const std::vector<TransposeCase> cases = {
      {{1, 2, 3, 3}, {2, 3, 3, 3}, 1, "", {5, 5}},
      {{2, 3, 4, 3}, {3, 2, 3, 2}, 1, "strides = [2, 3]", {9, 8}, {2, 3}},
      {{1, 4, 3, 3},
       {4, 1, 3, 3},
       2,
       "strides = [2, 2], pads = [1, 1, 1, 1]",
       {5, 5},
       {2, 2},
       {},
       {1, 1}},
      {{1, 2, 3, 3}, {2, 2, 2, 2}, 1, "dilations = [2, 2]", {5, 5}, {}, {2, 2}},
      {{1, 2, 3, 3}, {2, 2, 3, 3}, 1, "strides = [3, 2], output_padding = [1, 1]", {10, 8}, {3, 2}},
      {{1, 2, 3, 3}, {2, 2, 3, 3}, 1, "strides = [3, 2], output_shape = [10, 8]", {10, 8}, {3, 2}},
      {{1, 2, 3, 3},
       {2, 2, 3, 3},
       1,
       "strides = [2, 2], auto_pad = \"SAME_UPPER\"",
       {6, 6},
       {2, 2},
       {},
       {0, 0}},
      {{1, 2, 3, 3},
       {2, 2, 3, 3},
       1,
       "strides = [2, 2], auto_pad = \"SAME_LOWER\"",
       {6, 6},
       {2, 2},
       {},
       {1, 1}},
      {{1, 3, 5}, {3, 2, 3}, 1, "strides = [2]", {11}, {2}},
      {{1, 2, 2, 3, 2}, {2, 1, 2, 2, 2}, 2, "", {3, 4, 3}},
  };
  for (std::size_t i = 0; i < cases.size(); ++i) {
    CAPTURE(i);
    check_conv_transpose(cases[i]);
  }
  check_conv_transpose(cases[1], DataType::float64, 1e-12);
  check_conv_transpose(cases[1], DataType::float16, 3e-2);
}

TEST_CASE("ConvTranspose: inference and bad shapes") {
  CHECK(infer_node("y = ConvTranspose <strides = [2, 2]> (x, w)", 11,
                   {{"x", "float[N,4,H,5]"}, {"w", "float[4,3,3,3]"}}) ==
        std::vector<std::string>{"float[N,3,\"H*2+1\",11]"});
  CHECK(infer_node("y = ConvTranspose <output_shape = [10, 8], strides = [3, 2]> (x, w)", 11,
                   {{"x", "float[1,2,3,3]"}, {"w", "float[2,2,3,3]"}}) ==
        std::vector<std::string>{"float[1,2,10,8]"});
  NodeCase n{"y = ConvTranspose (x, w)",
             11,
             {{"x", Tensor(DataType::float32, {1, 3, 5, 5})},
              {"w", Tensor(DataType::float32, {2, 2, 3, 3})}}};
  CHECK(run_error(n).find("X has 3 channels") != std::string::npos);
}
