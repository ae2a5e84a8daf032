// SPDX-License-Identifier: Apache-2.0
// MaxPool, AveragePool, LpPool and the global pools: the direct per-plane loops against the
// reference loop over many windows (pads, strides, dilations, ceil_mode, count_include_pad,
// 1-D to 4-D), MaxPool's Indices in both storage orders, element types, inference.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

#include "core/kernels/gemm.h"
#include "core/kernels/pool.h"
#include "core/kernels/pool_arch.h"
#include "ops/onnx/nn_reference.h"
#include "tests/ops/test_nn_support.h"

using namespace onnxtool;
using namespace onnxtool::test::nn;
using onnxtool::ops::nn::PoolKind;
using onnxtool::ops::nn::PoolOptions;
using onnxtool::ops::nn::Window;

namespace {

struct PoolCase {
  Shape x;
  std::vector<int64_t> kernel, strides, pads, dilations;
  bool ceil_mode = false;
};

std::string list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

Window pool_window(const PoolCase& c) {
  const std::size_t r = c.kernel.size();
  Window w;
  w.in.assign(c.x.begin() + 2, c.x.end());
  w.kernel = c.kernel;
  w.stride = c.strides.empty() ? std::vector<int64_t>(r, 1) : c.strides;
  w.dilation = c.dilations.empty() ? std::vector<int64_t>(r, 1) : c.dilations;
  w.pad_begin.assign(r, 0);
  w.pad_end.assign(r, 0);
  if (!c.pads.empty()) {
    w.pad_begin.assign(c.pads.begin(), c.pads.begin() + static_cast<std::ptrdiff_t>(r));
    w.pad_end.assign(c.pads.begin() + static_cast<std::ptrdiff_t>(r), c.pads.end());
  }
  for (std::size_t i = 0; i < r; ++i) {
    const int64_t span =
        w.in[i] + w.pad_begin[i] + w.pad_end[i] - w.dilation[i] * (w.kernel[i] - 1) - 1;
    int64_t out = (c.ceil_mode ? (span + w.stride[i] - 1) / w.stride[i] : span / w.stride[i]) + 1;
    if (c.ceil_mode && (out - 1) * w.stride[i] >= w.in[i] + w.pad_begin[i]) --out;
    w.out.push_back(out);
  }
  return w;
}

std::string pool_node(const std::string& op, const PoolCase& c, const std::string& extra) {
  std::string a = "kernel_shape = " + list(c.kernel);
  if (!c.strides.empty()) a += ", strides = " + list(c.strides);
  if (!c.pads.empty()) a += ", pads = " + list(c.pads);
  if (!c.dilations.empty()) a += ", dilations = " + list(c.dilations);
  if (c.ceil_mode) a += ", ceil_mode = 1";
  if (!extra.empty()) a += ", " + extra;
  return "y = " + op + " <" + a + "> (x)";
}

void check_pool(const std::string& op, const PoolCase& c, const PoolOptions& o,
                const std::string& extra = "", DataType type = DataType::float32,
                double tol = 1e-5) {
  const Tensor x = random_tensor(type, c.x, 11);
  NodeCase n{pool_node(op, c, extra), 22, {{"x", x}}};
  const Tensor got = run_node(n)[0].tensor();
  const Window w = pool_window(c);
  Shape shape{c.x[0], c.x[1]};
  shape.insert(shape.end(), w.out.begin(), w.out.end());
  Tensor want(DataType::float64, shape);
  const Tensor xd = cast_to(x, DataType::float64);
  onnxtool::ops::nn::pool_reference(w, c.x[0] * c.x[1], o, xd.data<double>(),
                                    want.mutable_data<double>());
  check_close(got, want, tol, tol);
}

const std::vector<PoolCase>& pool_cases() {
  static const std::vector<PoolCase> cases = {
      {{1, 2, 7, 7}, {3, 3}},
      {{2, 3, 9, 8}, {3, 2}, {2, 2}, {1, 1, 1, 0}},
      {{1, 2, 10, 10}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {2, 2}},
      {{1, 1, 7, 6}, {2, 3}, {2, 2}, {0, 1, 1, 0}, {}, true},
      {{1, 2, 8, 9}, {3, 3}, {3, 2}, {1, 1, 2, 2}, {2, 1}, true},
      {{1, 2, 11}, {4}, {3}, {2, 1}},
      {{1, 1, 4, 5, 6}, {2, 3, 2}, {2, 1, 2}, {0, 1, 1, 1, 0, 0}, {1, 2, 1}},
      {{1, 1, 3, 4, 4, 3}, {2, 2, 2, 2}, {1, 2, 1, 1}},  // 4 spatial dims: the general path
      // Wide enough for the row-by-row loops (at least 8 whole windows along the width).
      {{1, 3, 12, 40}, {3, 3}, {1, 1}, {1, 1, 1, 1}},
      {{2, 2, 15, 45}, {3, 3}, {2, 2}, {0, 0, 1, 1}, {}, true},
      {{1, 2, 9, 50}, {2, 3}, {1, 2}, {1, 0, 0, 2}, {2, 2}},
      {{1, 2, 60}, {5}, {2}, {2, 2}},
  };
  return cases;
}

// MaxPool's plain loop in float over a 2-D case's planes (x as c.x says): each window's
// elements row by row, in order, skipping the padding; the first seeds, then best = v > best ?
// v : best.
std::vector<float> plain_max_pool(const PoolCase& c, const float* xv) {
  const Window w = pool_window(c);
  const int64_t planes = c.x[0] * c.x[1], ih = c.x[2], iw = c.x[3];
  std::vector<float> want;
  for (int64_t p = 0; p < planes; ++p)
    for (int64_t oh = 0; oh < w.out[0]; ++oh)
      for (int64_t ow = 0; ow < w.out[1]; ++ow) {
        float best = -std::numeric_limits<float>::infinity();
        bool seeded = false;
        for (int64_t kh = 0; kh < w.kernel[0]; ++kh)
          for (int64_t kw = 0; kw < w.kernel[1]; ++kw) {
            const int64_t y = oh * w.stride[0] - w.pad_begin[0] + kh * w.dilation[0];
            const int64_t z = ow * w.stride[1] - w.pad_begin[1] + kw * w.dilation[1];
            if (y < 0 || y >= ih || z < 0 || z >= iw) continue;
            const float v = xv[(p * ih + y) * iw + z];
            best = !seeded ? v : (v > best ? v : best);
            seeded = true;
          }
        want.push_back(best);
      }
  return want;
}

}  // namespace

TEST_CASE("MaxPool, AveragePool, LpPool: the direct loops agree with the reference") {
  for (std::size_t i = 0; i < pool_cases().size(); ++i) {
    CAPTURE(i);
    const PoolCase& c = pool_cases()[i];
    check_pool("MaxPool", c, {PoolKind::max});
    check_pool("AveragePool", c, {PoolKind::average});
    check_pool("AveragePool", c, {PoolKind::average, true}, "count_include_pad = 1");
    check_pool("LpPool", c, {PoolKind::lp, false, 3}, "p = 3");
    check_pool("LpPool", c, {PoolKind::lp, false, 2});
  }
}

TEST_CASE("pools: element types") {
  const PoolCase c{{1, 2, 6, 6}, {3, 3}, {2, 2}, {1, 1, 1, 1}};
  check_pool("MaxPool", c, {PoolKind::max}, "", DataType::float64, 1e-12);
  check_pool("MaxPool", c, {PoolKind::max}, "", DataType::float16, 1e-3);
  check_pool("AveragePool", c, {PoolKind::average}, "", DataType::bfloat16, 2e-2);
  const Tensor x = random_tensor(DataType::int8, {1, 1, 4, 4}, 3, -100, 100);
  const Tensor y =
      run_node({"y = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (x)", 12, {{"x", x}}})[0]
          .tensor();
  const std::vector<double> v = values(x);
  CHECK(y.dtype() == DataType::int8);
  CHECK(values(y)[0] == std::max({v[0], v[1], v[4], v[5]}));
  const Tensor u = cast_to(doubles({1, 1, 1, 3}, {3, 200, 7}), DataType::uint8);
  CHECK(values(run_node({"y = MaxPool <kernel_shape = [2], strides = [1]> (x)",
                         12,
                         {{"x", u.reshaped({1, 1, 3})}}})[0]
                   .tensor()) == std::vector<double>{200, 200});
}

TEST_CASE("MaxPool: Indices in both storage orders") {
  std::vector<double> v(16);
  for (int i = 0; i < 16; ++i) v[static_cast<std::size_t>(i)] = i;
  const Tensor x = cast_to(doubles({1, 1, 4, 4}, v), DataType::float32);
  NodeCase n{"y, i = MaxPool <kernel_shape = [2, 2], strides = [2, 2]> (x)", 8, {{"x", x}}};
  auto out = run_node(n);
  CHECK(values(out[0].tensor()) == std::vector<double>{5, 7, 13, 15});
  CHECK(out[1].tensor().dtype() == DataType::int64);
  CHECK(values(out[1].tensor()) == std::vector<double>{5, 7, 13, 15});
  n.node = "y, i = MaxPool <kernel_shape = [2, 2], strides = [2, 2], storage_order = 1> (x)";
  CHECK(values(run_node(n)[1].tensor()) == std::vector<double>{5, 13, 7, 15});
  // A second batch item and channel offset the indices by whole planes.
  const Tensor x2 = random_tensor(DataType::float32, {2, 3, 4, 4}, 5);
  n = {"y, i = MaxPool <kernel_shape = [2, 2], strides = [2, 2], pads = [1, 1, 1, 1]> (x)",
       12,
       {{"x", x2}}};
  out = run_node(n);
  const std::vector<double> xs = values(x2), ys = values(out[0].tensor()),
                            is = values(out[1].tensor());
  for (std::size_t k = 0; k < ys.size(); ++k) CHECK(xs[static_cast<std::size_t>(is[k])] == ys[k]);
  CHECK(is.back() >= 5 * 16);
}

TEST_CASE("pools: auto_pad, old versions, empty tensors, bad input") {
  const Tensor x = random_tensor(DataType::float32, {1, 1, 5, 5}, 6);
  auto shape_of = [&](const std::string& node, int opset) {
    return shape_to_string(run_node({node, opset, {{"x", x}}})[0].tensor().shape());
  };
  CHECK(shape_of(
            "y = MaxPool <kernel_shape = [3, 3], strides = [2, 2], auto_pad = \"SAME_UPPER\"> (x)",
            11) == "[1,1,3,3]");
  CHECK(shape_of("y = AveragePool <kernel_shape = [2, 2], auto_pad = \"SAME_LOWER\"> (x)", 7) ==
        "[1,1,5,5]");
  CHECK(shape_of(
            "y = AveragePool <kernel_shape = [2, 2], auto_pad = \"VALID\", strides = [2, 2]> (x)",
            1) == "[1,1,2,2]");
  CHECK(shape_of("y = LpPool <kernel_shape = [2, 2], p = 2.0> (x)", 1) == "[1,1,4,4]");
  // SAME_LOWER puts the odd padding first: the first window sees one real element.
  const Tensor ones =
      cast_to(doubles({1, 1, 1, 3}, {1, 2, 3}), DataType::float32).reshaped({1, 1, 3});
  CHECK(values(run_node({"y = AveragePool <kernel_shape = [2], auto_pad = \"SAME_LOWER\"> (x)",
                         11,
                         {{"x", ones}}})[0]
                   .tensor()) == std::vector<double>{1, 1.5, 2.5});
  const Tensor empty(DataType::float32, {0, 2, 4, 4});
  CHECK(shape_to_string(run_node({"y = MaxPool <kernel_shape = [2, 2]> (x)", 12, {{"x", empty}}})[0]
                            .tensor()
                            .shape()) == "[0,2,3,3]");
  CHECK(run_error({"y = MaxPool <kernel_shape = [2, 2]> (x)",
                   12,
                   {{"x", Tensor(DataType::float32, {1, 4})}}})
            .find("expected [N, C, D1, ...]") != std::string::npos);
  CHECK(run_error({"y = MaxPool <kernel_shape = [2]> (x)", 12, {{"x", x}}})
            .find("kernel_shape has 1 values but the input has 2 spatial dims") !=
        std::string::npos);
}

TEST_CASE("global pools") {
  const Tensor x = random_tensor(DataType::float32, {2, 3, 4, 5}, 7);
  const std::vector<double> v = values(x);
  for (const char* op : {"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool"}) {
    CAPTURE(op);
    const Tensor y = run_node({std::string("y = ") + op + " (x)", 22, {{"x", x}}})[0].tensor();
    REQUIRE(shape_to_string(y.shape()) == "[2,3,1,1]");
    const std::vector<double> got = values(y);
    for (std::size_t p = 0; p < 6; ++p) {
      double sum = 0, mx = -1e30, sq = 0;
      for (std::size_t i = 0; i < 20; ++i) {
        sum += v[p * 20 + i];
        mx = std::max(mx, v[p * 20 + i]);
        sq += v[p * 20 + i] * v[p * 20 + i];
      }
      const double want = op[6] == 'A' ? sum / 20 : op[6] == 'M' ? mx : std::sqrt(sq);
      CHECK(got[p] == doctest::Approx(want).epsilon(1e-5));
    }
  }
  const Tensor h = random_tensor(DataType::float16, {1, 2, 3}, 8);
  CHECK(run_node({"y = GlobalLpPool <p = 1> (x)", 2, {{"x", h}}})[0].tensor().dtype() ==
        DataType::float16);
}

TEST_CASE("pools: inference") {
  CHECK(infer_node("y = MaxPool <kernel_shape = [3, 3], strides = [2, 2], pads = [1, 1, 1, 1]> (x)",
                   12, {{"x", "float[N,64,H,112]"}}) ==
        std::vector<std::string>{"float[N,64,\"ceil(H/2)\",56]"});
  CHECK(infer_node("y, i = MaxPool <kernel_shape = [2, 2], ceil_mode = 1, strides = [2, 2]> (x)",
                   12, {{"x", "float16[1,3,5,5]"}}) ==
        std::vector<std::string>{"float16[1,3,3,3]", "int64[1,3,3,3]"});
  CHECK(infer_node("y = GlobalAveragePool (x)", 1, {{"x", "float[N,C,7,7]"}}) ==
        std::vector<std::string>{"float[N,C,1,1]"});
  CHECK(infer_node(
            "y = AveragePool <kernel_shape = [3], auto_pad = \"SAME_UPPER\", strides = [2]> (x)",
            19, {{"x", "double[1,2,L]"}}) == std::vector<std::string>{"double[1,2,\"ceil(L/2)\"]"});
}

// The float sums of AveragePool take the window's elements row by row, in order, skipping the
// padding, from +0: whatever path a plane takes (zero-padded copy, row folds, edge loops), the
// result has the bits of that plain loop, NaNs and infinities included.
TEST_CASE("AveragePool in float gives the bits of the plain loop on every path") {
  const PoolCase cases[] = {
      {{1, 3, 7, 7}, {3, 3}, {1, 1}, {1, 1, 1, 1}},
      // The same bordered size with the plane placed elsewhere in it: what the case before left
      // in the thread's bordered copy must not show.
      {{1, 3, 7, 7}, {3, 3}, {1, 1}, {2, 2, 0, 0}},
      {{1, 2, 28, 13}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, true},
      {{1, 2, 9, 11}, {2, 3}, {1, 1}, {0, 2, 1, 0}, {2, 1}},
      {{1, 1, 5, 40}, {3, 3}, {1, 1}, {2, 2, 2, 2}},
      // Windows that are whole planes: summed several planes at once (19 and 18 planes: whole
      // groups and a rest).
      {{1, 19, 7, 7}, {7, 7}, {1, 1}, {0, 0, 0, 0}},
      {{2, 9, 3, 4}, {3, 4}, {2, 2}, {0, 0, 0, 0}},
  };
  for (bool include_pad : {false, true})
    for (const PoolCase& c : cases) {
      CAPTURE(include_pad);
      CAPTURE(c.x[2]);
      Tensor x = random_tensor(DataType::float32, c.x, 5);
      float* xv = x.mutable_data<float>();
      xv[4] = std::numeric_limits<float>::quiet_NaN();
      xv[9] = std::numeric_limits<float>::infinity();
      xv[x.numel() - 1] = -0.0f;
      const std::string extra = include_pad ? "count_include_pad = 1" : "";
      const Tensor got = run_node({pool_node("AveragePool", c, extra), 22, {{"x", x}}})[0].tensor();
      const Window w = pool_window(c);
      const int64_t planes = c.x[0] * c.x[1], ih = w.in[0], iw = w.in[1];
      std::vector<float> want;
      for (int64_t p = 0; p < planes; ++p)
        for (int64_t oh = 0; oh < w.out[0]; ++oh)
          for (int64_t ow = 0; ow < w.out[1]; ++ow) {
            float sum = 0.0f;
            int64_t inside = 0, padded = 0;
            for (int64_t kh = 0; kh < w.kernel[0]; ++kh)
              for (int64_t kw = 0; kw < w.kernel[1]; ++kw) {
                const int64_t y = oh * w.stride[0] - w.pad_begin[0] + kh * w.dilation[0];
                const int64_t z = ow * w.stride[1] - w.pad_begin[1] + kw * w.dilation[1];
                if (y < ih + w.pad_end[0] && z < iw + w.pad_end[1]) ++padded;
                if (y < 0 || y >= ih || z < 0 || z >= iw) continue;
                sum = sum + xv[(p * ih + y) * iw + z];
                ++inside;
              }
            want.push_back(sum / static_cast<float>(include_pad ? padded : inside));
          }
      REQUIRE(got.numel() == static_cast<int64_t>(want.size()));
      CHECK(std::memcmp(got.data<float>(), want.data(), want.size() * sizeof(float)) == 0);
      // Over whole planes GlobalAveragePool is the same arithmetic.
      if (w.out[0] * w.out[1] != 1) continue;
      const Tensor global = run_node({"y = GlobalAveragePool (x)", 22, {{"x", x}}})[0].tensor();
      REQUIRE(global.numel() == got.numel());
      CHECK(std::memcmp(global.data<float>(), want.data(), want.size() * sizeof(float)) == 0);
    }
}

// MaxPool in float takes the window's elements row by row, in order, skipping the padding: the
// first seeds, then best = v > best ? v : best (a first NaN stays, a later one is passed over;
// of +0 and -0 the first stays). Whatever path a plane takes (a copy in a border of -infinity,
// row loops, edge loops), the result has the bits of that plain loop: here with NaNs where
// windows that begin in the padding have their first input value, and elsewhere.
TEST_CASE("MaxPool in float gives the bits of the plain loop on every path") {
  const PoolCase cases[] = {
      {{1, 3, 7, 7}, {3, 3}, {1, 1}, {1, 1, 1, 1}},
      {{1, 3, 7, 7}, {3, 3}, {1, 1}, {2, 2, 0, 0}},  // as in the AveragePool cases
      {{1, 2, 14, 14}, {3, 3}, {1, 1}, {1, 1, 1, 1}},
      {{1, 2, 14, 14}, {3, 3}, {2, 2}, {0, 0, 1, 1}},  // narrow, strided: the bordered copy too
      {{1, 2, 28, 13}, {3, 3}, {2, 2}, {1, 1, 1, 1}, {}, true},
      {{1, 2, 9, 11}, {2, 3}, {1, 1}, {0, 2, 1, 0}, {2, 1}},
      {{1, 1, 5, 40}, {3, 3}, {1, 1}, {2, 2, 2, 2}},
      {{1, 2, 15, 45}, {3, 3}, {2, 2}, {0, 0, 1, 1}, {}, true},
  };
  for (const PoolCase& c : cases) {
    CAPTURE(c.x[2]);
    CAPTURE(c.x[3]);
    Tensor x = random_tensor(DataType::float32, c.x, 9);
    float* xv = x.mutable_data<float>();
    const int64_t ih = c.x[2], iw = c.x[3];
    xv[0] = std::numeric_limits<float>::quiet_NaN();            // first of the corner windows
    xv[2 * iw] = std::numeric_limits<float>::quiet_NaN();       // first of some left-edge windows
    xv[ih * iw + 3] = std::numeric_limits<float>::quiet_NaN();  // top edge of plane 1
    xv[5 * iw + 5] = std::numeric_limits<float>::quiet_NaN();   // inside: later in windows
    xv[iw + 1] = -std::numeric_limits<float>::infinity();
    xv[3 * iw + 2] = -0.0f;
    xv[3 * iw + 3] = 0.0f;
    const Tensor got = run_node({pool_node("MaxPool", c, ""), 22, {{"x", x}}})[0].tensor();
    const std::vector<float> want = plain_max_pool(c, xv);
    REQUIRE(got.numel() == static_cast<int64_t>(want.size()));
    CHECK(std::memcmp(got.data<float>(), want.data(), want.size() * sizeof(float)) == 0);
  }
}

// MaxPool at stride 1 with windows that keep the rows' width (3x3 with pads of 1 and the like)
// takes each row's window maxima, then the window rows' (kernels::separable_max_plane): for a
// plane without NaN the plain loop's bits, ties of +0 and -0 included (the first in row-major
// order stays); a plane holding a NaN goes the row loops' way. Through the operator, and each
// vector variant this CPU has on its own.
TEST_CASE("MaxPool at stride 1 keeping the width: rows' maxima, then columns', with the bits") {
  const PoolCase cases[] = {
      {{1, 3, 7, 7}, {3, 3}, {1, 1}, {1, 1, 1, 1}},
      {{1, 3, 1, 1}, {3, 3}, {1, 1}, {1, 1, 1, 1}},
      {{1, 3, 14, 14}, {3, 3}, {1, 1}, {1, 1, 1, 1}},
      {{2, 2, 28, 28}, {3, 3}, {1, 1}, {1, 1, 1, 1}},
      {{1, 3, 5, 9}, {5, 5}, {1, 1}, {2, 2, 2, 2}},
      {{1, 3, 13, 20}, {5, 3}, {1, 1}, {2, 1, 2, 1}},
      {{1, 3, 8, 20}, {2, 2}, {1, 1}, {1, 1, 0, 0}},
      {{1, 3, 9, 17}, {3, 3}, {1, 1}, {0, 1, 0, 1}},  // fewer output rows than input rows
      {{1, 3, 6, 40}, {3, 7}, {1, 1}, {2, 3, 0, 3}},  // windows from two rows above
      {{1, 3, 3, 3}, {3, 3}, {1, 1}, {2, 0, 0, 2}},
  };
  for (const PoolCase& c : cases) {
    CAPTURE(list(c.x));
    CAPTURE(list(c.kernel));
    CAPTURE(list(c.pads));
    Tensor x = random_tensor(DataType::float32, c.x, 5);
    float* xv = x.mutable_data<float>();
    const int64_t plane = c.x[2] * c.x[3], planes = c.x[0] * c.x[1];
    // Few distinct values, so that windows hold ties; zeros of both signs where the rest is
    // negative, infinities.
    for (int64_t i = 0; i < planes * plane; ++i) {
      const float v = std::floor(xv[i] * 3.0f) / 3.0f;
      xv[i] = v > 0.0f ? -v : (i % 3 == 0 ? -0.0f : (i % 3 == 1 ? 0.0f : v));
    }
    xv[plane / 2] = -std::numeric_limits<float>::infinity();
    xv[plane - 1] = std::numeric_limits<float>::infinity();
    // Plane 1 holds a NaN: the separable path declines it.
    xv[plane + plane / 3] = std::numeric_limits<float>::quiet_NaN();
    const std::vector<float> want = plain_max_pool(c, xv);
    const Tensor got = run_node({pool_node("MaxPool", c, ""), 22, {{"x", x}}})[0].tensor();
    REQUIRE(got.numel() == static_cast<int64_t>(want.size()));
    CHECK(std::memcmp(got.data<float>(), want.data(), want.size() * sizeof(float)) == 0);

    const Window w = pool_window(c);
    kernels::SeparableMax p;
    p.in_h = c.x[2];
    p.in_w = c.x[3];
    p.out_h = w.out[0];
    p.out_w = w.out[1];
    p.top = c.pads[0];
    p.left = c.pads[1];
    p.kernel_h = c.kernel[0];
    p.kernel_w = c.kernel[1];
    REQUIRE(p.out_w == p.in_w);
    using Variant = bool (*)(float*, const kernels::SeparableMax&, float*);
    std::vector<std::pair<std::string, Variant>> variants = {
        {"generic", kernels::detail::separable_max_plane_generic}};
    if (kernels::cpu_simd_level() >= kernels::SimdLevel::avx2)
      variants.emplace_back("avx2", kernels::detail::separable_max_plane_avx2);
    if (kernels::cpu_simd_level() >= kernels::SimdLevel::avx512)
      variants.emplace_back("avx512", kernels::detail::separable_max_plane_avx512);
    const int64_t out_plane = p.out_h * p.out_w;
    std::vector<float> scratch(static_cast<std::size_t>(kernels::separable_max_scratch(p)));
    for (const auto& entry : variants) {
      const std::string& name = entry.first;  // not a structured binding: CAPTURE's lambda reads it
      const Variant variant = entry.second;
      CAPTURE(name);
      std::vector<float> out(static_cast<std::size_t>(out_plane), 7.0f);
      for (const int64_t at : {int64_t{0}, planes - 1}) {
        if (at == 1) continue;
        p.src = xv + at * plane;
        REQUIRE(variant(out.data(), p, scratch.data()));
        CHECK(std::memcmp(out.data(), want.data() + at * out_plane, out.size() * sizeof(float)) ==
              0);
      }
      p.src = xv + plane;
      CHECK_FALSE(variant(out.data(), p, scratch.data()));
    }
  }
}
