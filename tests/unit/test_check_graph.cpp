// SPDX-License-Identifier: Apache-2.0
// The checker's model and graph passes: header, names, scopes, SSA, order, cycles, outputs,
// initializers and value_info. Models are written in protobuf text format so every field is
// under the test's control.
#include <doctest/doctest.h>

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <set>
#include <string>

#include "core/check/check.h"
#include "core/check/rules.h"
#include "onnx.pb.h"

// Shows rule sets in failure messages.
namespace doctest {
template <>
struct StringMaker<std::multiset<std::string>> {
  static String convert(const std::multiset<std::string>& s) {
    std::string out = "{";
    for (const auto& r : s) out += (out.size() > 1 ? ", " : "") + r;
    return (out + "}").c_str();
  }
};
}  // namespace doctest

using namespace onnxtool;

namespace {

onnx::ModelProto parse(const std::string& text) {
  onnx::ModelProto m;
  REQUIRE_MESSAGE(google::protobuf::TextFormat::ParseFromString(text, &m), text);
  return m;
}

struct Result {
  std::vector<Diagnostic> all;
  std::size_t errors = 0;
  std::multiset<std::string> rules(Severity s = Severity::error) const {
    std::multiset<std::string> out;
    for (const auto& d : all)
      if (d.severity == s) out.insert(d.rule);
    return out;
  }
  bool has(const std::string& rule) const {
    return std::any_of(all.begin(), all.end(), [&](const Diagnostic& d) { return d.rule == rule; });
  }
  const Diagnostic* find(const std::string& rule) const {
    for (const auto& d : all)
      if (d.rule == rule) return &d;
    return nullptr;
  }
};

Result check(const std::string& text, CheckOptions opt = {}) {
  DiagSink sink;
  check_model(parse(text), opt, sink);
  return {sink.diagnostics(), sink.errors()};
}

const char* kHeader = R"(ir_version: 8 opset_import { domain: "" version: 17 } )";

std::string tensor_vi(const std::string& name, int elem = 1,
                      const std::string& dims = "dim { dim_value: 2 }") {
  return "{ name: \"" + name + "\" type { tensor_type { elem_type: " + std::to_string(elem) +
         " shape { " + dims + " } } } }";
}

// A model around a graph body: `graph { name: "g" <body> }`.
std::string model(const std::string& graph_body, const std::string& extra = "") {
  return std::string(kHeader) + extra + " graph { name: \"g\" " + graph_body + " }";
}

const std::string kValid = model("input " + tensor_vi("X") + " output " + tensor_vi("Y") +
                                 R"( node { op_type: "Relu" input: "X" output: "Y" })");

}  // namespace

TEST_CASE("a minimal valid model has no findings") {
  auto r = check(kValid);
  CHECK(r.all.empty());
}

TEST_CASE("every reported rule is in the table, once") {
  std::set<std::string_view> ids;
  for (const auto& rule : check_rules()) {
    CHECK_MESSAGE(ids.insert(rule.id).second, rule.id);
    CHECK(!rule.summary.empty());
    CHECK(rule.id.find('.') != std::string_view::npos);
  }
  CHECK(find_check_rule("graph.ssa") != nullptr);
  CHECK(find_check_rule("no.such-rule") == nullptr);
}

TEST_CASE("model header: ir_version and opset_import") {
  SUBCASE("ir_version missing") {
    auto r = check(R"(opset_import { version: 17 } graph { name: "g" })");
    CHECK(r.rules() == std::multiset<std::string>{"model.ir-version-missing"});
  }
  SUBCASE("ir_version from the future") {
    auto r = check(R"(ir_version: 99 opset_import { version: 17 } graph { name: "g" })");
    CHECK(r.has("model.ir-version-unknown"));
  }
  SUBCASE("no opset_import at IR 3+") {
    auto r = check(R"(ir_version: 8 graph { name: "g" })");
    CHECK(r.rules() == std::multiset<std::string>{"model.opset-missing"});
  }
  SUBCASE("opset_import before IR 3") {
    auto r = check(R"(ir_version: 2 opset_import { version: 1 } graph { name: "g" })");
    CHECK(r.has("model.opset-before-ir3"));
  }
  SUBCASE("IR 2 without opset_import means ai.onnx 1") {
    auto r = check(R"(ir_version: 2 graph { name: "g" input { name: "X" type { tensor_type {
      elem_type: 1 shape { } } } } output { name: "Y" type { tensor_type { elem_type: 1 shape { } } } }
      node { op_type: "Relu" input: "X" output: "Y" attribute { name: "consumed_inputs" ints: 0 type: INTS } } })");
    CHECK(r.errors == 0);
  }
  SUBCASE("\"\" and ai.onnx are the same domain") {
    auto r = check(std::string(kHeader) +
                   R"(opset_import { domain: "ai.onnx" version: 17 } graph { name: "g" })");
    CHECK(r.rules() == std::multiset<std::string>{"model.opset-duplicate"});
  }
  SUBCASE("a standard domain at a version that does not exist") {
    auto r = check(R"(ir_version: 8 opset_import { version: 17 }
                      opset_import { domain: "ai.onnx.ml" version: 77 } graph { name: "g" })");
    CHECK(r.rules() == std::multiset<std::string>{"model.opset-unknown-version"});
  }
  SUBCASE("an opset newer than the IR version is a warning, an error under --strict") {
    const std::string t = R"(ir_version: 3 opset_import { version: 9 } graph { name: "g" })";
    auto r = check(t);
    CHECK(r.errors == 0);
    CHECK(r.rules(Severity::warning) == std::multiset<std::string>{"model.opset-newer-than-ir"});
    CheckOptions strict;
    strict.strict = true;
    CHECK(check(t, strict).rules() == std::multiset<std::string>{"model.opset-newer-than-ir"});
  }
  SUBCASE("no graph") {
    auto r = check(kHeader);
    CHECK(r.rules() == std::multiset<std::string>{"model.no-graph"});
  }
  SUBCASE("duplicate metadata keys") {
    auto r = check(model(
        "", R"(metadata_props { key: "a" value: "1" } metadata_props { key: "a" value: "2" })"));
    CHECK(r.rules() == std::multiset<std::string>{"metadata.duplicate-key"});
  }
}

TEST_CASE("features newer than the declared IR version") {
  auto r = check(R"(ir_version: 7 opset_import { version: 13 } graph { name: "g"
    input { name: "X" type { optional_type { elem_type { tensor_type { elem_type: 1 shape {} } } } } }
    output { name: "X" type { optional_type { elem_type { tensor_type { elem_type: 1 shape {} } } } } } })");
  REQUIRE(r.has("model.ir-version-too-old"));
  CHECK(r.find("model.ir-version-too-old")->message.find("optional") != std::string::npos);
  auto bf = check(R"(ir_version: 8 opset_import { version: 17 } graph { name: "g"
    input { name: "X" type { tensor_type { elem_type: 17 shape {} } } }
    output { name: "X" type { tensor_type { elem_type: 17 shape {} } } } })");
  CHECK(bf.rules() == std::multiset<std::string>{"model.ir-version-too-old"});
}

TEST_CASE("main-graph inputs and outputs need types with a rank; subgraphs do not") {
  SUBCASE("no type") {
    auto r = check(model(R"(input { name: "X" } output )" + tensor_vi("X")));
    CHECK(r.rules() == std::multiset<std::string>{"type.missing"});
  }
  SUBCASE("no shape") {
    auto r = check(model(R"(input { name: "X" type { tensor_type { elem_type: 1 } } } output )" +
                         tensor_vi("X")));
    CHECK(r.rules() == std::multiset<std::string>{"type.missing-shape"});
    REQUIRE(r.find("type.missing-shape"));
    CHECK(r.find("type.missing-shape")->location == "graph.input[0] \"X\"");
  }
  SUBCASE("no element type") {
    auto r = check(model(R"(input { name: "X" type { tensor_type { shape {} } } } output )" +
                         tensor_vi("X", 1, "")));
    CHECK(r.rules() == std::multiset<std::string>{"type.missing-elem-type"});
  }
  SUBCASE("unknown element type, negative dim, bad map key") {
    auto r = check(model(
        R"(input { name: "X" type { tensor_type { elem_type: 99 shape { dim { dim_value: -1 } } } } }
       input { name: "M" type { map_type { key_type: 1 value_type { tensor_type { elem_type: 1 } } } } }
       output )" +
        tensor_vi("X", 1, "dim { }")));
    CHECK(r.rules() == std::multiset<std::string>{"type.unknown-elem-type", "type.negative-dim",
                                                  "type.bad-map-key"});
  }
  SUBCASE("a graph needs a name") {
    auto r = check(std::string(kHeader) + " graph { input " + tensor_vi("X") + " output " +
                   tensor_vi("X") + " }");
    CHECK(r.rules() == std::multiset<std::string>{"graph.missing-name"});
  }
  SUBCASE("a value needs a name") {
    auto r = check(model("input " + tensor_vi("X") + " output " + tensor_vi("") +
                         R"( node { op_type: "Relu" input: "X" output: "Y" })"));
    CHECK(r.rules() == std::multiset<std::string>{"value.missing-name"});
  }
}

TEST_CASE("single static assignment and order") {
  SUBCASE("an output assigned twice") {
    auto r = check(model("input " + tensor_vi("X") + " output " + tensor_vi("Y") + R"(
      node { op_type: "Relu" input: "X" output: "Y" }
      node { op_type: "Relu" input: "X" output: "Y" })"));
    CHECK(r.rules() == std::multiset<std::string>{"graph.ssa"});
    CHECK(r.find("graph.ssa")->location == "graph.node[1] (Relu)");
  }
  SUBCASE("a node output named like a graph input") {
    auto r = check(model("input " + tensor_vi("X") + " output " + tensor_vi("X") +
                         R"( node { op_type: "Relu" input: "X" output: "X" })"));
    CHECK(r.rules() == std::multiset<std::string>{"graph.ssa"});
  }
  SUBCASE("duplicate inputs") {
    auto r = check(model("input " + tensor_vi("X") + " input " + tensor_vi("X") + " output " +
                         tensor_vi("X")));
    CHECK(r.rules() == std::multiset<std::string>{"graph.duplicate-input"});
  }
  SUBCASE("a use before the definition") {
    auto r = check(model("input " + tensor_vi("X") + " output " + tensor_vi("Z") + R"(
      node { name: "b" op_type: "Relu" input: "Y" output: "Z" }
      node { name: "a" op_type: "Relu" input: "X" output: "Y" })"));
    CHECK(r.rules() == std::multiset<std::string>{"graph.not-topological"});
    const auto* d = r.find("graph.not-topological");
    CHECK(d->location == "graph.node[0] \"b\" (Relu)");
    CHECK(d->message.find("graph.node[1] \"a\" (Relu)") != std::string::npos);
  }
  SUBCASE("a cycle is reported as one, not as order") {
    auto r = check(model("input " + tensor_vi("X") + " output " + tensor_vi("Z") + R"(
      node { name: "a" op_type: "Add" input: "X" input: "C" output: "A" }
      node { name: "b" op_type: "Relu" input: "A" output: "C" }
      node { name: "z" op_type: "Relu" input: "C" output: "Z" })"));
    CHECK(r.rules() == std::multiset<std::string>{"graph.cycle"});
    CHECK(r.find("graph.cycle")->message.find("node[0] \"a\" (Add), node[1] \"b\" (Relu)") !=
          std::string::npos);
  }
  SUBCASE("a node that consumes its own output") {
    auto r = check(model("input " + tensor_vi("X") + " output " + tensor_vi("A") + R"(
      node { op_type: "Add" input: "X" input: "A" output: "A" })"));
    CHECK(r.rules() == std::multiset<std::string>{"graph.cycle"});
  }
  SUBCASE("an input nobody defines") {
    auto r = check(model("input " + tensor_vi("X") + " output " + tensor_vi("Y") +
                         R"( node { op_type: "Add" input: "X" input: "nope" output: "Y" })"));
    CHECK(r.rules() == std::multiset<std::string>{"graph.undefined-input"});
  }
  SUBCASE("an output nobody produces") {
    auto r = check(model("input " + tensor_vi("X") + " output " + tensor_vi("Y") + " output " +
                         tensor_vi("W") + R"( node { op_type: "Relu" input: "X" output: "Y" })"));
    CHECK(r.rules() == std::multiset<std::string>{"graph.output-not-produced"});
  }
  SUBCASE("duplicate node names are a warning") {
    auto r = check(model("input " + tensor_vi("X") + " output " + tensor_vi("Z") + R"(
      node { name: "n" op_type: "Relu" input: "X" output: "Y" }
      node { name: "n" op_type: "Relu" input: "Y" output: "Z" })"));
    CHECK(r.errors == 0);
    CHECK(r.rules(Severity::warning) == std::multiset<std::string>{"graph.duplicate-node-name"});
  }
}

TEST_CASE("initializers") {
  const std::string w =
      R"(initializer { name: "W" data_type: 1 dims: 2 float_data: 1 float_data: 2 })";
  SUBCASE("a constant initializer is a definition") {
    auto r = check(model("input " + tensor_vi("X") + " output " + tensor_vi("Y") + " " + w +
                         R"( node { op_type: "Add" input: "X" input: "W" output: "Y" })"));
    CHECK(r.all.empty());
  }
  SUBCASE("twice") {
    auto r = check(model("output " + tensor_vi("W") + " " + w + " " + w));
    CHECK(r.rules() == std::multiset<std::string>{"graph.duplicate-initializer"});
  }
  SUBCASE("without a name") {
    auto r = check(model(R"(initializer { data_type: 1 dims: 1 float_data: 1 } output )" +
                         tensor_vi("X") + " input " + tensor_vi("X")));
    CHECK(r.rules() == std::multiset<std::string>{"graph.initializer-missing-name"});
  }
  SUBCASE("disagreeing with the input it gives a default to") {
    auto r = check(model("input " + tensor_vi("W", 7) + " output " + tensor_vi("W", 7) + " " + w));
    CHECK(r.rules() == std::multiset<std::string>{"graph.initializer-type-mismatch"});
    auto rank =
        check(model("input " + tensor_vi("W", 1, "dim { dim_value: 2 } dim { dim_value: 1 }") +
                    " output " + tensor_vi("W") + " " + w));
    CHECK(rank.has("graph.initializer-type-mismatch"));
    auto symbolic =
        check(model("input " + tensor_vi("W", 1, "dim { dim_param: \"N\" }") + " output " +
                    tensor_vi("W", 1, "dim { dim_param: \"N\" }") + " " + w));
    CHECK(symbolic.all.empty());
  }
  SUBCASE("IR 3: every initializer must be an input") {
    auto r = check(R"(ir_version: 3 opset_import { version: 8 } graph { name: "g" output )" +
                   tensor_vi("W") + " " + w + " }");
    CHECK(r.rules() == std::multiset<std::string>{"graph.initializer-not-input"});
  }
}

TEST_CASE("value_info") {
  SUBCASE("contradicting an input") {
    auto r =
        check(model("input " + tensor_vi("X") + " output " + tensor_vi("Y") + " value_info " +
                    tensor_vi("X", 7) + R"( node { op_type: "Relu" input: "X" output: "Y" })"));
    CHECK(r.rules() == std::multiset<std::string>{"graph.value-info-mismatch"});
  }
  SUBCASE("describing nothing, or twice: warnings") {
    auto r = check(model("input " + tensor_vi("X") + " output " + tensor_vi("Y") + " value_info " +
                         tensor_vi("Q") + " value_info " + tensor_vi("Y") + " value_info " +
                         tensor_vi("Y") + R"( node { op_type: "Relu" input: "X" output: "Y" })"));
    CHECK(r.errors == 0);
    CHECK(r.rules(Severity::warning) ==
          std::multiset<std::string>{"graph.value-info-unknown", "graph.duplicate-value-info"});
  }
}

namespace {

// If(cond) whose then/else branches are the given graph bodies.
std::string if_model(const std::string& then_body, const std::string& outer_extra = "") {
  const std::string branch_out = "output { name: \"r\" }";
  return model("input " + tensor_vi("c", 9, "") + " input " + tensor_vi("X") + " output " +
               tensor_vi("Y") + outer_extra +
               R"( node { name: "if" op_type: "If" input: "c" output: "Y"
                 attribute { name: "then_branch" type: GRAPH g { name: "t" )" +
               branch_out + " " + then_body + R"( } }
                 attribute { name: "else_branch" type: GRAPH g { name: "e" )" +
               branch_out + R"( node { op_type: "Relu" input: "X" output: "r" } } } })");
}

}  // namespace

TEST_CASE("subgraphs see outer values and may not shadow them") {
  SUBCASE("outer values are visible") {
    auto r = check(if_model(R"(node { op_type: "Neg" input: "X" output: "r" })"));
    CHECK(r.errors == 0);
  }
  SUBCASE("a node output reusing an outer name") {
    auto r = check(if_model(R"(node { op_type: "Neg" input: "X" output: "X" }
                               node { op_type: "Neg" input: "X" output: "r" })"));
    CHECK(r.rules() == std::multiset<std::string>{"graph.shadows-outer"});
    CHECK(r.find("graph.shadows-outer")->location ==
          "graph.node[0] \"if\" (If) attribute then_branch: node[0] (Neg)");
  }
  SUBCASE("a subgraph input reusing an outer name") {
    auto r =
        check(if_model(R"(input { name: "X" } node { op_type: "Neg" input: "X" output: "r" })"));
    CHECK(r.has("graph.shadows-outer"));
  }
  SUBCASE("a subgraph using a value the outer graph defines later") {
    auto r = check(model("input " + tensor_vi("c", 9, "") + " input " + tensor_vi("X") +
                         " output " + tensor_vi("Y") + " output " + tensor_vi("L") + R"(
      node { name: "if" op_type: "If" input: "c" output: "Y"
        attribute { name: "then_branch" type: GRAPH g { name: "t" output { name: "L" } } }
        attribute { name: "else_branch" type: GRAPH g { name: "e" output { name: "L" } } } }
      node { name: "late" op_type: "Relu" input: "X" output: "L" })"));
    CHECK(r.rules() ==
          std::multiset<std::string>{"graph.output-not-produced", "graph.output-not-produced"});
  }
  SUBCASE("a subgraph node using a later outer value") {
    auto r = check(model("input " + tensor_vi("c", 9, "") + " input " + tensor_vi("X") +
                         " output " + tensor_vi("Y") + " output " + tensor_vi("L") + R"(
      node { name: "if" op_type: "If" input: "c" output: "Y"
        attribute { name: "then_branch" type: GRAPH g { name: "t" output { name: "r" }
          node { op_type: "Neg" input: "L" output: "r" } } }
        attribute { name: "else_branch" type: GRAPH g { name: "e" output { name: "r" }
          node { op_type: "Neg" input: "X" output: "r" } } } }
      node { name: "late" op_type: "Relu" input: "X" output: "L" })"));
    CHECK(r.rules() == std::multiset<std::string>{"graph.not-topological"});
    CHECK(r.find("graph.not-topological")->message.find("graph.node[1] \"late\"") !=
          std::string::npos);
  }
  SUBCASE("IR 4+: a subgraph initializer may not also be a subgraph input") {
    auto r =
        check(if_model(R"(input { name: "k" } initializer { name: "k" data_type: 1 float_data: 1 }
                               node { op_type: "Add" input: "X" input: "k" output: "r" })"));
    CHECK(r.rules() == std::multiset<std::string>{"graph.subgraph-initializer-is-input"});
  }
}

TEST_CASE("names: C identifiers are a warning, an error under --strict; UTF-8 always") {
  const std::string t =
      model(R"(input { name: "x.1" type { tensor_type { elem_type: 1 shape { } } } }
      output { name: "y" type { tensor_type { elem_type: 1 shape { } } } }
      node { op_type: "Relu" input: "x.1" output: "y" })");
  auto r = check(t);
  CHECK(r.errors == 0);
  CHECK(r.rules(Severity::warning) == std::multiset<std::string>{"name.not-c-identifier"});
  CheckOptions strict;
  strict.strict = true;
  CHECK(check(t, strict).rules() == std::multiset<std::string>{"name.not-c-identifier"});
  auto bad = check(model(R"(input { name: "\377" type { tensor_type { elem_type: 1 shape { } } } }
      output { name: "\377" type { tensor_type { elem_type: 1 shape { } } } })"));
  CHECK(bad.rules() == std::multiset<std::string>{"string.not-utf8"});
}
