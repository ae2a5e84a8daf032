// SPDX-License-Identifier: Apache-2.0
// If, Loop and Scan (their kernels in ops/onnx/) through the engine: subgraphs with outer-scope
// values, loop-carried values, scan outputs, directions and axes, and errors inside bodies.
#include <doctest/doctest.h>

#include "core/exec/kernel.h"
#include "core/exec/session.h"
#include "core/exec/tensor_util.h"
#include "tests/unit/test_exec_util.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

SessionOptions with(const Registry& r) {
  SessionOptions o;
  o.registry = &r;
  o.threads = 2;
  return o;
}

void graph_io(onnx::GraphProto& g, const std::vector<std::string>& inputs,
              const std::vector<std::string>& outputs) {
  for (const auto& i : inputs) g.add_input()->set_name(i);
  for (const auto& o : outputs) g.add_output()->set_name(o);
}

Value boolean(bool b) {
  return Value(Tensor::scalar<bool>(b));
}

// Loop whose body adds `one` (an outer-scope initializer) to the carried value and emits it as
// a scan output; the condition passes through unchanged.
ModelBuilder counting_loop(const std::string& body_op = "Add") {
  ModelBuilder b;
  b.input("m", 7, {});
  b.input("c", 9, {});
  b.input("acc0", 1, {"1"});
  b.initializer("one", {1}, {1});
  onnx::GraphProto body;
  body.set_name("body");
  graph_io(body, {"i", "cond_in", "acc_in"}, {"cond_out", "acc_out", "scan_out"});
  ModelBuilder::set_type(*body.mutable_output(2), 1, {"1"});
  ModelBuilder::add_node(body, "Identity", {"cond_in"}, {"cond_out"});
  if (body_op == "Add")
    ModelBuilder::add_node(body, "Add", {"acc_in", "one"}, {"acc_out"}, "step");
  else
    ModelBuilder::add_node(body, body_op, {"acc_in"}, {"acc_out"}, "step");
  ModelBuilder::add_node(body, "Identity", {"acc_out"}, {"scan_out"});
  auto& loop = b.node("Loop", {"m", "c", "acc0"}, {"acc", "scans"}, "loop");
  set_attr(loop, "body", body);
  b.output("acc");
  b.output("scans");
  return b;
}

}  // namespace

TEST_CASE("If runs the branch the condition picks, seeing outer-scope values") {
  auto reg = test_registry();
  ModelBuilder b;
  b.input("c", 9, {});
  b.input("x", 1, {"2"});
  b.initializer("w", {2}, {10, 20});
  onnx::GraphProto then_g, else_g;
  graph_io(then_g, {}, {"t"});
  ModelBuilder::add_node(then_g, "Add", {"x", "w"}, {"t"});
  graph_io(else_g, {}, {"e"});
  ModelBuilder::add_node(else_g, "Neg", {"x"}, {"e"});
  auto& n = b.node("If",
                   {
                       "c",
                   },
                   {"y"}, "if");
  set_attr(n, "then_branch", then_g);
  set_attr(n, "else_branch", else_g);
  b.output("y");
  Model m = b.build();
  Session s(m, with(*reg));
  const Value x = floats({2}, {1, 2});
  CHECK(values_of(s.run({{"c", boolean(true)}, {"x", x}})[0]) == std::vector<float>{11, 22});
  CHECK(values_of(s.run({{"c", boolean(false)}, {"x", x}})[0]) == std::vector<float>{-1, -2});
}

TEST_CASE("Loop carries values, stacks scan outputs and stops on the trip count or condition") {
  auto reg = test_registry();
  Model m = counting_loop().build();
  Session s(m, with(*reg));
  auto run = [&](int64_t trips, bool cond) {
    return s.run({{"m", Value(Tensor::scalar<int64_t>(trips))},
                  {"c", boolean(cond)},
                  {"acc0", floats({1}, {10})}});
  };
  auto out = run(4, true);
  CHECK(values_of(out[0]) == std::vector<float>{14});
  CHECK(out[1].tensor().shape() == Shape{4, 1});
  CHECK(values_of(out[1]) == std::vector<float>{11, 12, 13, 14});

  out = run(4, false);  // the condition is false from the start: no iteration
  CHECK(values_of(out[0]) == std::vector<float>{10});
  CHECK(out[1].tensor().shape() == Shape{0, 1});  // the body's declared scan shape
  CHECK(out[1].tensor().dtype() == DataType::float32);
}

TEST_CASE("Loop without a trip count runs until the body's condition turns false") {
  auto reg = test_registry();
  // cond_out = (i < 2), computed by a test kernel.
  reg->add("", "Below2").since(1).input("I", "T").output("B", "U").kernel([](KernelContext& ctx) {
    ctx.set_output(0, Value(Tensor::scalar<bool>(ctx.input(0).data<int64_t>()[0] < 2)));
  });
  ModelBuilder b = counting_loop();
  auto* body = b.graph().mutable_node(0)->mutable_attribute(0)->mutable_g();
  body->mutable_node(0)->set_op_type("Below2");
  body->mutable_node(0)->set_input(0, "i");
  b.graph().mutable_node(0)->set_input(0, "");  // no M
  Model m = b.build();
  Session s(m, with(*reg));
  auto out = s.run({{"m", Value(Tensor::scalar<int64_t>(0))},  // fed but unused
                    {"c", boolean(true)},
                    {"acc0", floats({1}, {0})}});
  CHECK(values_of(out[0]) == std::vector<float>{3});  // i = 0, 1, 2; stops after i = 2
}

TEST_CASE("a failure inside a loop body names the nested node") {
  auto reg = test_registry();
  Model m = counting_loop("Fail").build();
  Session s(m, with(*reg));
  try {
    s.run({{"m", Value(Tensor::scalar<int64_t>(3))},
           {"c", boolean(true)},
           {"acc0", floats({1}, {0})}});
    FAIL("the loop should fail");
  } catch (const Error& e) {
    CHECK(e.location() == "graph.node[0] \"loop\" (Loop) attribute body: node[1] \"step\" (Fail)");
    CHECK(e.message() == "boom at index 7");
  }
}

TEST_CASE("Scan (opset 9 on) scans along axes in both directions") {
  auto reg = test_registry();
  auto build = [](int64_t in_axis, int64_t in_dir, int64_t out_axis, int64_t out_dir) {
    ModelBuilder b(11);
    b.input("s0", 1, {"2"});
    b.input("xs", 1, {"*"});
    onnx::GraphProto body;
    graph_io(body, {"s_in", "x_t"}, {"s_out", "y_t"});
    ModelBuilder::add_node(body, "Add", {"s_in", "x_t"}, {"s_out"});
    ModelBuilder::add_node(body, "Identity", {"s_out"}, {"y_t"});
    auto& n = b.node("Scan", {"s0", "xs"}, {"s", "ys"});
    set_attr(n, "body", body);
    set_attr(n, "num_scan_inputs", int64_t{1});
    set_attr(n, "scan_input_axes", std::vector<int64_t>{in_axis});
    set_attr(n, "scan_input_directions", std::vector<int64_t>{in_dir});
    set_attr(n, "scan_output_axes", std::vector<int64_t>{out_axis});
    set_attr(n, "scan_output_directions", std::vector<int64_t>{out_dir});
    b.output("s");
    b.output("ys");
    return b.build();
  };
  const Value s0 = floats({2}, {0, 0});
  {
    Model m = build(0, 0, 0, 0);
    Session s(m, with(*reg));
    auto out = s.run({{"s0", s0}, {"xs", floats({3, 2}, {1, 2, 3, 4, 5, 6})}});
    CHECK(values_of(out[0]) == std::vector<float>{9, 12});
    CHECK(out[1].tensor().shape() == Shape{3, 2});
    CHECK(values_of(out[1]) == std::vector<float>{1, 2, 4, 6, 9, 12});
  }
  {
    // Scan along axis 1 of [2,3] backwards; stack the outputs along axis 1, reversed.
    Model m = build(-1, 1, 1, 1);
    Session s(m, with(*reg));
    auto out = s.run({{"s0", s0}, {"xs", floats({2, 3}, {1, 3, 5, 2, 4, 6})}});
    CHECK(values_of(out[0]) == std::vector<float>{9, 12});
    // Iterations see columns 2, 1, 0: partial sums (5,6), (8,10), (9,12); stored in reverse.
    CHECK(out[1].tensor().shape() == Shape{2, 3});
    CHECK(values_of(out[1]) == std::vector<float>{9, 8, 5, 12, 10, 6});
  }
}

TEST_CASE("Scan-8 runs each batch row with its own sequence length") {
  auto reg = test_registry();
  ModelBuilder b(8);
  b.input("lens", 7, {"2"});
  b.input("s0", 1, {"2", "1"});
  b.input("xs", 1, {"2", "3", "1"});
  onnx::GraphProto body;
  graph_io(body, {"s_in", "x_t"}, {"s_out", "y_t"});
  ModelBuilder::add_node(body, "Add", {"s_in", "x_t"}, {"s_out"});
  ModelBuilder::add_node(body, "Identity", {"s_out"}, {"y_t"});
  auto& n = b.node("Scan", {"lens", "s0", "xs"}, {"s", "ys"});
  set_attr(n, "body", body);
  set_attr(n, "num_scan_inputs", int64_t{1});
  b.output("s");
  b.output("ys");
  Model m = b.build();
  Session s(m, with(*reg));
  auto out = s.run({{"lens", Value(Tensor::from_vector<int64_t>({2}, {3, 2}))},
                    {"s0", floats({2, 1}, {0, 100})},
                    {"xs", floats({2, 3, 1}, {1, 2, 3, 10, 20, 30})}});
  CHECK(values_of(out[0]) == std::vector<float>{6, 130});
  CHECK(out[1].tensor().shape() == Shape{2, 3, 1});
  CHECK(values_of(out[1]) == std::vector<float>{1, 3, 6, 110, 130, 0});
}

TEST_CASE("slicing and stacking along an axis work for every element type") {
  const Tensor s = Tensor::from_strings({2, 2}, {"a", "b", "c", "d"});
  CHECK(slice_along(s, 1, 1).strings() == std::vector<std::string>{"b", "d"});
  const Tensor i = Tensor::from_vector<int64_t>({2, 3}, {1, 2, 3, 4, 5, 6});
  const Tensor col = slice_along(i, 1, 2);
  CHECK(col.shape() == Shape{2});
  CHECK(col.data<int64_t>()[1] == 6);
  const Tensor st = stack_along({col, col}, 1);
  CHECK(st.shape() == Shape{2, 2});
  CHECK(st.data<int64_t>()[2] == 6);
  CHECK_THROWS_AS(slice_along(i, 2, 0), Error);
  CHECK_THROWS_AS(stack_along({col, i}, 0), Error);
  CHECK(stack_along({}, 0, DataType::int8, {0, 4}).shape() == Shape{0, 4});
}
