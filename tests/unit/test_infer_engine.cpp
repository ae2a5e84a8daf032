// SPDX-License-Identifier: Apache-2.0
// The inference engine on small models, with a registry local to the test: operators defined
// here (with and without inference) plus the engine-bound ones from ops/ (Shape, Size,
// Constant, ConstantOfShape, If, Loop, Scan).
#include <doctest/doctest.h>

#include <chrono>
#include <memory>

#include "core/diag/error.h"
#include "core/infer/engine.h"
#include "core/infer/helpers.h"
#include "core/ir/type_text.h"
#include "core/model/model.h"
#include "core/registry/registry.h"
#include "onnx.pb.h"
#include "tests/support/builders.h"

namespace onnxtool::ops {
void define_Shape(OpDef& op);
void define_Size(OpDef& op);
void define_Constant(OpDef& op);
void define_ConstantOfShape(OpDef& op);
void define_If(OpDef& op);
void define_Loop(OpDef& op);
void define_Scan(OpDef& op);
}  // namespace onnxtool::ops

using namespace onnxtool;

namespace {

constexpr int32_t kFloat = 1, kInt64 = 7, kBool = 9;
const std::vector<std::string> kNumeric{"tensor(float)", "tensor(int64)", "tensor(int32)"};

// Reshape as its file will do it: the target from the shape input's values.
void infer_reshape(InferContext& ctx) {
  auto target = input_dims_values(ctx, 1);
  const Type& data = ctx.input_type(0);
  if (!target) {
    const Type& s = ctx.input_type(1);
    set_output_tensor(
        ctx, 0, data.elem,
        s.has_shape() && (*s.shape)[0].is_known()
            ? std::optional<Dims>(Dims(static_cast<std::size_t>((*s.shape)[0].value())))
            : std::nullopt);
    return;
  }
  set_output_tensor(ctx, 0, data.elem, reshape_shape(data.shape, *target));
}

// NonZero: the count of non-zeros is only known at run time.
void infer_nonzero(InferContext& ctx) {
  set_output_tensor(ctx, 0, kInt64, Dims{Dim::value(ctx.input_type(0).rank()), Dim()});
  ctx.explain(0, "the number of non-zero elements depends on the input's values");
}

// Two inputs of one shape (exercises ctx.unify_dims and symbol binding).
void infer_same(InferContext& ctx) {
  const Type& a = ctx.input_type(0);
  const Type& b = ctx.input_type(1);
  if (!a.shape || !b.shape || a.shape->size() != b.shape->size()) return;
  Dims out;
  for (std::size_t i = 0; i < a.shape->size(); ++i)
    out.push_back(ctx.unify_dims((*a.shape)[i], (*b.shape)[i], "dim " + std::to_string(i)));
  set_output_tensor(ctx, 0, a.elem, out);
}

const Registry& test_registry() {
  static const Registry* r = [] {
    auto* reg = new Registry();
    reg->add("", "Relu")
        .since(1)
        .input("X", "T")
        .output("Y", "T")
        .constraint("T", kNumeric)
        .infer(same_as_input());
    reg->add("", "Add")
        .since(1)
        .input("A", "T")
        .input("B", "T")
        .output("C", "T")
        .constraint("T", kNumeric)
        .infer(broadcast_elementwise('+'));
    reg->add("", "Mystery")
        .since(1)
        .input("X", "T")
        .output("Y", "T")
        .output("I", "I")
        .constraint("T", kNumeric)
        .constraint("I", {"tensor(int64)"});
    reg->add("", "Reshape")
        .since(1)
        .input("data", "T")
        .input("shape", "tensor(int64)")
        .output("reshaped", "T")
        .constraint("T", kNumeric)
        .infer(infer_reshape);
    reg->add("", "NonZero")
        .since(1)
        .input("X", "T")
        .output("Y", "tensor(int64)")
        .constraint("T", kNumeric)
        .infer(infer_nonzero);
    reg->add("", "Same")
        .since(1)
        .input("A", "T")
        .input("B", "T")
        .output("C", "T")
        .constraint("T", kNumeric)
        .infer(infer_same);
    reg->add("", "Broken")
        .since(1)
        .input("X", "T")
        .output("Y", "T")
        .constraint("T", kNumeric)
        .infer([](InferContext& ctx) { ctx.fail("always fails"); });
    ops::define_Shape(reg->add("", "Shape"));
    ops::define_Size(reg->add("", "Size"));
    ops::define_Constant(reg->add("", "Constant"));
    ops::define_ConstantOfShape(reg->add("", "ConstantOfShape"));
    ops::define_If(reg->add("", "If"));
    ops::define_Loop(reg->add("", "Loop"));
    ops::define_Scan(reg->add("", "Scan"));
    return reg;
  }();
  return *r;
}

// A model under construction: opset 17, inputs with types, nodes, untyped outputs.
struct TestModel {
  onnx::ModelProto proto;
  TestModel() {
    proto.set_ir_version(8);
    auto* o = proto.add_opset_import();
    o->set_version(17);
  }
  onnx::GraphProto& graph() { return *proto.mutable_graph(); }
  void input(const std::string& name, int32_t elem, const std::vector<std::string>& dims) {
    auto* v = graph().add_input();
    test::set_tensor_type(*v, elem, dims);
    v->set_name(name);
  }
  void output(const std::string& name) { graph().add_output()->set_name(name); }
  onnx::NodeProto& node(const std::string& op, const std::vector<std::string>& in,
                        const std::vector<std::string>& out) {
    return add_node(graph(), op, in, out);
  }
  static onnx::NodeProto& add_node(onnx::GraphProto& g, const std::string& op,
                                   const std::vector<std::string>& in,
                                   const std::vector<std::string>& out) {
    return add_node(*g.mutable_node(), op, in, out);
  }
  static onnx::NodeProto& add_node(google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                                   const std::string& op, const std::vector<std::string>& in,
                                   const std::vector<std::string>& out) {
    auto* n = nodes.Add();
    n->set_op_type(op);
    for (const auto& i : in) n->add_input(i);
    for (const auto& o : out) n->add_output(o);
    return *n;
  }
  void ints_initializer(const std::string& name, const std::vector<int64_t>& values) {
    auto* t = graph().add_initializer();
    t->set_name(name);
    t->set_data_type(kInt64);
    t->add_dims(static_cast<int64_t>(values.size()));
    for (int64_t v : values) t->add_int64_data(v);
  }
};

struct Run {
  Model model;
  DiagSink sink;
  InferResult result;
  // "float[N*3,4]": the element type and dims as Dim writes them (independent of how the
  // textual syntax quotes expressions).
  std::string type(const std::string& name) const {
    const ValueRecord* v = result.find(name);
    if (!v) return "<none>";
    if (!v->type.is_tensor() || !v->type.has_shape()) return v->type.to_string();
    return elem_type_to_string(v->type.elem) + dims_to_string(*v->type.shape);
  }
  bool has(const std::string& rule) const {
    for (const auto& d : sink.diagnostics())
      if (d.rule == rule) return true;
    return false;
  }
};

std::unique_ptr<Run> infer(const TestModel& m, InferOptions opt = {}) {
  auto r = std::make_unique<Run>();
  r->model = model_from_proto(std::make_shared<onnx::ModelProto>(m.proto), "test.onnx", ".");
  opt.registry = &test_registry();
  r->result = infer_model(r->model, opt, r->sink);
  return r;
}

void attr_int(onnx::NodeProto& n, const std::string& name, int64_t v) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(v);
}

void attr_graph(onnx::NodeProto& n, const std::string& name, const onnx::GraphProto& g) {
  auto* a = n.add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::GRAPH);
  *a->mutable_g() = g;
}

}  // namespace

TEST_CASE("engine: inference functions, and the generic fallback from type constraints") {
  TestModel m;
  m.input("x", kFloat, {"N", "3"});
  m.node("Relu", {"x"}, {"r"});
  m.node("Mystery", {"r"}, {"y", "i"});
  m.output("y");
  m.output("i");
  auto r = infer(m);
  CHECK(r->sink.ok());
  CHECK(r->type("r") == "float[N,3]");
  // No inference: the element types come from T (bound by the input) and I (one type allowed).
  CHECK((r->result.find("y")->type.elem == kFloat && !r->result.find("y")->type.has_shape()));
  CHECK(r->result.find("i")->type.elem == kInt64);
  CHECK(r->result.find("y")->provenance.reason.find("no shape inference") != std::string::npos);
}

TEST_CASE("engine: data propagation from Shape through arithmetic into Reshape") {
  TestModel m;
  m.input("x", kFloat, {"N", "3", "4"});
  m.ints_initializer("two", {2});
  m.node("Shape", {"x"}, {"s"});
  m.node("Add", {"s", "two"}, {"s2"});  // [N+2,5,6]
  m.node("Reshape", {"x", "s"}, {"same"});
  m.node("Size", {"x"}, {"n"});
  m.node("Reshape", {"x", "n"}, {"flat"});
  m.node("ConstantOfShape", {"s2"}, {"filled"});
  m.output("same");
  m.output("flat");
  m.output("filled");
  auto r = infer(m);
  CHECK(r->sink.ok());
  CHECK(r->type("s") == "int64[3]");
  CHECK(dims_to_string(*r->result.find("s")->values) == "[N,3,4]");
  CHECK(dims_to_string(*r->result.find("s2")->values) == "[N+2,5,6]");
  CHECK(r->type("same") == "float[N,3,4]");
  CHECK(r->type("flat") == "float[N*12]");
  CHECK(r->type("filled") == "float[N+2,5,6]");
}

TEST_CASE("engine: Constant values reach later nodes") {
  TestModel m;
  m.input("x", kFloat, {"2", "6"});
  auto& c = m.node("Constant", {}, {"shape"});
  auto* a = c.add_attribute();
  a->set_name("value_ints");
  a->set_type(onnx::AttributeProto::INTS);
  a->add_ints(3);
  a->add_ints(-1);
  m.node("Reshape", {"x", "shape"}, {"y"});
  m.output("y");
  auto r = infer(m);
  CHECK(r->sink.ok());
  CHECK(r->type("shape") == "int64[2]");
  CHECK(r->type("y") == "float[3,4]");
}

TEST_CASE("engine: declared types refine, conflict (warning, error under strict) and bind") {
  TestModel m;
  m.input("x", kFloat, {"N", "3"});
  m.node("Relu", {"x"}, {"r"});
  m.node("Relu", {"r"}, {"y"});
  auto* vi = m.graph().add_value_info();
  vi->set_name("r");
  test::set_tensor_type(*vi, kFloat, {"5", "?"});  // binds N = 5
  m.output("y");
  auto r = infer(m);
  CHECK(r->sink.ok());
  CHECK(r->result.bindings.at("N") == 5);
  CHECK(r->type("y") == "float[5,3]");
  CHECK(r->type("x") == "float[5,3]");

  test::set_tensor_type(*m.graph().mutable_output(0), kFloat, {"5", "4"});
  auto w = infer(m);
  CHECK(w->has("infer.declared-conflict"));
  CHECK(w->sink.ok());  // a warning
  InferOptions strict;
  strict.strict = true;
  CHECK_FALSE(infer(m, strict)->sink.ok());
}

TEST_CASE("engine: a symbol meeting two values is reported") {
  TestModel m;
  m.input("x", kFloat, {"N"});
  m.node("Relu", {"x"}, {"y"});
  m.output("y");
  InferOptions o;
  o.dims["N"] = 3;
  o.input_shapes["x"] = {4};
  auto r = infer(m, o);
  CHECK(r->has("infer.symbol-conflict"));
  // Inside one node, a bound symbol meets a known dim as two known values: the node fails.
  TestModel n;
  n.input("a", kFloat, {"N"});
  n.input("b", kFloat, {"3"});
  n.input("c", kFloat, {"N"});
  n.input("d", kFloat, {"4"});
  n.node("Same", {"a", "b"}, {"ab"});
  n.node("Same", {"c", "d"}, {"cd"});
  n.output("ab");
  auto q = infer(n);
  CHECK(q->result.bindings.at("N") == 3);
  CHECK(q->type("ab") == "float[3]");
  CHECK(q->has("infer.failed"));
}

TEST_CASE("engine: --dim and --input-shape fix symbols before inference") {
  TestModel m;
  m.input("x", kFloat, {"N", "C"});
  m.input("y", kFloat, {"N"});
  m.node("Relu", {"y"}, {"z"});
  m.output("z");
  InferOptions o;
  o.input_shapes["x"] = {2, 7};
  auto r = infer(m, o);
  CHECK(r->type("z") == "float[2]");
  CHECK(r->result.bindings.at("C") == 7);
  InferOptions d;
  d.dims["N"] = 9;
  CHECK(infer(m, d)->type("z") == "float[9]");
  InferOptions bad;
  bad.input_shapes["x"] = {1, 2, 3};
  CHECK_THROWS_AS(infer(m, bad), Error);
  InferOptions missing;
  missing.input_shapes["nope"] = {1};
  CHECK_THROWS_AS(infer(m, missing), Error);
}

TEST_CASE("engine: failures and type errors are collected with their location") {
  TestModel m;
  m.input("x", kFloat, {"2"});
  m.input("b", kBool, {"2"});
  m.input("i", kInt64, {"2"});
  m.node("Broken", {"x"}, {"y"});
  m.node("Relu", {"b"}, {"z"});
  m.node("Add", {"x", "i"}, {"w"});
  m.node("Nope", {"x"}, {"q"});
  m.node("Relu", {"undefined"}, {"u"});
  m.output("y");
  auto r = infer(m);
  CHECK(r->has("infer.failed"));
  CHECK(r->has("infer.type-not-allowed"));
  CHECK(r->has("infer.type-mismatch"));
  CHECK(r->has("infer.unknown-op"));
  CHECK(r->has("infer.undefined-input"));
  CHECK(r->sink.diagnostics()[0].location == "graph.node[0] (Broken)");
  CHECK(r->result.find("y")->type.elem == kFloat);  // still typed by the fallback
}

TEST_CASE("engine: If merges its branches; a constant condition picks one") {
  TestModel m;
  m.input("c", kBool, {});
  m.input("x", kFloat, {"N", "3"});
  onnx::GraphProto then_g, else_g;
  TestModel::add_node(then_g, "Relu", {"x"}, {"t"});
  then_g.add_output()->set_name("t");
  TestModel::add_node(else_g, "Reshape", {"x", "flat"}, {"e"});
  else_g.add_output()->set_name("e");
  m.ints_initializer("flat", {3, -1});
  auto& n = m.node("If", {"c"}, {"y"});
  attr_graph(n, "then_branch", then_g);
  attr_graph(n, "else_branch", else_g);
  m.output("y");
  auto r = infer(m);
  CHECK(r->sink.ok());
  CHECK(r->type("y") == "float[?,?]");  // [N,3] or [3,N]
  CHECK(r->type("t") == "float[N,3]");  // subgraph values are recorded too
  CHECK(r->result.graphs.size() == 3);
}

TEST_CASE("engine: the branch a constant condition leaves out is not inferred") {
  // The then-branch's inference fails (Broken), but that branch never runs when the condition
  // is a known false (as in the AffineGrid function body's 2-D branch, which splits a 5-element
  // size into 4).
  auto build = [](bool constant_condition) {
    TestModel m;
    m.input("x", kFloat, {"2", "3"});
    if (constant_condition) {
      auto* c = m.graph().add_initializer();
      c->set_name("c");
      c->set_data_type(kBool);
      c->add_int32_data(0);
    } else {
      m.input("c", kBool, {});
    }
    onnx::GraphProto then_g, else_g;
    TestModel::add_node(then_g, "Broken", {"x"}, {"t"});
    then_g.add_output()->set_name("t");
    TestModel::add_node(else_g, "Relu", {"x"}, {"e"});
    else_g.add_output()->set_name("e");
    auto& n = m.node("If", {"c"}, {"y"});
    attr_graph(n, "then_branch", then_g);
    attr_graph(n, "else_branch", else_g);
    m.output("y");
    return m;
  };
  auto known = infer(build(true));
  CHECK(known->sink.ok());
  CHECK(known->type("y") == "float[2,3]");
  auto unknown = infer(build(false));
  CHECK(unknown->has("infer.failed"));
}

TEST_CASE("engine: Loop carries types to a fixpoint and stacks scan outputs") {
  TestModel m;
  m.ints_initializer("trips", {5});
  m.graph().mutable_initializer(0)->clear_dims();  // a scalar
  m.input("x", kFloat, {"2"});
  onnx::GraphProto body;
  TestModel::add_node(body, "Relu", {"cond_in"}, {"cond_out"});
  TestModel::add_node(body, "Relu", {"acc"}, {"acc2"});
  TestModel::add_node(body, "Relu", {"acc"}, {"each"});
  for (auto [name, elem] : {std::pair{"i", kInt64}, {"cond_in", kBool}, {"acc", kFloat}}) {
    auto* v = body.add_input();
    v->set_name(name);
    v->mutable_type()->mutable_tensor_type()->set_elem_type(elem);
  }
  for (const char* o : {"cond_out", "acc2", "each"}) body.add_output()->set_name(o);
  auto& n = m.node("Loop", {"trips", "", "x"}, {"final", "stacked"});
  attr_graph(n, "body", body);
  m.output("final");
  m.output("stacked");
  auto r = infer(m);
  CHECK(r->type("final") == "float[2]");
  CHECK(r->type("stacked") == "float[5,2]");
  CHECK(r->type("acc2") == "float[2]");
}

TEST_CASE("engine: Scan slices inputs and stacks outputs") {
  TestModel m;
  m.input("state", kFloat, {"4"});
  m.input("seq", kFloat, {"T", "4"});
  onnx::GraphProto body;
  TestModel::add_node(body, "Add", {"s", "x"}, {"s2"});
  TestModel::add_node(body, "Relu", {"x"}, {"y"});
  for (const char* name : {"s", "x"}) body.add_input()->set_name(name);
  for (const char* o : {"s2", "y"}) body.add_output()->set_name(o);
  auto& n = m.node("Scan", {"state", "seq"}, {"final", "ys"});
  attr_int(n, "num_scan_inputs", 1);
  attr_graph(n, "body", body);
  m.output("final");
  m.output("ys");
  auto r = infer(m);
  CHECK(r->sink.ok());
  CHECK(r->type("final") == "float[4]");
  CHECK(r->type("ys") == "float[T,4]");
}

TEST_CASE("engine: model-local functions are inferred through their bodies") {
  TestModel m;
  auto* o = m.proto.add_opset_import();
  o->set_domain("local");
  o->set_version(1);
  auto* f = m.proto.add_functions();
  f->set_name("Twice");
  f->set_domain("local");
  f->add_input("a");
  f->add_output("b");
  *f->add_opset_import() = m.proto.opset_import(0);
  TestModel::add_node(*f->mutable_node(), "Relu", {"a"}, {"t"});
  TestModel::add_node(*f->mutable_node(), "Add", {"t", "a"}, {"b"});
  m.input("x", kFloat, {"N", "2"});
  m.node("Twice", {"x"}, {"y"}).set_domain("local");
  m.node("Twice", {"x"}, {"z"}).set_domain("local");  // served from the cache
  m.output("y");
  auto r = infer(m);
  CHECK(r->sink.ok());
  CHECK(r->type("y") == "float[N,2]");
  CHECK(r->type("z") == "float[N,2]");
}

TEST_CASE("engine: annotate_model writes value_info and refined outputs") {
  TestModel m;
  m.input("x", kFloat, {"N", "3"});
  m.node("Relu", {"x"}, {"r"});
  m.node("Relu", {"r"}, {"y"});
  m.output("y");
  auto r = infer(m);
  annotate_model(*r->model.proto, r->result);
  const auto& g = r->model.proto->graph();
  REQUIRE(g.value_info_size() == 1);
  CHECK(g.value_info(0).name() == "r");
  CHECK(g.output(0).type().tensor_type().shape().dim(0).dim_param() == "N");
}

TEST_CASE("engine: --explain follows the chain back to where information was lost") {
  TestModel m;
  m.input("x", kFloat, {"2", "3"});
  m.node("NonZero", {"x"}, {"nz"});
  m.node("Shape", {"nz"}, {"s"});
  m.node("Reshape", {"x", "s"}, {"y"});
  m.output("y");
  auto r = infer(m);
  const auto lines = explain_value(r->result, "y");
  std::string all;
  for (const auto& l : lines) all += l + "\n";
  CAPTURE(all);
  CHECK(r->type("y") == "float[2,?]");
  CHECK(all.find("graph.node[2] (Reshape) [Reshape-1]: from input 1 \"s\" (its values)") !=
        std::string::npos);
  CHECK(all.find("graph.node[1] (Shape) [Shape-15]: from input 0 \"nz\"") != std::string::npos);
  CHECK(all.find("depends on the input's values") != std::string::npos);
  CHECK(explain_value(r->result, "x")[0] == "x: float[2,3] (fully known)");

  test::set_tensor_type(*m.graph().mutable_output(0), kFloat, {"2", "K"});
  auto declared = infer(m);
  CHECK(declared->type("y") == "float[2,K]");
  CHECK(explain_value(declared->result, "y")[1].find("declared float[2,K]") != std::string::npos);
  CHECK(explain_value(r->result, "nope")[0].find("no value named") != std::string::npos);
}

TEST_CASE("engine: --explain names an input whose values were needed but unknown") {
  TestModel m;
  m.input("x", kFloat, {"2", "3"});
  m.input("i", kInt64, {"2"});
  m.node("Relu", {"i"}, {"s"});  // keeps the type, computes no values
  m.node("Reshape", {"x", "s"}, {"y"});
  m.output("y");
  auto r = infer(m);
  std::string all;
  for (const auto& l : explain_value(r->result, "y")) all += l + "\n";
  CAPTURE(all);
  CHECK(r->type("y") == "float[?,?]");
  CHECK(all.find("[Reshape-1]: input 1 \"s\" has no known values") != std::string::npos);
  CHECK(all.find("[Relu-1]: computes no values (no data propagation)") != std::string::npos);
}

TEST_CASE("engine: a 10,000-node chain infers quickly") {
  TestModel m;
  m.input("x", kFloat, {"N", "64"});
  std::string prev = "x";
  for (int i = 0; i < 10000; ++i) {
    const std::string next = "v" + std::to_string(i);
    m.node(i % 2 ? "Relu" : "Add",
           i % 2 ? std::vector<std::string>{prev} : std::vector<std::string>{prev, "x"}, {next});
    prev = next;
  }
  m.output(prev);
  const auto start = std::chrono::steady_clock::now();
  auto r = infer(m);
  const auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                      std::chrono::steady_clock::now() - start)
                      .count();
  MESSAGE("10,000 nodes inferred in " << ms << " ms");
  CHECK(r->type(prev) == "float[N,64]");
}
