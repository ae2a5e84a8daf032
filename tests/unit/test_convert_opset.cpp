// SPDX-License-Identifier: Apache-2.0
// Opset conversion (core/convert/opset_convert.h): adapters stepping nodes up and down, steps
// compatible by signature, function bodies expanded going down, refusals with their reasons;
// every converted model passes the checker and computes what the original did.
#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "core/check/check.h"
#include "core/convert/ir_version.h"
#include "core/convert/opset_convert.h"
#include "core/exec/function_body.h"
#include "core/exec/session.h"
#include "core/infer/engine.h"
#include "core/ir/graph.h"
#include "core/model/model.h"
#include "core/registry/registry.h"
#include "core/text/parser.h"
#include "onnx.pb.h"
#include "tests/support/support.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

Model parse(const std::string& text) {
  auto proto = std::make_shared<onnx::ModelProto>();
  text::parse_model_text(text, *proto);
  return model_from_proto(proto, "test.onnxtxt", ".");
}

struct Converted {
  Model model;
  convert::Report report;
};

// Converts a copy of m to `targets`, as `onnxtool convert --opset` does.
Converted convert_to(const Model& m, std::map<std::string, int64_t> targets,
                     bool allow_approximate = false) {
  DiagSink sink;
  const InferResult types = infer_model(m, {}, sink);
  convert::Options o;
  o.targets = std::move(targets);
  o.allow_approximate = allow_approximate;
  o.parse_body = default_function_body_parser();
  o.type_of = [&](const std::string& name) -> const Type* {
    const ValueRecord* r = types.find(name);
    return r ? &r->type : nullptr;
  };
  ir::ModelGraph g = ir::ModelGraph::from_proto(*m.proto);
  convert::Report r = convert::convert_opsets(g, Registry::standard(), o);
  auto proto = std::make_shared<onnx::ModelProto>(g.to_proto());
  bool down = false;
  for (const auto& d : r.domains) down = down || d.to < d.from;
  (void)convert::restamp_ir(*proto, std::nullopt, down, m.name);
  return {model_from_proto(proto, m.name, "."), std::move(r)};
}

std::vector<std::string> check_errors(const Model& m) {
  DiagSink sink;
  check_model(*m.proto, {}, sink);
  std::vector<std::string> out;
  for (const auto& d : sink.diagnostics())
    if (d.severity == Severity::error)
      out.push_back(d.location + ": " + d.message + " [" + d.rule + "]");
  return out;
}

std::vector<float> run_floats(const Model& m,
                              const std::vector<std::pair<std::string, Value>>& in) {
  Session s(m);
  const auto out = s.run(in);
  const Tensor& t = out.at(0).tensor();
  return std::vector<float>(t.data<float>(), t.data<float>() + t.numel());
}

Value floats(Shape shape, std::vector<float> v) {
  return Value(Tensor::from_vector<float>(std::move(shape), v));
}

// What the refused nodes say, for messages.
std::string reasons(const convert::Report& r) {
  std::string s;
  for (const auto& d : r.diagnostics) s += d.location + ": " + d.message + " [" + d.rule + "]\n";
  return s;
}

int64_t opset_of(const Model& m, const std::string& domain = "") {
  for (const auto& o : m.proto->opset_import())
    if (normalize_domain(o.domain()) == domain) return o.version();
  return 0;
}

const convert::NodeOutcome& outcome(const convert::Report& r, const std::string& location_part) {
  for (const auto& n : r.nodes)
    if (n.location.find(location_part) != std::string::npos) return n;
  FAIL("no outcome for " << location_part);
  return r.nodes.front();
}

}  // namespace

TEST_CASE("squeeze axes: attribute at 11, input from 13, and back; the same outputs") {
  const Model m = parse(R"(
    <ir_version: 7, opset_import: ["" : 11]>
    g (float[1,3,1,2] x) => (float[3,2] y) {
      [sq] y = Squeeze <axes = [0, -2]> (x)
    })");
  const Value x = floats({1, 3, 1, 2}, {1, 2, 3, 4, 5, 6});
  const auto expected = run_floats(m, {{"x", x}});

  Converted up = convert_to(m, {{"", 13}});
  REQUIRE_MESSAGE(up.report.ok(), reasons(up.report));
  CHECK(opset_of(up.model) == 13);
  CHECK(check_errors(up.model).empty());
  const auto& sq = outcome(up.report, "\"sq\"");
  CHECK(sq.action == convert::NodeOutcome::Action::adapted);
  CHECK(sq.from == "Squeeze-11");
  CHECK(sq.to == "Squeeze-13");
  REQUIRE(sq.steps.size() == 1);
  CHECK(sq.steps[0] == "12 -> 13: axes [0,-2]: attribute -> input");
  const auto& node = up.model.proto->graph().node(0);
  CHECK(node.input_size() == 2);
  CHECK(node.attribute_size() == 0);
  CHECK(run_floats(up.model, {{"x", x}}) == expected);

  Converted down = convert_to(up.model, {{"", 1}});
  REQUIRE_MESSAGE(down.report.ok(), reasons(down.report));
  CHECK(check_errors(down.model).empty());
  const auto& back = down.model.proto->graph().node(0);
  CHECK(back.input_size() == 1);
  REQUIRE(back.attribute_size() == 1);
  // Squeeze-1 counts axes from the start only.
  CHECK(std::vector<int64_t>(back.attribute(0).ints().begin(), back.attribute(0).ints().end()) ==
        std::vector<int64_t>{0, 2});
  CHECK(run_floats(down.model, {{"x", x}}) == expected);
}

TEST_CASE("a value computed at run time cannot become an attribute: refused, naming the node") {
  const Model m = parse(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[1,3] x, int64[1] axes) => (float[3] y) {
      [sq] y = Squeeze (x, axes)
    })");
  Converted r = convert_to(m, {{"", 11}});
  CHECK_FALSE(r.report.ok());
  const auto& sq = outcome(r.report, "\"sq\"");
  CHECK(sq.action == convert::NodeOutcome::Action::refused);
  CHECK(sq.rule == "convert.no-equivalent");
  CHECK(sq.why.find("axes (input 1) is computed when the model runs") != std::string::npos);
  REQUIRE(r.report.diagnostics.size() == 1);
  CHECK(r.report.diagnostics[0].location == "graph.node[0] \"sq\" (Squeeze)");
}

TEST_CASE("legacy broadcasting with an axis becomes numpy broadcasting, and back") {
  const Model m = parse(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[2,3,2] a, float[3] b) => (float[2,3,2] c) {
      [add] c = Add <broadcast = 1, axis = 1> (a, b)
    })");
  std::vector<float> av(12);
  for (int i = 0; i < 12; ++i) av[static_cast<std::size_t>(i)] = static_cast<float>(i);
  const std::vector<std::pair<std::string, Value>> in = {{"a", floats({2, 3, 2}, av)},
                                                         {"b", floats({3}, {100, 200, 300})}};
  const auto expected = run_floats(m, in);
  Converted up = convert_to(m, {{"", 9}});
  REQUIRE_MESSAGE(up.report.ok(), reasons(up.report));
  CHECK(check_errors(up.model).empty());
  REQUIRE(up.model.proto->graph().node_size() == 2);
  CHECK(up.model.proto->graph().node(0).op_type() == "Unsqueeze");
  CHECK(run_floats(up.model, in) == expected);

  // Down again: B, now [3,1], stretches over A's last dims [3,2], which broadcast=1 says too.
  Converted down = convert_to(up.model, {{"", 6}});
  REQUIRE_MESSAGE(down.report.ok(), reasons(down.report));
  CHECK(check_errors(down.model).empty());
  CHECK(run_floats(down.model, in) == expected);

  // A broadcast the legacy form cannot say: A would grow ([2,1] + [3] is [2,3]).
  const Model numpy = parse(R"(
    <ir_version: 7, opset_import: ["" : 13]>
    g (float[2,1] a, float[3] b) => (float[2,3] c) {
      [add] c = Add (a, b)
    })");
  CHECK_FALSE(convert_to(numpy, {{"", 6}}).report.ok());
}

TEST_CASE("clip: min and max attributes become inputs at 11, and back") {
  const Model m = parse(R"(
    <ir_version: 3, opset_import: ["" : 6]>
    g (float[4] x) => (float[4] y) {
      [clip] y = Clip <min = -1.0, max = 2.5> (x)
    })");
  const Value x = floats({4}, {-3, 0, 1, 7});
  const auto expected = run_floats(m, {{"x", x}});
  Converted up = convert_to(m, {{"", 13}});
  REQUIRE_MESSAGE(up.report.ok(), reasons(up.report));
  CHECK(check_errors(up.model).empty());
  CHECK(up.model.proto->graph().node(0).input_size() == 3);
  // The new constants are initializers (at the IR version opset 13 needs, not graph inputs).
  CHECK(up.model.proto->graph().initializer_size() == 2);
  CHECK(up.model.proto->graph().input_size() == 1);
  CHECK(run_floats(up.model, {{"x", x}}) == expected);
  Converted down = convert_to(up.model, {{"", 6}});
  REQUIRE_MESSAGE(down.report.ok(), reasons(down.report));
  CHECK(down.model.proto->graph().node(0).input_size() == 1);
  CHECK(run_floats(down.model, {{"x", x}}) == expected);
}

TEST_CASE("going below an operator's first opset expands its function body") {
  const Model m = parse(R"(
    <ir_version: 8, opset_import: ["" : 17]>
    g (float[2,4] x, float[4] scale, float[4] bias) => (float[2,4] y) {
      [ln] y = LayerNormalization <epsilon = 0.001> (x, scale, bias)
    })");
  const std::vector<std::pair<std::string, Value>> in = {
      {"x", floats({2, 4}, {1, 2, 3, 4, -1, 0, 5, 9})},
      {"scale", floats({4}, {1, 0.5f, 2, 1})},
      {"bias", floats({4}, {0, 1, 0, -1})}};
  const auto expected = run_floats(m, in);
  Converted down = convert_to(m, {{"", 15}});
  REQUIRE_MESSAGE(down.report.ok(), reasons(down.report));
  CHECK(check_errors(down.model).empty());
  const auto& ln = outcome(down.report, "\"ln\"");
  CHECK(ln.action == convert::NodeOutcome::Action::expanded);
  CHECK(down.model.proto->graph().node_size() > 5);
  const auto got = run_floats(down.model, in);
  REQUIRE(got.size() == expected.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    CHECK(got[i] == doctest::Approx(expected[i]).epsilon(1e-5));

  // Below what the body itself can say (its ops at opset 1 lack what it needs): refused.
  Converted too_low = convert_to(m, {{"", 1}});
  CHECK_FALSE(too_low.report.ok());
  CHECK(outcome(too_low.report, "\"ln\"").rule == "convert.no-equivalent");
}

TEST_CASE("an attribute a newer version added converts down only when it holds its default") {
  const Model m = parse(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[2,3] x) => (int64[2,1] a, int64[2,1] b) {
      [first] a = ArgMax <axis = 1, select_last_index = 0> (x)
      [last] b = ArgMax <axis = 1, select_last_index = 1> (x)
    })");
  Converted r = convert_to(m, {{"", 11}});
  CHECK_FALSE(r.report.ok());
  CHECK(outcome(r.report, "\"first\"").action == convert::NodeOutcome::Action::adapted);
  const auto& last = outcome(r.report, "\"last\"");
  CHECK(last.action == convert::NodeOutcome::Action::refused);
  CHECK(last.why.find("select_last_index has no equivalent in ArgMax-11") != std::string::npos);
}

TEST_CASE("targets that do not exist are usage errors") {
  const Model m = parse(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[2] x) => (float[2] y) { y = Relu (x) })");
  CHECK_THROWS_AS(convert_to(m, {{"", 29}}), Error);
  CHECK_THROWS_AS(convert_to(m, {{"", 0}}), Error);
  CHECK_THROWS_AS(convert_to(m, {{"com.example", 1}}), Error);
}

TEST_CASE("model-local functions are converted with the model, constants as nodes") {
  const Model m = parse(R"(
    <ir_version: 8, opset_import: ["" : 11, "local" : 1]>
    g (float[1,3] x) => (float[3] y) {
      [call] y = local.Flat (x)
    }
    <domain: "local", opset_import: ["" : 11]>
    Flat (a) => (b) {
      b = Squeeze <axes = [0]> (a)
    })");
  const Value x = floats({1, 3}, {1, 2, 3});
  const auto expected = run_floats(m, {{"x", x}});
  Converted up = convert_to(m, {{"", 13}});
  REQUIRE_MESSAGE(up.report.ok(), reasons(up.report));
  CHECK(check_errors(up.model).empty());
  const auto& fn = up.model.proto->functions(0);
  CHECK(fn.opset_import(0).version() == 13);
  REQUIRE(fn.node_size() == 2);  // the axes, as a constant node, then Squeeze
  CHECK(fn.node(1).input_size() == 2);
  CHECK(run_floats(up.model, {{"x", x}}) == expected);
}

TEST_CASE("training graphs are converted with the model, reading its state variables") {
  const Model m = parse(R"(
    <ir_version: 7, opset_import: ["" : 11]>
    main (float[3] x) => (float[1,3] z)
      <float[3] W = {1.0, 2.0, 3.0}>
    {
      y = Unsqueeze <axes = [0]> (x)
      z = Add (y, W)
    }
    %training_info {
      algorithm: alg () => (float[3] W_new) {
        Wu = Unsqueeze <axes = [0]> (W)
        W_new = ReduceSum <keepdims = 0, axes = [0]> (Wu)
      },
      update_binding: ["W": "W_new"]
    })");
  Converted up = convert_to(m, {{"", 13}});
  REQUIRE_MESSAGE(up.report.ok(), reasons(up.report));
  CHECK(check_errors(up.model).empty());
  REQUIRE(up.model.proto->training_info_size() == 1);
  const onnx::GraphProto& alg = up.model.proto->training_info(0).algorithm();
  // Each axes attribute became a Constant node feeding the operator's new input.
  REQUIRE(alg.node_size() == 4);
  CHECK(alg.node(0).op_type() == "Constant");
  CHECK(alg.node(1).op_type() == "Unsqueeze");
  CHECK(alg.node(1).input_size() == 2);
  CHECK(alg.node(3).op_type() == "ReduceSum");
  CHECK(alg.node(3).input_size() == 2);
  bool reported = false;
  for (const auto& n : up.report.nodes)
    reported = reported || n.location.rfind("training_info[0].algorithm: ", 0) == 0;
  CHECK(reported);

  // Back down: the attributes return and the constants that fed them go.
  Converted down = convert_to(up.model, {{"", 11}});
  REQUIRE_MESSAGE(down.report.ok(), reasons(down.report));
  const onnx::GraphProto& back = down.model.proto->training_info(0).algorithm();
  REQUIRE(back.node_size() == 2);
  CHECK(back.node(0).input_size() == 1);
  CHECK(back.node(1).input_size() == 1);
  CHECK(down.model.proto->graph().initializer_size() == 1);  // W only: the axes went
}

TEST_CASE("constants a step stops reading are dropped; constants unread before stay") {
  const Model m = parse(R"(
    <ir_version: 8, opset_import: ["" : 13]>
    g (float[1,3] x) => (float[3] y)
      <int64[1] axes = {0}, float[2] spare = {1.0, 2.0}>
    {
      c = Constant <value = int64[1] {0}> ()
      s = Squeeze (x, axes)
      t = Unsqueeze (s, c)
      y = Squeeze (t, axes)
    })");
  const Value x = floats({1, 3}, {1, 2, 3});
  const auto expected = run_floats(m, {{"x", x}});
  Converted down = convert_to(m, {{"", 11}});
  REQUIRE_MESSAGE(down.report.ok(), reasons(down.report));
  CHECK(check_errors(down.model).empty());
  const onnx::GraphProto& g = down.model.proto->graph();
  REQUIRE(g.initializer_size() == 1);
  CHECK(g.initializer(0).name() == "spare");
  REQUIRE(g.node_size() == 3);  // the Constant went with the last reader of c
  for (const auto& n : g.node()) CHECK(n.input_size() == 1);
  CHECK(run_floats(down.model, {{"x", x}}) == expected);
}

namespace {

// Every output of m on the given inputs, as doubles (labels too).
std::vector<std::vector<double>> run_all(const Model& m,
                                         const std::vector<std::pair<std::string, Value>>& in) {
  Session s(m);
  std::vector<std::vector<double>> out;
  for (const auto& v : s.run(in)) {
    const Tensor& t = v.tensor();
    std::vector<double> d;
    for (int64_t i = 0; i < t.numel(); ++i) {
      if (t.dtype() == DataType::float32) d.push_back(t.data<float>()[i]);
      if (t.dtype() == DataType::float64) d.push_back(t.data<double>()[i]);
      if (t.dtype() == DataType::int64) d.push_back(static_cast<double>(t.data<int64_t>()[i]));
    }
    out.push_back(std::move(d));
  }
  return out;
}

void check_close(const std::vector<std::vector<double>>& got,
                 const std::vector<std::vector<double>>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t o = 0; o < got.size(); ++o) {
    REQUIRE(got[o].size() == want[o].size());
    for (std::size_t i = 0; i < got[o].size(); ++i)
      CHECK(got[o][i] == doctest::Approx(want[o][i]).epsilon(1e-6));
  }
}

// Two trees, two targets; leaves voting for both targets, for one, and a tree whose second
// level splits again.
const char* kRegressor = R"(
  <ir_version: 8, opset_import: ["" : 13, "ai.onnx.ml" : 3]>
  g (X_TYPE[4,2] x) => (float[4,2] y) {
    y = ai.onnx.ml.TreeEnsembleRegressor <
      n_targets = 2, aggregate_function = "AGG", post_transform = "POST", BASE
      nodes_treeids = [0, 0, 0, 1, 1, 1, 1, 1],
      nodes_nodeids = [0, 1, 2, 0, 1, 2, 3, 4],
      nodes_featureids = [0, 0, 0, 1, 0, 0, 0, 0],
      nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF", "BRANCH_LT", "LEAF", "BRANCH_GT", "LEAF", "LEAF"],
      nodes_values = [0.5, 0.0, 0.0, 1.0, 0.0, 2.0, 0.0, 0.0],
      nodes_truenodeids = [1, 0, 0, 1, 0, 3, 0, 0],
      nodes_falsenodeids = [2, 0, 0, 2, 0, 4, 0, 0],
      target_treeids = [0, 0, 0, 1, 1, 1, 1],
      target_nodeids = [1, 1, 2, 1, 3, 3, 4],
      target_ids = [0, 1, 0, 1, 0, 1, 0],
      target_weights = [1.0, 2.0, -1.0, 3.0, 0.25, 0.5, 4.0]> (x)
  })";

std::string regressor(const std::string& x_type, const std::string& agg, const std::string& post,
                      const std::string& base) {
  std::string s = kRegressor;
  for (const auto& [key, value] : std::vector<std::pair<std::string, std::string>>{
           {"X_TYPE", x_type}, {"AGG", agg}, {"POST", post}, {"BASE", base}})
    s.replace(s.find(key), key.size(), value);
  return s;
}

}  // namespace

TEST_CASE("TreeEnsembleRegressor becomes TreeEnsemble at ai.onnx.ml 5, computing the same") {
  const Value x = floats({4, 2}, {0.0f, 0.5f, 1.0f, 2.0f, 3.0f, 0.0f, 0.25f, 3.0f});
  struct Case {
    const char* x_type;
    const char* agg;
    const char* post;
    const char* base;
    std::size_t inserted;  // nodes beside the TreeEnsemble
  };
  const Case cases[] = {
      {"float", "SUM", "NONE", "", 0},
      {"float", "AVERAGE", "NONE", "", 0},
      {"float", "AVERAGE", "LOGISTIC", "base_values = [0.5, -1.0],", 2},
      {"float", "SUM", "SOFTMAX", "base_values = [0.5, -1.0],", 2},
      {"double", "SUM", "NONE", "", 1},
  };
  for (const Case& c : cases) {
    CAPTURE(c.agg);
    CAPTURE(c.post);
    CAPTURE(c.x_type);
    const Model m = parse(regressor(c.x_type, c.agg, c.post, c.base));
    Value input = x;
    if (std::string(c.x_type) == "double")
      input = Value(Tensor::from_vector<double>({4, 2}, {0, 0.5, 1, 2, 3, 0, 0.25, 3}));
    const auto expected = run_all(m, {{"x", input}});
    Converted up = convert_to(m, {{"ai.onnx.ml", 5}});
    REQUIRE_MESSAGE(up.report.ok(), reasons(up.report));
    CHECK(check_errors(up.model).empty());
    CHECK(opset_of(up.model, "ai.onnx.ml") == 5);
    const auto& g = up.model.proto->graph();
    REQUIRE(g.node_size() == static_cast<int>(1 + c.inserted));
    CHECK(g.node(0).op_type() == "TreeEnsemble");
    check_close(run_all(up.model, {{"x", input}}), expected);
  }
}

TEST_CASE("legacy tree ensembles that TreeEnsemble cannot express are refused with the reason") {
  // MIN over leaves voting for two targets: one weight per leaf cannot say that.
  const Model min = parse(regressor("float", "MIN", "NONE", ""));
  Converted r = convert_to(min, {{"ai.onnx.ml", 5}});
  CHECK_FALSE(r.report.ok());
  CHECK(reasons(r.report).find("MIN or MAX") != std::string::npos);
  // The binary classifier derives the second class's score.
  const Model binary = parse(R"(
    <ir_version: 8, opset_import: ["" : 13, "ai.onnx.ml" : 3]>
    g (float[2,1] x) => (int64[2] y, float[2,2] z) {
      y, z = ai.onnx.ml.TreeEnsembleClassifier <
        classlabels_int64s = [0, 1],
        nodes_treeids = [0, 0, 0], nodes_nodeids = [0, 1, 2], nodes_featureids = [0, 0, 0],
        nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF"], nodes_values = [0.5, 0.0, 0.0],
        nodes_truenodeids = [1, 0, 0], nodes_falsenodeids = [2, 0, 0],
        class_treeids = [0, 0], class_nodeids = [1, 2], class_ids = [1, 1],
        class_weights = [0.2, 0.9]> (x)
    })");
  r = convert_to(binary, {{"ai.onnx.ml", 5}});
  CHECK_FALSE(r.report.ok());
  CHECK(reasons(r.report).find("binary") != std::string::npos);
}

TEST_CASE("TreeEnsembleClassifier becomes TreeEnsemble, ArgMax and a Gather of the labels") {
  for (const char* post : {"NONE", "SOFTMAX", "LOGISTIC"}) {
    CAPTURE(post);
    std::string text = R"(
      <ir_version: 8, opset_import: ["" : 13, "ai.onnx.ml" : 3]>
      g (int64[4,2] x) => (int64[4] y, float[4,3] z) {
        y, z = ai.onnx.ml.TreeEnsembleClassifier <
          classlabels_int64s = [10, 20, 30], base_values = [0.1, 0.0, -0.1], post_transform = "POST",
          nodes_treeids = [0, 0, 0, 1, 1, 1], nodes_nodeids = [0, 1, 2, 0, 1, 2],
          nodes_featureids = [0, 0, 0, 1, 0, 0],
          nodes_modes = ["BRANCH_LEQ", "LEAF", "LEAF", "BRANCH_GTE", "LEAF", "LEAF"],
          nodes_values = [1.0, 0.0, 0.0, 2.0, 0.0, 0.0],
          nodes_truenodeids = [1, 0, 0, 1, 0, 0], nodes_falsenodeids = [2, 0, 0, 2, 0, 0],
          class_treeids = [0, 0, 0, 1, 1], class_nodeids = [1, 1, 2, 1, 2],
          class_ids = [0, 2, 1, 2, 0], class_weights = [0.5, 0.25, 0.75, 1.0, 0.3]> (x)
      })";
    text.replace(text.find("POST"), 4, post);
    const Model m = parse(text);
    const Value x = Value(Tensor::from_vector<int64_t>({4, 2}, {0, 3, 2, 1, 1, 2, 5, 5}));
    const auto expected = run_all(m, {{"x", x}});
    Converted up = convert_to(m, {{"ai.onnx.ml", 5}});
    REQUIRE_MESSAGE(up.report.ok(), reasons(up.report));
    CHECK(check_errors(up.model).empty());
    check_close(run_all(up.model, {{"x", x}}), expected);
  }
}
