// SPDX-License-Identifier: Apache-2.0
// Graphs whose nodes are listed out of order (real exports do this): the order by data
// (core/ir/order.h), `run` following it with one warning, `convert --toposort` writing the model
// sorted, shape inference typing every value, and a real cycle refused with its nodes named.
#include <doctest/doctest.h>

#include <algorithm>
#include <memory>
#include <string>

#include "core/check/check.h"
#include "core/exec/session.h"
#include "core/infer/engine.h"
#include "core/ir/order.h"
#include "core/model/model.h"
#include "core/text/parser.h"
#include "onnx.pb.h"
#include "tests/support/support.h"
#include "tests/unit/test_exec_util.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

// Every reader before its producer: in the main graph, through an If branch's capture, and in
// a function body.
const char* kUnsorted = R"(
<ir_version: 8, opset_import: ["" : 13, "local" : 1]>
g (float[2] x, bool c) => (float[2] y, float[2] z) {
  [last] y = Add (a, b)
  [branch] z = If (c) <then_branch = g1 () => (float[2] t) { t = Neg (b) },
                       else_branch = g2 () => (float[2] e) { e = Identity (a) }>
  [mid] b = local.Twice (a)
  [first] a = Relu (x)
}
<domain: "local", opset_import: ["" : 13]>
Twice (u) => (v) {
  v = Add (w, w)
  w = Identity (u)
}
)";

// p reads c, which r computes from b, which q computes from p's a.
const char* kCycle = R"(
<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) {
  [p] a = Add (x, c)
  [q] b = Relu (a)
  [r] c = Neg (b)
  [s] y = Relu (x)
}
)";

std::shared_ptr<onnx::ModelProto> parse(const std::string& text) {
  auto proto = std::make_shared<onnx::ModelProto>();
  text::parse_model_text(text, *proto);
  return proto;
}

std::vector<std::string> node_names(const onnx::GraphProto& g) {
  std::vector<std::string> names;
  for (const auto& n : g.node()) names.push_back(n.name());
  return names;
}

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

std::size_t error_count(const onnx::ModelProto& m) {
  DiagSink sink;
  check_model(m, {}, sink);
  return sink.errors();
}

}  // namespace

TEST_CASE("the order by data keeps a sorted list and puts producers first in another") {
  // 0 reads 2, 2 reads 1: 1, 2, 0. Ties go to the earliest listed.
  CHECK(order_by_dependencies({{2}, {}, {1}}).order == std::vector<int>{1, 2, 0});
  CHECK(order_by_dependencies({{}, {0}, {0, 1}, {}}).order == std::vector<int>{0, 1, 2, 3});
  // A cycle 0 -> 1 -> 0 beside a free node: no order, the cycle producers first.
  const DependencyOrder cyc = order_by_dependencies({{1}, {0}, {}});
  CHECK_FALSE(cyc.sorted());
  CHECK(cyc.order.empty());
  CHECK(cyc.cycle.size() == 2);
  // A node reading its own output is a cycle of one.
  CHECK(order_by_dependencies({{0}}).cycle == std::vector<int>{0});
}

TEST_CASE("sort_model_nodes sorts graphs and function bodies in place, subgraph captures too") {
  auto proto = parse(kUnsorted);
  const auto& g = proto->graph();
  CHECK(late_readers(g.node()) == 3);
  const NodeSortReport r = sort_model_nodes(*proto);
  CHECK(r.cycles.empty());
  CHECK(r.graphs_reordered == 2);  // the main graph and the function body
  CHECK(r.late_readers == 4);
  CHECK(r.first_late == "graph.node[0] \"last\" (Add)");
  CHECK(node_names(g) == std::vector<std::string>{"first", "mid", "last", "branch"});
  CHECK(late_readers(g.node()) == 0);
  CHECK(late_readers(proto->functions(0).node()) == 0);
  CHECK(proto->functions(0).node(0).op_type() == "Identity");
  // What was sorted stays as it is, and the checker finds nothing left to say.
  CHECK(sort_model_nodes(*proto).graphs_reordered == 0);
  CHECK(error_count(*proto) == 0);
  // Each late read once: last reads a and b, each branch one, mid a, and the body's Add reads
  // w (twice, one line).
  CHECK(error_count(*parse(kUnsorted)) == 6);
}

TEST_CASE("sort_model_nodes leaves a list with a cycle as it is and names the cycle") {
  auto proto = parse(kCycle);
  const NodeSortReport r = sort_model_nodes(*proto);
  REQUIRE(r.cycles.size() == 1);
  CHECK(r.cycles[0] ==
        "graph.node[1] \"q\" (Relu) -> graph.node[2] \"r\" (Neg) -> graph.node[0] \"p\" (Add) -> "
        "graph.node[1] \"q\" (Relu)");
  CHECK(node_names(proto->graph()) == std::vector<std::string>{"p", "q", "r", "s"});
}

TEST_CASE("shape inference types every value of an unsorted graph") {
  const Model m = model_from_proto(parse(kUnsorted), "unsorted.onnx", ".");
  DiagSink sink;
  const InferResult r = infer_model(m, {}, sink);
  for (std::string name : {"a", "b", "y", "z"}) {
    CAPTURE(name);
    const ValueRecord* v = r.find(name);
    REQUIRE(v != nullptr);
    CHECK(v->type.to_string() == "float[2]");
  }
}

TEST_CASE("a session runs an unsorted graph by its data, with one warning, and as sorted") {
  const Model unsorted = model_from_proto(parse(kUnsorted), "unsorted.onnx", ".");
  auto sorted_proto = parse(kUnsorted);
  (void)sort_model_nodes(*sorted_proto);
  const Model sorted = model_from_proto(sorted_proto, "sorted.onnx", ".");
  for (int threads : {1, 2}) {
    for (bool branch : {true, false}) {
      CAPTURE(threads);
      CAPTURE(branch);
      SessionOptions o;
      o.threads = threads;
      Session a(unsorted, o), b(sorted, o);
      REQUIRE(a.warnings().size() == 1);
      CHECK(a.warnings()[0].rule == "exec.not-topological");
      CHECK(a.warnings()[0].location == "graph.node[0] \"last\" (Add)");
      CHECK(contains(a.warnings()[0].message, "3 nodes read a value that a later node produces"));
      CHECK(b.warnings().empty());
      Tensor c(DataType::boolean, {});
      c.mutable_data<bool>()[0] = branch;
      const std::vector<std::pair<std::string, Value>> feeds = {{"x", floats({2}, {-1, 2})},
                                                                {"c", Value(c)}};
      const auto got = a.run(feeds), want = b.run(feeds);
      REQUIRE(got.size() == 2);
      // a = [0, 2], b = 2a = [0, 4]: y = a + b, z = -b or a.
      CHECK(values_of(got[0]) == std::vector<float>{0, 6});
      CHECK(values_of(got[1]) ==
            (branch ? std::vector<float>{-0.0f, -4} : std::vector<float>{0, 2}));
      CHECK(values_of(got[0]) == values_of(want[0]));
      CHECK(values_of(got[1]) == values_of(want[1]));
    }
  }
}

TEST_CASE("a session refuses a cycle, naming its nodes") {
  const Model m = model_from_proto(parse(kCycle), "cycle.onnx", ".");
  try {
    Session s(m);
    FAIL("planning should fail");
  } catch (const PlanError& e) {
    REQUIRE(e.problems().size() == 1);
    CHECK(e.problems()[0].rule == "exec.cycle");
    CHECK(e.problems()[0].message ==
          "nodes depend on each other in a cycle: graph.node[1] \"q\" (Relu) -> graph.node[2] "
          "\"r\" (Neg) -> graph.node[0] \"p\" (Add) -> graph.node[1] \"q\" (Relu)");
  }
}

TEST_CASE("onnxtool run and convert --toposort on unsorted and cyclic models") {
  TempDir dir;
  write_file(dir / "u.onnxtxt", kUnsorted);
  write_file(dir / "cycle.onnxtxt", kCycle);
  auto r = run_onnxtool({"run", "u.onnxtxt", "--random-inputs", "--npz", "u.npz"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(contains(r.err, "[exec.not-topological]"));
  r = run_onnxtool({"convert", "u.onnxtxt", "s.onnx", "--toposort"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(run_onnxtool({"check", "u.onnxtxt"}, "", dir.path()).exit_code == 1);
  CHECK(run_onnxtool({"check", "s.onnx"}, "", dir.path()).exit_code == 0);
  r = run_onnxtool({"run", "s.onnx", "--random-inputs", "--npz", "s.npz"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK_FALSE(contains(r.err, "exec.not-topological"));
  CHECK(read_file(dir / "u.npz") == read_file(dir / "s.npz"));

  r = run_onnxtool({"run", "cycle.onnxtxt", "--random-inputs"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "cycle: graph.node[1] \"q\" (Relu) -> graph.node[2] \"r\" (Neg)"));
  CHECK(contains(r.err, "[exec.cycle]"));
  r = run_onnxtool({"convert", "cycle.onnxtxt", "c.onnx", "--toposort"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "[convert.cycle]"));
  CHECK_FALSE(std::filesystem::exists(dir / "c.onnx"));
}
