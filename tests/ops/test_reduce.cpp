// SPDX-License-Identifier: Apache-2.0
// The ten Reduce* operators and ArgMax/ArgMin: the blocked and gathered paths against the
// reference over axis sets, keepdims, axes as attribute or input, noop_with_empty_axes, empty
// sets, negative axes, element types; inference.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "ops/onnx/reduce_common.h"
#include "tests/ops/test_nn_support.h"

using namespace onnxtool;
using namespace onnxtool::test::nn;
using onnxtool::ops::nn::ReduceKind;

namespace {

struct Op {
  const char* name;
  ReduceKind kind;
  int axes_input_from;  // the first version taking axes as an input
};

const std::vector<Op>& reduce_ops() {
  static const std::vector<Op> all = {
      {"ReduceSum", ReduceKind::sum, 13},
      {"ReduceMean", ReduceKind::mean, 18},
      {"ReduceMax", ReduceKind::max, 18},
      {"ReduceMin", ReduceKind::min, 18},
      {"ReduceProd", ReduceKind::prod, 18},
      {"ReduceL1", ReduceKind::l1, 18},
      {"ReduceL2", ReduceKind::l2, 18},
      {"ReduceLogSum", ReduceKind::log_sum, 18},
      {"ReduceLogSumExp", ReduceKind::log_sum_exp, 18},
      {"ReduceSumSquare", ReduceKind::sum_square, 18},
  };
  return all;
}

Tensor reference(const Tensor& x, std::vector<int64_t> axes, ReduceKind kind, bool keep) {
  for (int64_t& a : axes) a = a < 0 ? a + x.rank() : a;
  Shape kept = x.shape(), out;
  for (std::size_t i = 0; i < kept.size(); ++i) {
    const bool r =
        axes.empty() || std::find(axes.begin(), axes.end(), static_cast<int64_t>(i)) != axes.end();
    if (r) kept[i] = 1;
    if (!r || keep) out.push_back(kept[i]);
  }
  Tensor y(DataType::float64, kept);
  onnxtool::ops::nn::reduce_reference(cast_to(x, DataType::float64), axes, kind, y);
  return y.reshaped(out);
}

std::string list(const std::vector<int64_t>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

// Runs op with axes as attribute (opset 11) and as input (its later version).
void check_reduce(const Op& op, const Tensor& x, const std::vector<int64_t>& axes, bool keep,
                  double tol = 1e-5) {
  CAPTURE(op.name);
  CAPTURE(list(axes));
  CAPTURE(keep);
  const Tensor want = reference(x, axes, op.kind, keep);
  const std::string k = "keepdims = " + std::to_string(keep);
  const std::string attr = axes.empty() ? "<" + k + ">" : "<axes = " + list(axes) + ", " + k + ">";
  // The attribute form: opset 11, or 13 for bfloat16 (added then) where axes is still an attribute.
  const int attr_opset = x.dtype() == DataType::bfloat16 ? 13 : 11;
  if (attr_opset < op.axes_input_from)
    check_close(
        run_node({"y = " + std::string(op.name) + " " + attr + " (x)", attr_opset, {{"x", x}}})[0]
            .tensor(),
        want, tol, tol);
  NodeCase n{
      "y = " + std::string(op.name) + " <" + k + "> (x, axes)", op.axes_input_from, {{"x", x}}};
  n.initializers.emplace_back(
      "axes", Tensor::from_vector<int64_t>({static_cast<int64_t>(axes.size())}, axes));
  check_close(run_node(n)[0].tensor(), want, tol, tol);
}

}  // namespace

TEST_CASE("Reduce*: blocked and gathered paths agree with the reference") {
  const Tensor x = random_tensor(DataType::float32, {3, 4, 5, 6}, 71, 0.1, 2);
  const std::vector<std::vector<int64_t>> axis_sets = {
      {}, {0}, {3}, {1}, {1, 2}, {-1, -2}, {0, 3}, {0, 2}, {1, 3}, {0, 1, 2, 3}, {2, 0, -1}};
  for (const Op& op : reduce_ops())
    for (const auto& axes : axis_sets) {
      check_reduce(op, x, axes, true);
      check_reduce(op, x, axes, false);
    }
  // A long inner dim is split into column chunks.
  const Tensor wide = random_tensor(DataType::float32, {2, 3, 2500}, 72, 0.5, 1.5);
  for (const Op& op : reduce_ops()) check_reduce(op, wide, {1}, true, 1e-4);
}

// Float32 values reduced along adjacent runs (the last axes, or all of them) go in blocks of
// 16384 values, each in 16 lanes combined pairwise, the blocks in order: the sums are close to
// the reference, the same bits on one thread and two (a whole-tensor sum shares its blocks out);
// max and min keep the first zero they meet (of -0 and +0) as the plain loop does.
TEST_CASE("Reduce*: contiguous runs in lanes and blocks, the same bits on any thread count") {
  const Tensor x = random_tensor(DataType::float32, {3, 40001}, 73, -1, 2);
  for (const Op& op : reduce_ops()) {
    if (op.kind == ReduceKind::prod || op.kind == ReduceKind::log_sum_exp ||
        op.kind == ReduceKind::log_sum)
      continue;
    for (const std::vector<int64_t>& axes : {std::vector<int64_t>{-1}, std::vector<int64_t>{}}) {
      CAPTURE(op.name);
      CAPTURE(list(axes));
      const Tensor want = reference(x, axes, op.kind, false);
      NodeCase n{"y = " + std::string(op.name) + " <keepdims = 0> (x, axes)",
                 op.axes_input_from,
                 {{"x", x}}};
      n.initializers.emplace_back(
          "axes", Tensor::from_vector<int64_t>({static_cast<int64_t>(axes.size())}, axes));
      n.threads = 1;
      const Tensor one = run_node(n)[0].tensor();
      n.threads = 2;
      const Tensor two = run_node(n)[0].tensor();
      check_close(one, want, 1e-5, 1e-3);
      CHECK(values(one) == values(two));
    }
  }
  // A run of negatives with zeros of both signs: the first one met is the maximum.
  for (const bool negative_first : {true, false}) {
    std::vector<double> v(40, -1.0);
    v[3] = negative_first ? -0.0 : 0.0;
    v[20] = negative_first ? 0.0 : -0.0;
    const Tensor z = cast_to(doubles({40}, v), DataType::float32);
    const Tensor y = run_node({"y = ReduceMax <keepdims = 0> (x)", 13, {{"x", z}}})[0].tensor();
    CHECK(std::signbit(y.data<float>()[0]) == negative_first);
    for (double& e : v) e = -e;
    const Tensor zm = cast_to(doubles({40}, v), DataType::float32);
    const Tensor ym = run_node({"y = ReduceMin <keepdims = 0> (x)", 13, {{"x", zm}}})[0].tensor();
    CHECK(std::signbit(ym.data<float>()[0]) != negative_first);
  }
}

TEST_CASE("Reduce*: element types") {
  const Tensor x = random_tensor(DataType::float32, {2, 3, 4}, 73, 0.5, 1.5);
  for (const Op& op : reduce_ops()) {
    check_reduce(op, cast_to(x, DataType::float64), {1}, true, 1e-12);
    check_reduce(op, cast_to(x, DataType::float16), {1}, false, 5e-3);
    check_reduce(op, cast_to(x, DataType::bfloat16), {0, 2}, false, 3e-2);
  }
  const Tensor i = random_tensor(DataType::int32, {3, 5}, 74, -20, 20);
  for (const char* name : {"ReduceSum", "ReduceMax", "ReduceMin", "ReduceProd", "ReduceL1",
                           "ReduceSumSquare", "ReduceMean"})
    for (DataType t : {DataType::int32, DataType::int64, DataType::uint32, DataType::uint64}) {
      CAPTURE(name);
      CAPTURE(type_name(t));
      const Tensor xi = cast_to(t == DataType::uint32 || t == DataType::uint64
                                    ? cast_to(random_tensor(DataType::int32, {3, 5}, 75, 0, 9), t)
                                    : i,
                                t);
      const Op& op = *std::find_if(reduce_ops().begin(), reduce_ops().end(),
                                   [&](const Op& o) { return std::string(o.name) == name; });
      Tensor want = reference(xi, {1}, op.kind, true);
      if (op.kind == ReduceKind::mean)
        want = cast_to(cast_to(want, DataType::int64), DataType::float64);
      const Tensor got =
          run_node({"y = " + std::string(name) + " <axes = [1]> (x)", 11, {{"x", xi}}})[0].tensor();
      CHECK(got.dtype() == t);
      check_close(got, want, 0, 0);
    }
  const Tensor b = Tensor::from_vector<bool>({2, 2}, {true, false, false, false});
  CHECK(values(run_node({"y = ReduceMax <keepdims = 0> (x, a)",
                         20,
                         {{"x", b}},
                         {{"a", Tensor::from_vector<int64_t>({1}, {1})}}})[0]
                   .tensor()) == std::vector<double>{1, 0});
  const Tensor u8 = cast_to(doubles({3}, {3, 250, 7}), DataType::uint8);
  CHECK(values(run_node({"y = ReduceMin <keepdims = 0> (x)", 12, {{"x", u8}}})[0].tensor()) ==
        std::vector<double>{3});
}

TEST_CASE("Reduce*: empty sets, noop_with_empty_axes, NaN, bad axes") {
  const Tensor empty(DataType::float32, {2, 0, 3});
  const double inf = std::numeric_limits<double>::infinity();
  const std::vector<std::pair<const char*, double>> identity = {
      {"ReduceSum", 0},       {"ReduceProd", 1},         {"ReduceMax", -inf},
      {"ReduceMin", inf},     {"ReduceL1", 0},           {"ReduceL2", 0},
      {"ReduceLogSum", -inf}, {"ReduceLogSumExp", -inf}, {"ReduceSumSquare", 0}};
  for (const auto& entry : identity) {
    const auto& name = entry.first;
    const auto& v = entry.second;
    CAPTURE(name);
    // Opset 11: every Reduce* still takes axes as an attribute there.
    const Tensor y =
        run_node({"y = " + std::string(name) + " <axes = [1]> (x)", 11, {{"x", empty}}})[0]
            .tensor();
    CHECK(shape_to_string(y.shape()) == "[2,1,3]");
    CHECK(values(y) == std::vector<double>(6, v));
  }
  CHECK(std::isnan(
      values(run_node({"y = ReduceMean <axes = [1]> (x)", 13, {{"x", empty}}})[0].tensor())[0]));
  // An empty axes input: every axis, or nothing but the element-wise part with noop.
  const Tensor x = cast_to(doubles({2, 2}, {-1, 2, -3, 4}), DataType::float32);
  const Tensor no_axes = Tensor(DataType::int64, {0});
  CHECK(
      values(run_node({"y = ReduceSum <keepdims = 0> (x, a)", 13, {{"x", x}}, {{"a", no_axes}}})[0]
                 .tensor()) == std::vector<double>{2});
  CHECK(values(run_node({"y = ReduceSum <noop_with_empty_axes = 1> (x, a)",
                         13,
                         {{"x", x}},
                         {{"a", no_axes}}})[0]
                   .tensor()) == std::vector<double>{-1, 2, -3, 4});
  CHECK(values(run_node({"y = ReduceSumSquare <noop_with_empty_axes = 1> (x)", 18, {{"x", x}}})[0]
                   .tensor()) == std::vector<double>{1, 4, 9, 16});
  CHECK(values(run_node({"y = ReduceL1 <noop_with_empty_axes = 1> (x)", 18, {{"x", x}}})[0]
                   .tensor()) == std::vector<double>{1, 2, 3, 4});
  const Tensor nan = cast_to(doubles({3}, {1, NAN, 3}), DataType::float32);
  CHECK(std::isnan(values(run_node({"y = ReduceMax (x)", 13, {{"x", nan}}})[0].tensor())[0]));
  CHECK(std::isnan(values(run_node({"y = ReduceMin (x)", 13, {{"x", nan}}})[0].tensor())[0]));
  CHECK(run_error({"y = ReduceSum <axes = [2]> (x)", 11, {{"x", x}}}).find("out of range") !=
        std::string::npos);
  CHECK(run_error({"y = ReduceMax <axes = [1, -1]> (x)", 13, {{"x", x}}}).find("twice") !=
        std::string::npos);
}

TEST_CASE("Reduce*: inference") {
  CHECK(infer_node("y = ReduceMean <axes = [-1, 1]> (x)", 13, {{"x", "float[N,C,H,W]"}}) ==
        std::vector<std::string>{"float[N,1,H,1]"});
  CHECK(infer_node("y = ReduceSum <keepdims = 0> (x, a)", 13, {{"x", "float[N,C,H]"}},
                   {{"a", Tensor::from_vector<int64_t>({1}, {-2})}}) ==
        std::vector<std::string>{"float[N,H]"});
  CHECK(infer_node("y = ReduceMax <keepdims = 0> (x)", 18, {{"x", "int64[N,C]"}}) ==
        std::vector<std::string>{"int64"});
  CHECK(infer_node("y = ReduceProd <noop_with_empty_axes = 1> (x)", 18, {{"x", "float[N,C]"}}) ==
        std::vector<std::string>{"float[N,C]"});
  CHECK(infer_node("y = ReduceL2 (x, a)", 18, {{"x", "float[N,C]"}, {"a", "int64[1]"}}) ==
        std::vector<std::string>{"float[?,?]"});
  CHECK(infer_node("y = ReduceL1 <axes = [2]> (x)", 13, {{"x", "float[N,C]"}})[0].find("error:") ==
        0);
}

TEST_CASE("ArgMax and ArgMin") {
  const Tensor x = cast_to(doubles({2, 3}, {1, 5, 5, 7, 2, 7}), DataType::float32);
  auto run = [&](const std::string& node, int opset) {
    return values(run_node({node, opset, {{"x", x}}})[0].tensor());
  };
  CHECK(run("y = ArgMax <axis = 1> (x)", 13) == std::vector<double>{1, 0});
  CHECK(run("y = ArgMax <axis = 1, select_last_index = 1> (x)", 13) == std::vector<double>{2, 2});
  CHECK(run("y = ArgMin <axis = -1, keepdims = 0> (x)", 13) == std::vector<double>{0, 1});
  CHECK(run("y = ArgMin (x)", 1) == std::vector<double>{0, 1, 0});
  CHECK(run("y = ArgMax <select_last_index = 1> (x)", 12) == std::vector<double>{1, 0, 1});
  const Tensor big = random_tensor(DataType::float32, {4, 50, 30}, 81);
  for (DataType t : {DataType::float16, DataType::float64, DataType::int32, DataType::uint8,
                     DataType::int64, DataType::bfloat16}) {
    CAPTURE(type_name(t));
    const Tensor xt = cast_to(big, t);
    const auto v = values(xt);
    const auto got =
        values(run_node({"y = ArgMax <axis = 1, keepdims = 0> (x)", 13, {{"x", xt}}})[0].tensor());
    for (std::size_t o = 0; o < 4; ++o)
      for (std::size_t i = 0; i < 30; ++i) {
        std::size_t best = 0;
        for (std::size_t r = 1; r < 50; ++r)
          if (v[(o * 50 + r) * 30 + i] > v[(o * 50 + best) * 30 + i]) best = r;
        CHECK(got[o * 30 + i] == static_cast<double>(best));
      }
  }
  CHECK(shape_to_string(
            run_node({"y = ArgMax <axis = 1> (x)", 13, {{"x", x}}})[0].tensor().shape()) ==
        "[2,1]");
  CHECK(run_error({"y = ArgMax <axis = 0> (x)", 13, {{"x", Tensor(DataType::float32, {0, 3})}}})
            .find("empty axis") != std::string::npos);
  CHECK(infer_node("y = ArgMin <axis = 1, keepdims = 0> (x)", 13, {{"x", "float16[N,C,H]"}}) ==
        std::vector<std::string>{"int64[N,H]"});
}
