// SPDX-License-Identifier: Apache-2.0
// The editable graph (core/ir/graph.h): construction, indexes, names, edits, scopes, order, and
// tensors given as views.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "core/ir/graph.h"
#include "onnx.pb.h"
#include "tests/support/builders.h"
#include "tests/unit/test_text_support.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

onnx::NodeProto make_node(const std::string& op, const std::vector<std::string>& inputs,
                          const std::vector<std::string>& outputs, const std::string& name = "") {
  onnx::NodeProto n;
  n.set_op_type(op);
  if (!name.empty()) n.set_name(name);
  for (const auto& s : inputs) n.add_input(s);
  for (const auto& s : outputs) n.add_output(s);
  return n;
}

onnx::ValueInfoProto value(const std::string& name) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  set_tensor_type(v, onnx::TensorProto::FLOAT, {"N", "4"});
  return v;
}

// X, W -> mm = MatMul(X, W) -> r = Relu(mm) -> Y = Add(r, mm)
onnx::ModelProto chain_model() {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.set_producer_name("unit");
  auto* op = m.add_opset_import();
  op->set_version(17);
  auto* g = m.mutable_graph();
  g->set_name("chain");
  *g->add_input() = value("X");
  *g->add_input() = value("W");
  *g->add_node() = make_node("MatMul", {"X", "W"}, {"mm"}, "matmul");
  *g->add_node() = make_node("Relu", {"mm"}, {"r"}, "relu");
  *g->add_node() = make_node("Add", {"r", "mm"}, {"Y"}, "add");
  *g->add_output() = value("Y");
  *g->add_initializer() = float_tensor("W", {4, 4}, std::vector<float>(16, 0.5f));
  return m;
}

// The chain, with an If after MatMul whose branches read outer values: then_branch computes
// t = Neg(mm) (a capture of mm), else_branch returns X directly.
onnx::ModelProto scoped_model() {
  onnx::ModelProto m = chain_model();
  auto* g = m.mutable_graph();
  *g->add_input() = value("cond");
  onnx::NodeProto node = make_node("If", {"cond"}, {"z"}, "if");
  auto* then_attr = node.add_attribute();
  then_attr->set_name("then_branch");
  then_attr->set_type(onnx::AttributeProto::GRAPH);
  auto* then_g = then_attr->mutable_g();
  then_g->set_name("then");
  *then_g->add_node() = make_node("Neg", {"mm"}, {"t"}, "neg");
  *then_g->add_output() = value("t");
  auto* else_attr = node.add_attribute();
  else_attr->set_name("else_branch");
  else_attr->set_type(onnx::AttributeProto::GRAPH);
  auto* else_g = else_attr->mutable_g();
  else_g->set_name("else");
  *else_g->add_output() = value("X");
  // After MatMul (index 0), before Relu.
  auto* nodes = g->mutable_node();
  *nodes->Add() = node;
  std::rotate(nodes->begin() + 1, nodes->end() - 1, nodes->end());
  *g->add_output() = value("z");
  return m;
}

std::vector<std::string> op_types(const ir::Graph& g) {
  std::vector<std::string> out;
  for (const ir::Node& n : g.nodes()) out.push_back(n.op_type());
  return out;
}

// Every index entry agrees with the nodes, and every node input and output is indexed.
void check_indexes(const ir::Graph& g) {
  for (const ir::Node& n : g.nodes()) {
    for (std::size_t i = 0; i < n.inputs().size(); ++i) {
      if (n.inputs()[i].empty()) continue;
      const auto& uses = g.uses(n.inputs()[i]);
      CHECK(std::count(uses.begin(), uses.end(), ir::Use{const_cast<ir::Node*>(&n), int(i)}) == 1);
    }
    for (std::size_t i = 0; i < n.outputs().size(); ++i) {
      int output = -1;
      CHECK(g.producer(n.outputs()[i], &output) == &n);
      CHECK(output == int(i));
    }
  }
}

ir::Node* node_named(const ir::Graph& g, const std::string& name) {
  for (ir::Node& n : g.nodes())
    if (n.name() == name) return &n;
  return nullptr;
}

}  // namespace

TEST_CASE("graph: built from a model, with producers and consumers, and back exactly") {
  const onnx::ModelProto original = chain_model();
  ir::ModelGraph model = ir::ModelGraph::from_proto(original);
  ir::Graph& g = *model.graph();
  CHECK(model.problems().empty());
  CHECK(g.name() == "chain");
  CHECK(op_types(g) == std::vector<std::string>{"MatMul", "Relu", "Add"});
  CHECK(g.inputs().size() == 2);
  CHECK(g.outputs().size() == 1);
  CHECK(g.initializers().size() == 1);
  check_indexes(g);

  ir::Node* matmul = node_named(g, "matmul");
  REQUIRE(matmul);
  CHECK(g.producer("mm") == matmul);
  CHECK(g.producer("X") == nullptr);
  const auto& uses = g.uses("mm");
  REQUIRE(uses.size() == 2);
  CHECK(std::count(uses.begin(), uses.end(), ir::Use{node_named(g, "relu"), 0}) == 1);
  CHECK(std::count(uses.begin(), uses.end(), ir::Use{node_named(g, "add"), 1}) == 1);
  CHECK(g.uses("nothing").empty());

  REQUIRE(g.find_local("X"));
  CHECK(g.find_local("X")->kind == ir::ValueKind::graph_input);
  // W is both a graph input and an initializer: the input is what a lookup finds.
  CHECK(g.find_local("W")->kind == ir::ValueKind::graph_input);
  CHECK(g.find_local("r")->kind == ir::ValueKind::node_output);
  CHECK(g.find_local("r")->node == node_named(g, "relu"));
  CHECK_FALSE(g.find_local("absent"));
  CHECK(g.is_used("mm"));
  CHECK(g.is_used("Y"));  // a graph output
  CHECK(g.index_of(*matmul) == 0);

  std::string diff;
  CHECK_MESSAGE(exactly_equal(original, model.to_proto(), &diff), diff);
}

TEST_CASE("graph: fresh names avoid every name of every scope") {
  onnx::ModelProto m = scoped_model();
  auto* fn = m.add_functions();
  fn->set_name("helper");
  fn->add_input("fn_in");
  ir::ModelGraph model = ir::ModelGraph::from_proto(m);
  CHECK(model.fresh_name("new") == "new");
  CHECK(model.fresh_name("new") == "new_1");
  CHECK(model.fresh_name("new") == "new_2");
  CHECK(model.fresh_name("mm") == "mm_1");
  CHECK(model.fresh_name("t") == "t_1");          // only a subgraph defines t
  CHECK(model.fresh_name("fn_in") == "fn_in_1");  // a function's input
  CHECK(model.fresh_name("relu") == "relu_1");    // a node name
  // Names the graph takes later are avoided too.
  ir::Graph& g = *model.graph();
  REQUIRE(g.append_node(make_node("Relu", {"Y"}, {"out_5"})));
  CHECK(g.fresh_name("out_5") == "out_5_1");
  ir::Graph& then_branch = *node_named(g, "if")->subgraphs()[0].graph;
  CHECK(then_branch.fresh_name("new") == "new_3");  // one table for the whole model
}

TEST_CASE("graph: insert, rewire, replace uses and remove keep the indexes") {
  ir::ModelGraph model = ir::ModelGraph::from_proto(chain_model());
  ir::Graph& g = *model.graph();
  ir::Node* matmul = node_named(g, "matmul");
  ir::Node* relu = node_named(g, "relu");
  ir::Node* add = node_named(g, "add");

  // Insert n = Neg(mm) right after MatMul.
  ir::Status why;
  ir::Node* neg = g.insert_node_after(*matmul, make_node("Neg", {"mm"}, {"n"}, "neg"), &why);
  REQUIRE_MESSAGE(neg, why.message());
  CHECK(op_types(g) == std::vector<std::string>{"MatMul", "Neg", "Relu", "Add"});
  CHECK(g.producer("n") == neg);
  CHECK(g.uses("mm").size() == 3);
  check_indexes(g);

  // An output already defined is refused, and nothing changes.
  CHECK_FALSE(g.append_node(make_node("Abs", {"X"}, {"r"}), &why));
  CHECK(why.message().find("already defined") != std::string::npos);
  CHECK_FALSE(g.append_node(make_node("Abs", {"X"}, {"X"}), &why));
  CHECK(g.node_count() == 4);

  // Insert before the first node; handles stay valid.
  ir::Node* first = g.insert_node_before(*matmul, make_node("Abs", {"X"}, {"ax"}, "abs"));
  REQUIRE(first);
  CHECK(g.index_of(*first) == 0);
  CHECK(g.index_of(*matmul) == 1);
  CHECK(relu->op_type() == "Relu");

  // Rewire Add's second input from mm to n.
  CHECK(g.set_node_input(*add, 1, "n"));
  CHECK(add->inputs()[1] == "n");
  CHECK(g.uses("mm").size() == 2);
  CHECK(g.uses("n").size() == 1);
  check_indexes(g);
  CHECK_FALSE(g.set_node_input(*add, 7, "n"));

  // Every read of mm now reads ax.
  CHECK(g.replace_all_uses("mm", "ax"));
  CHECK(g.uses("mm").empty());
  CHECK(g.uses("ax").size() == 2);
  CHECK(relu->inputs()[0] == "ax");
  CHECK(neg->inputs()[0] == "ax");
  CHECK_FALSE(g.is_used("mm"));
  check_indexes(g);

  // Relu's output r is still read by Add: refused until forced.
  CHECK_FALSE(g.remove_node(*relu));
  CHECK(g.node_count() == 5);
  // MatMul's output is unread now: it goes, and the maps forget it.
  CHECK(g.remove_node(*matmul));
  CHECK(g.producer("mm") == nullptr);
  CHECK(g.uses("X").size() == 1);  // only Abs reads X now
  CHECK(op_types(g) == std::vector<std::string>{"Abs", "Neg", "Relu", "Add"});
  check_indexes(g);
  CHECK(g.remove_node(*relu, ir::Graph::Removal::force));
  CHECK(g.producer("r") == nullptr);
  CHECK(g.uses("r").size() == 1);  // Add still reads it: dangling, as asked
  check_indexes(g);

  // The edited model converts back with every edit in it.
  const onnx::ModelProto back = model.to_proto();
  REQUIRE(back.graph().node_size() == 3);
  CHECK(back.graph().node(0).op_type() == "Abs");
  CHECK(back.graph().node(2).input(1) == "n");
}

TEST_CASE("graph: subgraphs resolve names through enclosing scopes") {
  const onnx::ModelProto original = scoped_model();
  ir::ModelGraph model = ir::ModelGraph::from_proto(original);
  CHECK(model.problems().empty());
  ir::Graph& g = *model.graph();
  ir::Node* if_node = node_named(g, "if");
  REQUIRE(if_node);
  REQUIRE(if_node->subgraphs().size() == 2);
  CHECK(if_node->subgraphs()[0].attribute == "then_branch");
  ir::Graph& then_branch = *if_node->subgraphs()[0].graph;
  ir::Graph& else_branch = *if_node->subgraphs()[1].graph;
  CHECK(then_branch.parent() == &g);
  CHECK(then_branch.owner_node() == if_node);

  CHECK(then_branch.outer_references() == std::vector<std::string>{"mm"});
  CHECK(else_branch.outer_references() == std::vector<std::string>{"X"});
  CHECK_FALSE(then_branch.find_local("mm"));
  REQUIRE(then_branch.resolve("mm"));
  CHECK(then_branch.resolve("mm")->graph == &g);
  CHECK(then_branch.resolve("mm")->node == node_named(g, "matmul"));
  CHECK(then_branch.resolve("t")->graph == &then_branch);
  // The If reads mm only through its branch, which still counts.
  CHECK(g.uses("mm").size() == 2);
  CHECK(g.is_used("mm"));
  CHECK(g.is_topologically_sorted());

  std::string diff;
  CHECK_MESSAGE(exactly_equal(original, model.to_proto(), &diff), diff);

  // A subgraph cannot define a name its enclosing scope already has.
  CHECK_FALSE(then_branch.append_node(make_node("Abs", {"t"}, {"r"})));

  // Replacing mm reaches the branch that captures it, and X the branch returning it directly.
  REQUIRE(g.insert_node_after(*node_named(g, "matmul"), make_node("Abs", {"mm"}, {"m2"})));
  CHECK(g.replace_all_uses("mm", "m2"));
  CHECK(then_branch.nodes().begin()->inputs()[0] == "m2");
  CHECK(then_branch.uses("m2").size() == 1);
  CHECK(then_branch.outer_references() == std::vector<std::string>{"m2"});
  CHECK(g.replace_all_uses("X", "m2"));
  CHECK(else_branch.outputs()[0].name() == "m2");
  CHECK(g.outputs()[0].name() == "Y");  // the main graph's interface is left alone

  // Renaming a value follows it into the subgraph and the graph outputs.
  CHECK(g.rename_value("Y", "result"));
  CHECK(g.outputs()[0].name() == "result");
  CHECK(g.producer("result") == node_named(g, "add"));
  CHECK(g.rename_value("m2", "m3"));
  CHECK(then_branch.nodes().begin()->inputs()[0] == "m3");
  CHECK_FALSE(g.rename_value("m3", "t"));  // t is a name in the model
  check_indexes(g);
  check_indexes(then_branch);

  // A name a reading subgraph defines itself cannot replace the captured value.
  CHECK_FALSE(g.replace_all_uses("m3", "t"));
}

TEST_CASE("graph: graph lists and captures two scopes deep") {
  // A node with a list of two graphs (attr.graphs); the first holds a node whose body (attr.g)
  // reads mm from the main graph, two scopes up, and defines its own value named like nothing
  // outside.
  onnx::ModelProto m = chain_model();
  onnx::GraphProto inner;
  inner.set_name("inner");
  *inner.add_node() = make_node("Neg", {"mm"}, {"deep"}, "deep_neg");
  *inner.add_output() = value("deep");
  onnx::GraphProto middle;
  middle.set_name("middle");
  onnx::NodeProto holder = make_node("Custom", {}, {"mid"}, "holder");
  holder.set_domain("test.domain");
  auto* body = holder.add_attribute();
  body->set_name("body");
  *body->mutable_g() = inner;
  *middle.add_node() = holder;
  *middle.add_output() = value("mid");
  onnx::GraphProto other;
  other.set_name("other");
  *other.add_output() = value("W");
  onnx::NodeProto multi = make_node("Custom", {}, {"chosen"}, "multi");
  multi.set_domain("test.domain");
  auto* branches = multi.add_attribute();
  branches->set_name("branches");
  branches->set_type(onnx::AttributeProto::GRAPHS);
  *branches->add_graphs() = middle;
  *branches->add_graphs() = other;
  *m.mutable_graph()->add_node() = multi;
  const onnx::ModelProto original = m;

  ir::ModelGraph model = ir::ModelGraph::from_proto(m);
  CHECK(model.problems().empty());
  ir::Graph& g = *model.graph();
  ir::Node* multi_node = node_named(g, "multi");
  REQUIRE(multi_node->subgraphs().size() == 2);
  CHECK(multi_node->subgraphs()[1].attribute == "branches");
  CHECK(multi_node->subgraphs()[1].list_index == 1);
  ir::Graph& mid = *multi_node->subgraphs()[0].graph;
  ir::Graph& deep = *mid.nodes().begin()->subgraphs()[0].graph;
  CHECK(deep.parent() == &mid);
  CHECK(mid.parent() == &g);
  CHECK(deep.outer_references() == std::vector<std::string>{"mm"});
  CHECK(mid.outer_references() == std::vector<std::string>{"mm"});
  CHECK(multi_node->subgraphs()[1].graph->outer_references() == std::vector<std::string>{"W"});
  CHECK(deep.resolve("mm")->graph == &g);
  CHECK(deep.resolve("mid")->graph == &mid);  // visible from the enclosing scope
  CHECK(g.fresh_name("deep") == "deep_1");

  std::string diff;
  CHECK_MESSAGE(exactly_equal(original, model.to_proto(), &diff), diff);

  // The MatMul is read two scopes down: not removable, and the reader depends on it.
  ir::Node* matmul = node_named(g, "matmul");
  CHECK_FALSE(g.remove_node(*matmul));
  CHECK(g.is_topologically_sorted());
  REQUIRE(g.append_node(make_node("Abs", {"X"}, {"fresh_mm"})));
  CHECK(g.replace_all_uses("mm", "fresh_mm"));
  CHECK(deep.nodes().begin()->inputs()[0] == "fresh_mm");
  CHECK(deep.uses("fresh_mm").size() == 1);
  // Now multi reads a value produced after it.
  CHECK_FALSE(g.is_topologically_sorted());
  CHECK(g.toposort());
  CHECK(g.index_of(*multi_node) == int(g.node_count()) - 1);
  // Nothing reads mm any more, at any depth.
  CHECK_FALSE(g.is_used("mm"));
  CHECK(g.remove_node(*matmul));
}

TEST_CASE("graph: topological order, sorting, and cycles named") {
  onnx::ModelProto m = chain_model();
  auto* nodes = m.mutable_graph()->mutable_node();
  // Add, Relu, MatMul: every node before what it reads.
  nodes->SwapElements(0, 2);
  ir::ModelGraph model = ir::ModelGraph::from_proto(m);
  ir::Graph& g = *model.graph();
  CHECK_FALSE(g.is_topologically_sorted());
  std::vector<ir::Node*> cycle;
  ir::Node* add = node_named(g, "add");
  CHECK(g.toposort(&cycle));
  CHECK(cycle.empty());
  CHECK(op_types(g) == std::vector<std::string>{"MatMul", "Relu", "Add"});
  CHECK(g.is_topologically_sorted());
  CHECK(node_named(g, "add") == add);  // handles survive the reordering
  check_indexes(g);

  // A sorted graph keeps its order (unrelated nodes are not shuffled).
  REQUIRE(g.insert_node_before(*node_named(g, "matmul"), make_node("Abs", {"X"}, {"a"}, "abs")));
  CHECK(g.toposort());
  CHECK(op_types(g) == std::vector<std::string>{"Abs", "MatMul", "Relu", "Add"});

  // A capture by a subgraph is a dependency too.
  onnx::ModelProto scoped = scoped_model();
  auto* snodes = scoped.mutable_graph()->mutable_node();
  snodes->SwapElements(0, 1);  // If before the MatMul its branch reads
  ir::ModelGraph scoped_graph = ir::ModelGraph::from_proto(scoped);
  CHECK_FALSE(scoped_graph.graph()->is_topologically_sorted());
  CHECK(scoped_graph.graph()->toposort());
  CHECK(op_types(*scoped_graph.graph()) == std::vector<std::string>{"MatMul", "If", "Relu", "Add"});

  // p = Relu(q), q = Relu(p): a cycle, reported with its nodes; the order stays as it was.
  ir::Node* p = g.append_node(make_node("Relu", {"q"}, {"p"}, "p_node"));
  ir::Node* q = g.append_node(make_node("Relu", {"p"}, {"q"}, "q_node"));
  REQUIRE(p);
  REQUIRE(q);
  g.append_node(make_node("Relu", {"p"}, {"after"}, "after_node"));
  CHECK_FALSE(g.is_topologically_sorted());
  const auto before = op_types(g);
  const ir::Status s = g.toposort(&cycle);
  CHECK_FALSE(s);
  CHECK(s.message().find("cycle") != std::string::npos);
  CHECK(s.message().find("\"p_node\"") != std::string::npos);
  CHECK(s.message().find("\"q_node\"") != std::string::npos);
  CHECK(s.message().find("after_node") == std::string::npos);
  REQUIRE(cycle.size() == 2);
  CHECK(std::count(cycle.begin(), cycle.end(), p) == 1);
  CHECK(std::count(cycle.begin(), cycle.end(), q) == 1);
  CHECK(op_types(g) == before);

  // A node reading its own output is a cycle of one.
  ir::ModelGraph self = ir::ModelGraph::from_proto(chain_model());
  ir::Graph& sg = *self.graph();
  REQUIRE(sg.append_node(make_node("Relu", {"loop"}, {"loop"}, "self")));
  CHECK_FALSE(sg.toposort(&cycle));
  REQUIRE(cycle.size() == 1);
  CHECK(cycle[0]->name() == "self");
}

TEST_CASE("graph: tensors given as views are written back only by to_proto") {
  ir::ModelGraph model = ir::ModelGraph::from_proto(chain_model());
  ir::Graph& g = *model.graph();

  // The stored initializer decodes as a view of its raw_data, not a copy.
  const auto w = g.initializer_tensor("W");
  REQUIRE(w);
  CHECK(w->is_view());
  CHECK(w->shape() == Shape{4, 4});
  CHECK(reinterpret_cast<const char*>(w->raw()) == g.initializer("W")->proto->raw_data().data());
  CHECK(w->data<float>()[5] == 0.5f);

  // Weights held elsewhere (as a mapped external file would be), wrapped without a copy.
  auto bytes = std::make_shared<std::vector<float>>(std::vector<float>{1, 2, 3, 4});
  auto storage = Storage::view(bytes->data(), bytes->size() * sizeof(float), bytes);
  const Tensor view = Tensor::wrap(DataType::float32, {2, 2}, storage);
  REQUIRE(view.is_view());
  CHECK(g.add_initializer("B", view));
  CHECK_FALSE(g.add_initializer("B", view));  // once only
  CHECK(g.initializer_tensor("B")->raw() == view.raw());
  CHECK(g.find_local("B")->kind == ir::ValueKind::initializer);

  // A constant node whose value is the view.
  ir::Node* c = g.append_node(make_node("Constant", {}, {"c"}, "const"));
  REQUIRE(c);
  CHECK(c->set_attribute_tensor("value", view));
  CHECK_FALSE(c->set_attribute_tensor("other", Tensor()));
  CHECK(c->proto().attribute_size() == 1);
  CHECK(c->attribute_tensor("value")->raw() == view.raw());
  CHECK(c->proto().attribute(0).name() == "value");
  CHECK_FALSE(c->proto().attribute(0).has_t());  // not encoded until to_proto

  // Replacing W's contents keeps its name and stored header.
  CHECK(g.set_initializer("W", view));
  CHECK_FALSE(g.set_initializer("absent", view));

  const onnx::ModelProto back = model.to_proto();
  const auto& inits = back.graph().initializer();
  REQUIRE(inits.size() == 2);
  CHECK(inits[0].name() == "W");
  CHECK(inits[0].dims_size() == 2);
  CHECK(inits[1].name() == "B");
  CHECK(inits[1].data_type() == onnx::TensorProto::FLOAT);
  REQUIRE(inits[1].raw_data().size() == 16);
  CHECK(std::memcmp(inits[1].raw_data().data(), bytes->data(), 16) == 0);
  const auto& constant = back.graph().node(3);
  REQUIRE(constant.attribute_size() == 1);
  CHECK(constant.attribute(0).type() == onnx::AttributeProto::TENSOR);
  CHECK(constant.attribute(0).t().raw_data() == inits[1].raw_data());

  CHECK(g.remove_initializer("B"));
  CHECK_FALSE(g.remove_initializer("B"));
  CHECK_FALSE(g.find_local("B"));

  // W stops being an input and stays an initializer; inputs are unique and never node outputs.
  CHECK(g.remove_input("W"));
  CHECK_FALSE(g.remove_input("W"));
  CHECK(g.find_local("W")->kind == ir::ValueKind::initializer);
  CHECK_FALSE(g.add_input(value("X")));
  CHECK_FALSE(g.add_input(value("r")));
  CHECK(g.add_input(value("extra")));
  CHECK(g.find_local("extra")->kind == ir::ValueKind::graph_input);
  CHECK(g.fresh_name("extra") == "extra_1");
}

TEST_CASE("graph: bad input is reported, not fatal, and still round-trips") {
  onnx::ModelProto m = chain_model();
  auto* g = m.mutable_graph();
  *g->add_node() = make_node("Relu", {"X"}, {"r"}, "again");         // r produced twice
  *g->add_node() = make_node("Relu", {"missing"}, {"u"}, "reader");  // an undefined name
  *g->add_node() = make_node("Relu", {"X"}, {"W"}, "over_init");     // produces an initializer
  g->add_initializer();                                              // no name
  ir::ModelGraph model = ir::ModelGraph::from_proto(m);
  const auto problems = model.problems();
  auto count = [&](const std::string& rule) {
    return std::count_if(problems.begin(), problems.end(),
                         [&](const Diagnostic& d) { return d.rule == rule; });
  };
  CHECK(count("ir.duplicate-producer") == 2);
  CHECK(count("ir.undefined-value") == 1);
  CHECK(count("ir.missing-name") == 1);
  for (const auto& d : problems) CHECK(d.location.rfind("graph.", 0) == 0);
  // The first producer is the one the map gives.
  CHECK(model.graph()->producer("r") == node_named(*model.graph(), "relu"));
  std::string diff;
  CHECK_MESSAGE(exactly_equal(m, model.to_proto(), &diff), diff);

  // A model without a graph, and an empty one.
  onnx::ModelProto empty;
  ir::ModelGraph none = ir::ModelGraph::from_proto(empty);
  CHECK(none.graph() == nullptr);
  CHECK(none.fresh_name("x") == "x");
  CHECK(exactly_equal(empty, none.to_proto()));
  empty.mutable_graph();
  CHECK(exactly_equal(empty, ir::ModelGraph::from_proto(empty).to_proto()));
}

TEST_CASE("graph: fields it does not model survive, unknown ones included") {
  onnx::ModelProto m = scoped_model();
  m.mutable_graph()->set_doc_string("doc");
  auto* kv = m.mutable_graph()->add_metadata_props();
  kv->set_key("k");
  kv->set_value("v");
  m.mutable_graph()->mutable_node(0)->set_doc_string("node doc");
  m.mutable_graph()->mutable_node(0)->set_domain("");  // present though empty
  m.mutable_graph()->mutable_node(1)->add_output("");  // an unused optional output
  // Unknown fields at model, graph, node and attribute level.
  m.mutable_unknown_fields()->AddVarint(127, 1);
  m.mutable_graph()->mutable_unknown_fields()->AddVarint(127, 2);
  m.mutable_graph()->mutable_node(1)->mutable_unknown_fields()->AddVarint(127, 3);
  m.mutable_graph()->mutable_node(1)->mutable_attribute(0)->mutable_unknown_fields()->AddVarint(127,
                                                                                                4);
  onnx::ModelProto parsed;
  REQUIRE(parsed.ParseFromString(serialize(m)));
  ir::ModelGraph model = ir::ModelGraph::from_proto(parsed);
  CHECK(model.graph()->doc_string() == "doc");
  CHECK(model.graph()->nodes().begin()->proto().has_domain());
  const onnx::ModelProto back = model.to_proto();
  std::string diff;
  CHECK_MESSAGE(exactly_equal(parsed, back, &diff), diff);
  CHECK(serialize(back) == serialize(parsed));
}

TEST_CASE("graph: a view refers to the stored model and copies a node only when it is edited") {
  onnx::ModelProto m = scoped_model();
  m.mutable_unknown_fields()->AddVarint(127, 1);
  m.mutable_graph()->set_doc_string("doc");
  auto stored = std::make_shared<const onnx::ModelProto>(m);
  ir::ModelGraph model = ir::ModelGraph::view(stored);
  ir::Graph& g = *model.graph();
  CHECK(model.problems().empty());
  CHECK(g.origin() == &stored->graph());
  CHECK(g.doc_string() == "doc");
  check_indexes(g);

  // Weights and nodes are the stored ones, not copies.
  REQUIRE(g.initializers().size() == 1);
  CHECK(g.initializers()[0].proto.get() == &stored->graph().initializer(0));
  ir::Node* matmul = node_named(g, "matmul");
  ir::Node* if_node = node_named(g, "if");
  REQUIRE(matmul);
  REQUIRE(if_node);
  CHECK(matmul->origin() == &stored->graph().node(0));
  CHECK(&matmul->proto() == matmul->origin());
  REQUIRE(if_node->subgraphs().size() == 2);
  ir::Graph& then_g = *if_node->subgraphs()[0].graph;
  CHECK(then_g.origin() == &stored->graph().node(1).attribute(0).g());
  CHECK(then_g.resolve("mm")->node == matmul);
  std::string diff;
  CHECK_MESSAGE(exactly_equal(m, model.to_proto(), &diff), diff);

  // Editing a node gives it a proto of its own; the stored model does not change.
  ir::Node* relu = node_named(g, "relu");
  REQUIRE(relu);
  CHECK(g.set_node_input(*relu, 0, "X"));
  CHECK(relu->origin() == nullptr);
  CHECK(relu->proto().input_size() == 0);  // inputs live in inputs() once detached
  CHECK(relu->inputs() == std::vector<std::string>{"X"});
  CHECK(stored->graph().node(2).input(0) == "mm");
  CHECK(matmul->origin() != nullptr);  // untouched
  matmul->mutable_proto().set_doc_string("edited");
  CHECK(matmul->origin() == nullptr);
  CHECK(stored->graph().node(0).doc_string().empty());

  // Editing inside a subgraph keeps its owner's origin; changing its interface does not.
  ir::Node* neg = node_named(then_g, "neg");
  REQUIRE(neg);
  CHECK(neg->origin() != nullptr);
  CHECK(then_g.set_node_input(*neg, 0, "X"));
  CHECK(if_node->origin() != nullptr);
  then_g.add_output(value("X"));
  CHECK(if_node->origin() == nullptr);

  const onnx::ModelProto back = model.to_proto();
  CHECK(back.graph().node(2).input(0) == "X");
  CHECK(back.graph().node(0).doc_string() == "edited");
  CHECK(back.graph().node(1).attribute(0).g().node(0).input(0) == "X");
  CHECK(back.graph().node(1).attribute(0).g().output_size() == 2);
  CHECK(back.graph().node(1).attribute(1).g().output_size() == 1);
  CHECK(back.graph().node(1).input(0) == "cond");
  CHECK(stored->graph().node(1).attribute(0).g().output_size() == 1);

  // A view keeps the stored model alive.
  std::weak_ptr<const onnx::ModelProto> weak = stored;
  stored.reset();
  CHECK_FALSE(weak.expired());
}

TEST_CASE("graph: a subgraph viewed on its own, with its captures left to the caller") {
  const onnx::ModelProto m = scoped_model();
  const onnx::GraphProto& then_branch = m.graph().node(1).attribute(0).g();
  auto g = ir::Graph::view(then_branch);
  CHECK(g->origin() == &then_branch);
  CHECK(g->outer_references() == std::vector<std::string>{"mm"});
  CHECK(g->problems().empty());
  std::string diff;
  CHECK_MESSAGE(exactly_equal(then_branch, g->to_proto(), &diff), diff);
}

TEST_CASE("graph: a view keeps every field of the stored graph and model it does not decompose") {
  // The view copies the other fields one by one (graph.cpp: copy_graph_shell,
  // copy_model_header); a field added to onnx.proto must be added there too.
  CHECK(onnx::ModelProto::descriptor()->field_count() == 12);
  CHECK(onnx::GraphProto::descriptor()->field_count() == 10);
  onnx::ModelProto m = scoped_model();
  m.set_domain("d");
  m.set_model_version(3);
  m.set_producer_version("1");
  m.set_doc_string("model doc");
  auto* kv = m.add_metadata_props();
  kv->set_key("k");
  m.add_functions()->set_name("f");
  m.add_training_info();
  m.add_configuration()->set_name("c");
  m.mutable_graph()->add_quantization_annotation()->set_tensor_name("mm");
  m.mutable_graph()->add_metadata_props()->set_key("gk");
  m.mutable_graph()->mutable_unknown_fields()->AddVarint(99, 7);
  const auto stored = std::make_shared<const onnx::ModelProto>(m);
  std::string diff;
  CHECK_MESSAGE(exactly_equal(m, ir::ModelGraph::view(stored).to_proto(), &diff), diff);
}
