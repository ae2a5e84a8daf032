// SPDX-License-Identifier: Apache-2.0
// The executor's engine with a test-local registry: planning, missing kernels, feeds, kernel
// failures, constant folding, value lifetimes, functions.
#include <doctest/doctest.h>

#include "core/exec/planner.h"
#include "core/exec/runner.h"
#include "core/exec/session.h"
#include "core/exec/thread_pool.h"
#include "core/ir/graph.h"
#include "core/registry/schema.h"
#include "tests/unit/test_exec_util.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

SessionOptions with(const Registry& r, int threads = 2) {
  SessionOptions o;
  o.registry = &r;
  o.threads = threads;
  return o;
}

// y = -(x + w), w an initializer.
ModelBuilder add_neg_model() {
  ModelBuilder b;
  b.input("x", 1, {"2"});
  b.initializer("w", {2}, {10, 20});
  b.node("Add", {"x", "w"}, {"s"}, "add");
  b.node("Neg", {"s"}, {"y"}, "neg");
  b.output("y", 1, {"2"});
  return b;
}

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return (e.location().empty() ? "" : e.location() + ": ") + e.message() + " [" + e.rule() + "]";
  }
  return "no error";
}

}  // namespace

TEST_CASE("a simple graph runs and gives its outputs in order") {
  auto reg = test_registry();
  Model m = add_neg_model().build();
  Session s(m, with(*reg));
  auto out = s.run({{"x", floats({2}, {1, 2})}});
  REQUIRE(out.size() == 1);
  CHECK(values_of(out[0]) == std::vector<float>{-11, -22});
  CHECK(s.inputs().size() == 1);
  CHECK(s.outputs()[0].name == "y");
  CHECK(s.stats().nodes == 2);
  // A second run on the same session gives the same.
  CHECK(values_of(s.run({{"x", floats({2}, {1, 2})}})[0]) == std::vector<float>{-11, -22});
}

TEST_CASE("every missing kernel is reported at planning, naming node and op version") {
  auto reg = test_registry();
  ModelBuilder b;
  b.input("x", 1, {"2"});
  b.node("NoKernel", {"x"}, {"a"}, "first");
  b.node("Neg", {"a"}, {"c"});
  b.node("Mystery", {"c"}, {"y"}, "second");
  b.output("y");
  Model m = b.build();
  try {
    Session s(m, with(*reg));
    FAIL("planning should fail");
  } catch (const PlanError& e) {
    REQUIRE(e.problems().size() == 2);
    CHECK(e.problems()[0].location == "graph.node[0] \"first\" (NoKernel)");
    CHECK(e.problems()[0].message == "no kernel for NoKernel-1");
    CHECK(e.problems()[0].rule == "exec.no-kernel");
    CHECK(e.problems()[1].message == "unknown operator Mystery");
    CHECK(e.summary() == "no kernel for NoKernel-1; unknown operator Mystery");
    CHECK(std::string(e.what()).find("and 1 more problem") != std::string::npos);
  }
}

TEST_CASE("missing kernels inside subgraphs are reported too") {
  auto reg = test_registry();
  ModelBuilder b;
  b.input("c", 9, {});
  onnx::GraphProto then_g, else_g;
  then_g.set_name("then");
  ModelBuilder::add_node(then_g, "NoKernel", {"x"}, {"t"}, "inner");
  then_g.add_output()->set_name("t");
  else_g.set_name("else");
  ModelBuilder::add_node(else_g, "Neg", {"x"}, {"e"});
  else_g.add_output()->set_name("e");
  b.input("x", 1, {"1"});
  auto& n = b.node("If", {"c"}, {"y"}, "if");
  set_attr(n, "then_branch", then_g);
  set_attr(n, "else_branch", else_g);
  b.output("y");
  Model m = b.build();
  CHECK(error_of([&] { Session s(m, with(*reg)); }) ==
        "graph.node[0] \"if\" (If) attribute then_branch: node[0] \"inner\" (NoKernel): no kernel "
        "for NoKernel-1 [exec.no-kernel]");
}

TEST_CASE("an input error names the required inputs and counts the optional ones") {
  // IR < 4 style: every weight is also an input with an initializer.
  auto reg = test_registry();
  ModelBuilder b;
  b.input("x", 1, {"1"});
  for (int i = 0; i < 5; ++i) {
    const std::string w = "w" + std::to_string(i);
    b.input(w, 1, {"1"});
    b.initializer(w, {1}, {1.0f});
  }
  b.node("Neg", {"x"}, {"y"});
  b.output("y");
  Model m = b.build();
  Session s(m, with(*reg));
  CHECK(error_of([&] { s.run({}); }) ==
        "missing input \"x\"; the model expects x: float[1]; 5 optional inputs that have "
        "initializers (w0: float[1], w1: float[1], w2: float[1], ...) [exec.bad-input]");
}

TEST_CASE("undefined inputs and unimported domains are planning errors") {
  auto reg = test_registry();
  ModelBuilder b;
  b.input("x", 1, {"2"});
  b.node("Neg", {"nowhere"}, {"a"});
  auto& n = b.node("Neg", {"x"}, {"y"});
  n.set_domain("com.example");
  b.output("y");
  Model m = b.build();
  try {
    Session s(m, with(*reg));
    FAIL("planning should fail");
  } catch (const PlanError& e) {
    REQUIRE(e.problems().size() == 2);
    CHECK(e.problems()[0].rule == "exec.undefined-value");
    CHECK(e.problems()[1].message == "domain \"com.example\" is not imported by the model");
  }
}

TEST_CASE("feeds are checked against the model's declaration") {
  auto reg = test_registry();
  Model m = add_neg_model().build();
  Session s(m, with(*reg));
  CHECK(error_of([&] {
          s.run({{"z", floats({2}, {1, 2})}});
        }) == "the model has no input \"z\"; the model expects x: float[2] [exec.bad-input]");
  CHECK(error_of([&] { s.run({}); }) ==
        "missing input \"x\"; the model expects x: float[2] [exec.bad-input]");
  CHECK(error_of([&] {
          s.run({{"x", floats({3}, {1, 2, 3})}});
        }) ==
        "input \"x\" has shape [3], expected [2]; the model expects x: float[2] "
        "[exec.bad-input]");
  CHECK(error_of([&] {
          s.run({{"x", Value(Tensor::from_vector<int64_t>({2}, {1, 2}))}});
        }) ==
        "input \"x\" has element type int64, expected float; the model expects x: float[2] "
        "[exec.bad-input]");
}

TEST_CASE("an initializer that is also an input is a default the caller may override") {
  auto reg = test_registry();
  ModelBuilder b = add_neg_model();
  b.input("w", 1, {"2"});
  Model m = b.build();
  Session s(m, with(*reg));
  CHECK(s.inputs()[1].has_initializer);
  CHECK(values_of(s.run({{"x", floats({2}, {1, 2})}})[0]) == std::vector<float>{-11, -22});
  CHECK(values_of(s.run({{"x", floats({2}, {1, 2})}, {"w", floats({2}, {0, 0})}})[0]) ==
        std::vector<float>{-1, -2});
  CHECK(s.stats().folded_nodes == 0);  // w is not a constant: it may be overridden
}

TEST_CASE("a kernel's failure is one error naming the node") {
  auto reg = test_registry();
  for (const char* op : {"Fail", "Throw", "Raise"}) {
    CAPTURE(op);
    ModelBuilder b;
    b.input("x", 1, {"1"});
    b.node("Neg", {"x"}, {"a"});
    b.node(op, {"a"}, {"y"}, "culprit");
    b.output("y");
    Model m = b.build();
    Session s(m, with(*reg));
    const std::string where = std::string("graph.node[1] \"culprit\" (") + op + "): ";
    const std::string e = error_of([&] { s.run({{"x", floats({1}, {1})}}); });
    if (std::string(op) == "Fail") CHECK(e == where + "boom at index 7 [exec.kernel-failed]");
    if (std::string(op) == "Throw")
      CHECK(e == where + "internal error in the kernel: bad state [exec.kernel-error]");
    if (std::string(op) == "Raise") CHECK(e == where + "raised from the kernel [tensor.bad-shape]");
  }
}

TEST_CASE("input element types are checked against the schema's constraints") {
  auto reg = test_registry();
  ModelBuilder b;
  b.input("x", 7, {"2"});
  b.node("Neg", {"x"}, {"y"}, "n");
  b.output("y");
  Model m = b.build();
  Session s(m, with(*reg));
  CHECK(error_of([&] {
          s.run({{"x", Value(Tensor::from_vector<int64_t>({2}, {1, 2}))}});
        }) ==
        "graph.node[0] \"n\" (Neg): input 0 \"x\" has element type int64; Neg-1 allows float "
        "[exec.bad-input-type]");
}

TEST_CASE("what an input's default alone computes is folded, and recomputed when it is fed") {
  auto reg = test_registry();
  // y = x + -w, w an input with a default: -w is folded for runs that leave w out.
  ModelBuilder b;
  b.input("x", 1, {"2"});
  b.input("w", 1, {"2"});
  b.initializer("w", {2}, {10, 20});
  b.node("Neg", {"w"}, {"nw"}, "neg");
  b.node("Add", {"x", "nw"}, {"y"}, "add");
  b.output("y", 1, {"2"});
  Model m = b.build();
  Session s(m, with(*reg));
  CHECK(s.stats().folded_nodes == 1);
  const Value x = floats({2}, {1, 2});
  CHECK(values_of(s.run({{"x", x}})[0]) == std::vector<float>{-9, -18});
  CHECK(values_of(s.run({{"x", x}, {"w", floats({2}, {1, 1})}})[0]) == std::vector<float>{0, 1});
  CHECK(values_of(s.run({{"x", x}})[0]) == std::vector<float>{-9, -18});
}

TEST_CASE("constant subgraphs are folded once, at load") {
  auto reg = test_registry();
  ModelBuilder b;
  b.input("x", 1, {});
  auto& c = b.node("Const", {}, {"c"});
  set_attr(c, "value", 3.0f);
  b.node("Neg", {"c"}, {"nc"});       // constant: folded
  b.node("Add", {"x", "nc"}, {"y"});  // depends on x: runs
  b.output("y");
  Model m = b.build();
  Session s(m, with(*reg));
  CHECK(s.stats().folded_nodes == 2);
  CHECK(s.stats().nodes == 1);
  CHECK(counters().neg == 1);
  for (int i = 0; i < 3; ++i)
    CHECK(values_of(s.run({{"x", Value(Tensor::scalar<float>(1))}})[0]) == std::vector<float>{-2});
  CHECK(counters().neg == 1);
  CHECK(counters().constant == 1);
  CHECK(counters().add == 3);

  SessionOptions no_fold = with(*reg);
  no_fold.fold_constants = false;
  Session s2(m, no_fold);
  CHECK(s2.stats().nodes == 3);
  CHECK(values_of(s2.run({{"x", Value(Tensor::scalar<float>(1))}})[0]) == std::vector<float>{-2});
}

TEST_CASE("a node that fails while folding is left to fail at run time, at the node") {
  auto reg = test_registry();
  ModelBuilder b;
  b.input("x", 1, {"*"});
  b.initializer("w", {1}, {1});
  b.node("Fail", {"w"}, {"f"}, "bad");
  b.node("Add", {"x", "f"}, {"y"});
  b.output("y");
  Model m = b.build();
  Session s(m, with(*reg));
  CHECK(s.stats().folded_nodes == 0);
  CHECK(error_of([&] {
          s.run({{"x", floats({1}, {1})}});
        }) == "graph.node[0] \"bad\" (Fail): boom at index 7 [exec.kernel-failed]");
}

TEST_CASE("values are released right after their last use") {
  auto reg = test_registry();
  ModelBuilder b;
  b.input("x", 1, {"1"});
  b.node("Neg", {"x"}, {"a"});        // 0
  b.node("Neg", {"a"}, {"b"});        // 1: last use of a
  b.node("Add", {"a2", "b"}, {"c"});  // placeholder replaced below
  b.output("c");
  b.graph().mutable_node(2)->set_input(0, "x");  // 2: last use of x and b
  b.node("Neg", {"c"}, {"unused"});              // 3: output never read
  Model m = b.build();
  SessionStats stats;
  ThreadPool pool(1);
  exec_detail::Runner runner(pool, "test.onnx");
  SessionOptions opts = with(*reg);
  exec_detail::PlanContext ctx{m, *reg, opts, runner, stats, {}, {}, {}, 0};
  auto plan = exec_detail::plan_model(ctx, ir::ModelGraph::view(m.proto));
  auto released = [&](int node) {
    std::vector<std::string> names;
    for (int slot : plan->nodes[static_cast<std::size_t>(node)].release)
      names.push_back(plan->slot_names[static_cast<std::size_t>(slot)]);
    std::sort(names.begin(), names.end());
    return names;
  };
  CHECK(released(0).empty());
  CHECK(released(1) == std::vector<std::string>{"a"});
  CHECK(released(2) == std::vector<std::string>{"b", "x"});  // c is a graph output: kept
  CHECK(released(3) == std::vector<std::string>{"unused"});
}

TEST_CASE("model-local functions run with attribute references and their own opsets") {
  auto reg = test_registry();
  ModelBuilder b;
  auto* fn = b.proto().add_functions();
  fn->set_name("AddConst");
  fn->set_domain("local");
  fn->add_input("a");
  fn->add_output("r");
  auto* imp = fn->add_opset_import();
  imp->set_domain("");
  imp->set_version(1);
  auto* cnode = fn->add_node();
  cnode->set_op_type("Const");
  cnode->add_output("k");
  auto* ref = cnode->add_attribute();
  ref->set_name("value");
  ref->set_type(onnx::AttributeProto::FLOAT);
  ref->set_ref_attr_name("amount");
  auto* add = fn->add_node();
  add->set_op_type("Add");
  add->add_input("a");
  add->add_input("k");
  add->add_output("r");
  auto* def = fn->add_attribute_proto();
  def->set_name("amount");
  def->set_type(onnx::AttributeProto::FLOAT);
  def->set_f(100);
  auto* local = b.proto().add_opset_import();
  local->set_domain("local");
  local->set_version(1);

  b.input("x", 1, {});
  auto& n1 = b.node("AddConst", {"x"}, {"y1"}, "given");
  n1.set_domain("local");
  set_attr(n1, "amount", 5.0f);
  auto& n2 = b.node("AddConst", {"x"}, {"y2"}, "defaulted");
  n2.set_domain("local");
  b.output("y1");
  b.output("y2");
  Model m = b.build();
  Session s(m, with(*reg));
  auto out = s.run({{"x", Value(Tensor::scalar<float>(1))}});
  CHECK(values_of(out[0]) == std::vector<float>{6});
  CHECK(values_of(out[1]) == std::vector<float>{101});
  CHECK(s.stats().function_calls == 2);
}

TEST_CASE("a failure inside a function names the call site and the body node") {
  auto reg = test_registry();
  ModelBuilder b;
  auto* fn = b.proto().add_functions();
  fn->set_name("Broken");
  fn->set_domain("local");
  fn->add_input("a");
  fn->add_output("r");
  auto* f = fn->add_node();
  f->set_op_type("Fail");
  f->set_name("inside");
  f->add_input("a");
  f->add_output("r");
  b.proto().add_opset_import()->set_domain("local");
  b.input("x", 1, {});
  b.node("Broken", {"x"}, {"y"}, "call").set_domain("local");
  b.output("y");
  Model m = b.build();
  Session s(m, with(*reg));
  CHECK(error_of([&] {
          s.run({{"x", Value(Tensor::scalar<float>(1))}});
        }) ==
        "graph.node[0] \"call\" (local.Broken) function \"Broken\": node[0] \"inside\" (Fail): "
        "boom at index 7 [exec.kernel-failed]");
}

TEST_CASE("operators the spec defines as functions run their body through the parser hook") {
  auto reg = test_registry();
  // Twice(X) = X + X, with no kernel: only a function body.
  VersionBuilder v = reg->add("", "Twice").since(1).input("X", "T").output("Y", "T");
  v.function("<parsed by the hook>", 1);
  ModelBuilder b;
  b.input("x", 1, {});
  b.node("Twice", {"x"}, {"y"}, "t");
  b.output("y");
  Model m = b.build();

  SessionOptions opts = with(*reg);
  // The default parser (core/text) is tried first, and this body is not the textual syntax.
  const std::string error = error_of([&] { Session s(m, opts); });
  CHECK(error.starts_with(
      "graph.node[0] \"t\" (Twice): the function body of Twice-1 does not parse: "));
  CHECK(error.ends_with("[exec.bad-function]"));

  int parsed = 0;
  opts.function_parser = [&](const OpVersion& op) {
    ++parsed;
    CHECK(op.function_body == "<parsed by the hook>");
    auto fn = std::make_shared<onnx::FunctionProto>();
    fn->set_name("Twice");
    fn->add_input("X");
    fn->add_output("Y");
    auto* n = fn->add_node();
    n->set_op_type("Add");
    n->add_input("X");
    n->add_input("X");
    n->add_output("Y");
    return fn;
  };
  Session s(m, opts);
  CHECK(parsed == 1);
  CHECK(values_of(s.run({{"x", Value(Tensor::scalar<float>(4))}})[0]) == std::vector<float>{8});
}

TEST_CASE("the profile times each node of the main graph") {
  auto reg = test_registry();
  Model m = add_neg_model().build();
  SessionOptions opts = with(*reg);
  opts.profile = true;
  Session s(m, opts);
  for (int i = 0; i < 3; ++i) s.run({{"x", floats({2}, {1, 2})}});
  auto p = s.profile();
  REQUIRE(p.size() == 2);
  CHECK(p[0].location == "graph.node[0] \"add\" (Add)");
  CHECK(p[0].op_type == "Add");
  CHECK(p[0].calls == 3);
  CHECK(p[1].calls == 3);
}

TEST_CASE("variadic inputs, sparse initializers and outputs that are inputs") {
  auto reg = test_registry();
  ModelBuilder b;
  b.input("x", 1, {"3"});
  auto* sp = b.graph().add_sparse_initializer();
  sp->add_dims(3);
  auto* vals = sp->mutable_values();
  vals->set_name("s");
  vals->set_data_type(1);
  vals->add_dims(1);
  vals->add_float_data(5);
  auto* idx = sp->mutable_indices();
  idx->set_data_type(7);
  idx->add_dims(1);
  idx->add_int64_data(2);
  b.node("Sum", {"x", "s", "x"}, {"y"});
  b.output("y");
  b.output("x");
  Model m = b.build();
  Session s(m, with(*reg));
  auto out = s.run({{"x", floats({3}, {1, 2, 3})}});
  CHECK(values_of(out[0]) == std::vector<float>{2, 4, 11});
  CHECK(values_of(out[1]) == std::vector<float>{1, 2, 3});
}
