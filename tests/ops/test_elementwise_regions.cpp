// SPDX-License-Identifier: Apache-2.0
// Element-wise regions (core/exec/passes/fuse_elementwise.h): which nodes run as one, where
// they must not, and that a region gives the bits of its nodes run one by one, on one thread
// and two, whatever the shapes and broadcasts.
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

// Every output of the fused runs (two threads and one) has the unfused run's bits.
void check_same_bits(const FusedRuns& r) {
  REQUIRE(r.fused.size() == r.unfused.size());
  REQUIRE(r.fused_one_thread.size() == r.unfused.size());
  for (std::size_t i = 0; i < r.fused.size(); ++i) {
    INFO("output ", i);
    CHECK(r.fused[i].tensor().shape() == r.unfused[i].tensor().shape());
    CHECK(values(r.fused[i].tensor()) == values(r.unfused[i].tensor()));
    CHECK(values(r.fused_one_thread[i].tensor()) == values(r.unfused[i].tensor()));
  }
}

Constants scalars(std::initializer_list<std::pair<const char*, float>> list) {
  Constants c;
  for (const auto& [name, v] : list) c.emplace_back(name, Tensor::scalar<float>(v));
  return c;
}

std::string gelu_model(const std::string& dims) {
  return "<ir_version: 8, opset_import: [\"\" : 13]>\ng (float[" + dims + "] x) => (float[" + dims +
         R"(] y) {
  d = Div (x, sqrt2)
  e = Erf (d)
  a = Add (e, one)
  m = Mul (x, a)
  y = Mul (m, half)
})";
}

}  // namespace

TEST_CASE("GELU written out runs as one node, with the bits of its five") {
  const Constants k = scalars({{"sqrt2", 1.4142135f}, {"one", 1.0f}, {"half", 0.5f}});
  // One block, several blocks with a ragged end, and enough for both threads.
  for (const Shape& shape : {Shape{2, 3, 37}, Shape{3, 700}, Shape{4, 128, 97}}) {
    std::string dims;
    for (int64_t d : shape) dims += (dims.empty() ? "" : ",") + std::to_string(d);
    INFO(dims);
    const FusedRuns r =
        run_fused_and_plain(model_of(gelu_model(dims), k),
                            {{"x", Value(random_tensor(DataType::float32, shape, 7, -4, 4))}});
    CHECK(r.unfused_nodes == 5);
    CHECK(r.fused_nodes == 1);
    check_same_bits(r);
  }
}

TEST_CASE("activations that give epilogues take part: HardSwish written out, Relu, LeakyRelu") {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2,5,11,13] x) => (float[2,5,11,13] y) {
  a = Add (x, three)
  c = Clip (a, zero, six)
  d = Div (c, six)
  h = Mul (x, d)
  r = Relu (h)
  s = Sub (r, three)
  y = LeakyRelu <alpha = 0.1> (s)
})";
  const FusedRuns r = run_fused_and_plain(
      model_of(text, scalars({{"three", 3.0f}, {"zero", 0.0f}, {"six", 6.0f}})),
      {{"x", Value(random_tensor(DataType::float32, {2, 5, 11, 13}, 3, -8, 8))}});
  CHECK(r.unfused_nodes == 7);
  CHECK(r.fused_nodes == 1);
  check_same_bits(r);
}

TEST_CASE("operands broadcast along any axes: per channel, per row, per last axis, scalars") {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2,4,5,6] x, float[2,4,1,1] per_sample_channel) => (float[2,4,5,6] y) {
  a = Mul (x, per_channel)
  b = Add (a, per_last)
  c = Sub (b, per_sample_channel)
  d = Div (c, per_row)
  e = Sigmoid (d)
  f = Mul (e, middle)
  y = Add (f, x)
})";
  Constants k = {{"per_channel", random_tensor(DataType::float32, {4, 1, 1}, 1)},
                 {"per_last", random_tensor(DataType::float32, {6}, 2)},
                 {"per_row", random_tensor(DataType::float32, {2, 4, 5, 1}, 3, 0.5, 2)},
                 {"middle", random_tensor(DataType::float32, {1, 5, 1}, 4)}};
  const FusedRuns r = run_fused_and_plain(
      model_of(text, k),
      {{"x", Value(random_tensor(DataType::float32, {2, 4, 5, 6}, 5))},
       {"per_sample_channel", Value(random_tensor(DataType::float32, {2, 4, 1, 1}, 6))}});
  CHECK(r.unfused_nodes == 7);
  CHECK(r.fused_nodes == 1);
  check_same_bits(r);
}

TEST_CASE("a member's value that others read is written too; the rest stays in cache") {
  // e is read by a MatMul and is a graph output; a is read by the region alone.
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[8,16] x, float[16,4] w) => (float[8,16] y, float[8,16] e, float[8,4] p) {
  a = Neg (x)
  e = Exp (a)
  y = Mul (e, x)
  p = MatMul (e, w)
})";
  const FusedRuns r = run_fused_and_plain(
      model_of(text, {}), {{"x", Value(random_tensor(DataType::float32, {8, 16}, 1))},
                           {"w", Value(random_tensor(DataType::float32, {16, 4}, 2))}});
  CHECK(r.unfused_nodes == 4);
  CHECK(r.fused_nodes == 2);
  check_same_bits(r);
}

TEST_CASE("no region takes a node whose operand comes back from outside it") {
  // s is made from e by a reduction after the region starts: Add (e, s) must wait for it, so it
  // cannot join e's region (which would then read its own output). Exp alone is no region.
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[3,10] x) => (float[3,10] y) {
  e = Exp (x)
  s = ReduceSum <keepdims = 1> (e, axes)
  q = Div (e, s)
  y = Neg (q)
})";
  Constants k = {{"axes", doubles({1}, {1})}};
  k[0].second = cast_to(k[0].second, DataType::int64);
  const FusedRuns r = run_fused_and_plain(
      model_of(text, k), {{"x", Value(random_tensor(DataType::float32, {3, 10}, 9))}});
  CHECK(r.unfused_nodes == 4);
  CHECK(r.fused_nodes == 3);  // Exp; ReduceSum; Div and Neg as one
  check_same_bits(r);
}

TEST_CASE("outputs of other shapes, other types and exponents left to the kernel stay apart") {
  // b widens [5] to [4,5] and c widens that to [3,4,5]: three shapes, no two nodes share one.
  // The int32 chain and Pow by an int64 exponent are not float32 steps.
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[5] x, float[4,5] u, float[3,4,5] v, int32[6] i) => (float[3,4,5] y, int32[6] j, float[5] p) {
  a = Exp (x)
  b = Add (a, u)
  y = Mul (b, v)
  k = Add (i, i)
  j = Mul (k, i)
  q = Pow (x, three)
  p = Pow (q, two)
})";
  Constants k = {{"three", Tensor::scalar<int64_t>(3)}, {"two", Tensor::scalar<float>(2.0f)}};
  const FusedRuns r = run_fused_and_plain(
      model_of(text, k),
      {{"x", Value(random_tensor(DataType::float32, {5}, 1))},
       {"u", Value(random_tensor(DataType::float32, {4, 5}, 2))},
       {"v", Value(random_tensor(DataType::float32, {3, 4, 5}, 3))},
       {"i", Value(cast_to(doubles({6}, {1, -2, 3, -4, 5, 7}), DataType::int32))}});
  CHECK(r.unfused_nodes == 7);
  CHECK(r.fused_nodes == 7);
  check_same_bits(r);
}

TEST_CASE("Pow by a constant float exponent is a step: squares as x*x, other powers as pow") {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[3,50] x) => (float[3,50] y) {
  a = Abs (x)
  s = Pow (a, two)
  y = Pow (s, third)
})";
  const FusedRuns r =
      run_fused_and_plain(model_of(text, scalars({{"two", 2.0f}, {"third", 0.3333f}})),
                          {{"x", Value(random_tensor(DataType::float32, {3, 50}, 4, -3, 3))}});
  CHECK(r.unfused_nodes == 3);
  CHECK(r.fused_nodes == 1);
  check_same_bits(r);
}

TEST_CASE("symbolic dims: one region, run at several sizes, empty included") {
  const Constants k = scalars({{"sqrt2", 1.4142135f}, {"one", 1.0f}, {"half", 0.5f}});
  SessionOptions on, off;
  on.threads = off.threads = 2;
  off.fuse = false;
  const Model m = model_of(gelu_model("N,33"), k);
  Session fused(m, on), plain(m, off);
  CHECK(fused.stats().nodes == 1);
  for (int64_t n : {int64_t{1}, int64_t{0}, int64_t{300}}) {
    INFO("N = ", n);
    const Tensor x = random_tensor(DataType::float32, {n, 33}, 5, -3, 3);
    const auto a = fused.run({{"x", Value(x)}});
    const auto b = plain.run({{"x", Value(x)}});
    CHECK(a[0].tensor().shape() == Shape{n, 33});
    CHECK(values(a[0].tensor()) == values(b[0].tensor()));
  }
}

TEST_CASE("a region in a subgraph, reading the outer graph's values") {
  const char* text = R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[4,9] x, bool c) => (float[4,9] y) {
  y = If (c) <then_branch = t () => (float[4,9] ty) {
      a = Tanh (x)
      b = Mul (a, x)
      ty = Sub (b, x)
    }, else_branch = f () => (float[4,9] fy) {
      fy = Neg (x)
    }>
})";
  Tensor yes(DataType::boolean, Shape{});
  yes.mutable_data<bool>()[0] = true;
  const FusedRuns r = run_fused_and_plain(
      model_of(text, {}),
      {{"x", Value(random_tensor(DataType::float32, {4, 9}, 8))}, {"c", Value(yes)}});
  check_same_bits(r);
  CHECK(r.fused.size() == 1);
}
