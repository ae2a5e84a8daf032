// SPDX-License-Identifier: Apache-2.0
// Passes over the editable graph (core/passes/pass.h) and the executor's first one,
// fold-constants (core/exec/passes/fold_constants.h): switched by name, reporting what they
// changed, and computing the same outputs switched on and off.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/diag/error.h"
#include "core/exec/passes/fold_constants.h"
#include "core/exec/planner.h"
#include "core/exec/runner.h"
#include "core/exec/session.h"
#include "core/exec/thread_pool.h"
#include "core/ir/graph.h"
#include "core/passes/pass.h"
#include "onnx.pb.h"
#include "tests/unit/test_exec_util.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

// Renames every node's doc_string to say it was seen: a pass whose effect is easy to observe.
class Stamp final : public Pass {
 public:
  explicit Stamp(std::string name) : name_(std::move(name)) {}
  std::string name() const override { return name_; }
  PassReport run(ir::ModelGraph& model, const PassContext&) override {
    PassReport r;
    for (ir::Node& n : model.graph()->nodes()) {
      n.mutable_proto().set_doc_string(n.proto().doc_string() + name_ + ";");
      ++r.changes;
    }
    r.summary = "stamped " + std::to_string(r.changes);
    return r;
  }

 private:
  std::string name_;
};

SessionOptions with(const Registry& r) {
  SessionOptions o;
  o.registry = &r;
  o.threads = 2;
  return o;
}

// y = 2 (x + -w) with w an initializer, and a second output -c with c a Const node: two
// constant chains, one of them a graph output.
Model constant_chains() {
  ModelBuilder b;
  b.input("x", 1, {"2"});
  b.initializer("w", {2}, {10, 20});
  auto& c = b.node("Const", {}, {"c"}, "const");
  set_attr(c, "value", 3.0f);
  b.node("Neg", {"c"}, {"nc"}, "neg_c");
  b.node("Neg", {"w"}, {"nw"}, "neg_w");
  b.node("Add", {"x", "nw"}, {"s"}, "add_w");
  b.node("Sum", {"s", "s"}, {"y"}, "sum");
  b.output("y", 1, {"2"});
  b.output("nc", 1, {});
  return b.build();
}

}  // namespace

TEST_CASE("a pipeline runs its passes in order, each switchable by name") {
  ModelBuilder b;
  b.input("x", 1, {"2"});
  b.node("Neg", {"x"}, {"y"}, "neg");
  b.output("y", 1, {"2"});
  const Model m = b.build();
  ir::ModelGraph graph = ir::ModelGraph::view(m.proto);

  PassPipeline pipeline;
  pipeline.add(std::make_unique<Stamp>("first")).add(std::make_unique<Stamp>("second"));
  CHECK(pipeline.names() == std::vector<std::string>{"first", "second"});
  CHECK(pipeline.set_enabled("second", false));
  CHECK_FALSE(pipeline.set_enabled("third", false));
  CHECK_FALSE(pipeline.enabled("second"));
  CHECK(pipeline.find("first") != nullptr);
  CHECK(pipeline.find("third") == nullptr);

  const auto records = pipeline.run(graph, PassContext{});
  REQUIRE(records.size() == 2);
  CHECK(records[0].ran);
  CHECK(records[0].report.changes == 1);
  CHECK(records[0].report.summary == "stamped 1");
  CHECK_FALSE(records[1].ran);
  CHECK(graph.graph()->nodes().begin()->proto().doc_string() == "first;");
  // The stored model is untouched: the edited node has a proto of its own.
  CHECK(m.proto->graph().node(0).doc_string().empty());

  pipeline.set_enabled("second", true);
  pipeline.run(graph, PassContext{});
  CHECK(graph.graph()->nodes().begin()->proto().doc_string() == "first;first;second;");
}

TEST_CASE("fold-constants turns what constants compute into initializers of the graph") {
  auto reg = test_registry();
  const Model m = constant_chains();
  SessionOptions options = with(*reg);
  SessionStats stats;
  ThreadPool pool(1);
  exec_detail::Runner runner(pool, "test.onnx");
  exec_detail::PlanContext ctx{m, *reg, options, runner, stats, {}, {}, {}, 0};
  ir::ModelGraph graph = ir::ModelGraph::view(m.proto);
  exec_detail::FoldConstants fold(ctx);
  const PassReport report = fold.run(graph, PassContext{});

  CHECK(report.changes == 3);  // Const, and both Negs
  CHECK(report.summary == "3 nodes folded into constants (16 B)");
  CHECK(stats.folded_nodes == 3);
  ir::Graph& g = *graph.graph();
  std::vector<std::string> left;
  for (const ir::Node& n : g.nodes()) left.push_back(n.name());
  CHECK(left == std::vector<std::string>{"add_w", "sum"});
  // The nodes that stay are still the stored ones.
  for (const ir::Node& n : g.nodes()) CHECK(n.origin() != nullptr);
  REQUIRE(g.initializer("nw"));
  CHECK(values_of(*g.initializer_tensor("nw")) == std::vector<float>{-10, -20});
  CHECK(values_of(*g.initializer_tensor("nc")) == std::vector<float>{-3});
  CHECK_FALSE(g.initializer("c") == nullptr);  // the Const's output, kept: nc was made from it
  CHECK(g.find_local("nc")->kind == ir::ValueKind::initializer);
}

TEST_CASE("fold-constants on and off: the same outputs, fewer nodes run") {
  auto reg = test_registry();
  const Model m = constant_chains();
  Session folded(m, with(*reg));
  SessionOptions off = with(*reg);
  off.disabled_passes = {"fold-constants"};
  Session unfolded(m, off);
  CHECK(folded.stats().folded_nodes == 3);
  CHECK(folded.stats().nodes == 2);
  CHECK(unfolded.stats().folded_nodes == 0);
  CHECK(unfolded.stats().nodes == 5);
  const Value x = floats({2}, {1, 2});
  const auto a = folded.run({{"x", x}});
  const auto b = unfolded.run({{"x", x}});
  CHECK(values_of(a[0]) == std::vector<float>{-18, -36});
  CHECK(values_of(a[1]) == std::vector<float>{-3});
  CHECK(values_of(a[0]) == values_of(b[0]));
  CHECK(values_of(a[1]) == values_of(b[1]));
}

TEST_CASE("fold-constants folds inside subgraphs, seeing the enclosing constants") {
  auto reg = test_registry();
  ModelBuilder b(16);
  b.input("cond", 9, {});
  b.input("x", 1, {"2"});
  b.initializer("w", {2}, {1, 2});
  onnx::GraphProto then_g;
  then_g.set_name("then");
  ModelBuilder::add_node(then_g, "Neg", {"w"}, {"nw"}, "neg_outer_w");  // constant: folded
  ModelBuilder::add_node(then_g, "Add", {"x", "nw"}, {"t"}, "add");
  ModelBuilder::set_type(*then_g.add_output(), 1, {"2"});
  then_g.mutable_output(0)->set_name("t");
  onnx::GraphProto else_g;
  else_g.set_name("else");
  ModelBuilder::add_node(else_g, "Neg", {"x"}, {"e"}, "neg_x");  // reads an input: runs
  ModelBuilder::set_type(*else_g.add_output(), 1, {"2"});
  else_g.mutable_output(0)->set_name("e");
  auto& if_node = b.node("If", {"cond"}, {"y"}, "if");
  set_attr(if_node, "then_branch", then_g);
  set_attr(if_node, "else_branch", else_g);
  b.output("y", 1, {"2"});
  const Model m = b.build();

  Session folded(m, with(*reg));
  SessionOptions off = with(*reg);
  off.fold_constants = false;
  Session unfolded(m, off);
  CHECK(folded.stats().folded_nodes == 1);
  CHECK(unfolded.stats().folded_nodes == 0);
  for (bool c : {true, false}) {
    const std::vector<std::pair<std::string, Value>> feeds = {
        {"cond", Value(Tensor::scalar<bool>(c))}, {"x", floats({2}, {5, 7})}};
    const auto a = values_of(folded.run(feeds)[0]);
    CHECK(a == (c ? std::vector<float>{4, 5} : std::vector<float>{-5, -7}));
    CHECK(a == values_of(unfolded.run(feeds)[0]));
  }
}

TEST_CASE("an executor pass that does not exist is a usage error naming the passes") {
  auto reg = test_registry();
  const Model m = constant_chains();
  SessionOptions o = with(*reg);
  o.disabled_passes = {"fuse-everything"};
  try {
    Session s(m, o);
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.kind() == ErrorKind::usage);
    CHECK(e.message() ==
          "no executor pass named \"fuse-everything\"; the passes are fuse-dequantized, "
          "fold-constants, widen-float16, cancel-transposes, fuse-channel-affine, "
          "fuse-scaled-output, "
          "fuse-residual, fuse-epilogue, fuse-input-transform, fuse-elementwise, "
          "channels-last, assemble-concat");
  }
  CHECK(executor_pass_names() ==
        std::vector<std::string>{"fuse-dequantized", "fold-constants", "widen-float16",
                                 "cancel-transposes", "fuse-channel-affine", "fuse-scaled-output",
                                 "fuse-residual", "fuse-epilogue", "fuse-input-transform",
                                 "fuse-elementwise", "channels-last", "assemble-concat"});
}

TEST_CASE("after folding, messages still name a node by its place in the stored model") {
  auto reg = test_registry();
  ModelBuilder b;
  b.input("x", 1, {"1"});
  auto& c = b.node("Const", {}, {"c"}, "const");  // node[0]: folded
  set_attr(c, "value", 3.0f);
  b.node("Neg", {"c"}, {"nc"}, "neg");  // node[1]: folded
  b.node("Fail", {"x"}, {"y"}, "bad");  // node[2]: the first node planned
  b.output("y");
  const Model m = b.build();
  Session s(m, with(*reg));
  CHECK(s.stats().folded_nodes == 2);
  try {
    s.run({{"x", floats({1}, {1})}});
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.location() == "graph.node[2] \"bad\" (Fail)");
  }
  REQUIRE(s.profile().size() == 1);
  CHECK(s.profile()[0].location == "graph.node[2] \"bad\" (Fail)");
}
