// SPDX-License-Identifier: Apache-2.0
// The checker's node pass against a registry built in the test (so it holds whatever the
// generated signatures say): domains, unknown and deprecated operators, arity, attributes,
// type constraints where types are declared, custom domains, model-local function calls.
#include <doctest/doctest.h>

#include <google/protobuf/text_format.h>

#include <algorithm>
#include <set>
#include <string>

#include "core/check/check.h"
#include "core/registry/registry.h"
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

// test.ops:
//   Scale-1 (X: T, S: T optional) -> Y: T; T in {float, double}; alpha: float required,
//          mode: string = "linear"
//   Scale-3 deprecated
//   Concat-1 (inputs: T variadic >= 1) -> Y: T; T in {float, int64}
//   Pick-1 (X: tensor(int64)) -> Y: tensor(int64)
//   Exp-1 experimental (X: T) -> Y: T
// and in the default domain Constant-1 () -> output: T, with the attribute_value trait.
const Registry& test_registry() {
  static const Registry* r = [] {
    auto* reg = new Registry();
    OpDef& scale = reg->add("test.ops", "Scale");
    scale.since(1)
        .attr_required("alpha", AttrType::f)
        .attr("mode", AttrType::s, std::string("linear"))
        .input("X", "T")
        .input_optional("S", "T")
        .output("Y", "T")
        .constraint("T", {"tensor(float)", "tensor(double)"});
    scale.since(3).deprecated();
    reg->add("test.ops", "Concat")
        .since(1)
        .input_variadic("inputs", "T", 1)
        .output("Y", "T")
        .constraint("T", {"tensor(float)", "tensor(int64)"});
    reg->add("test.ops", "Pick").since(1).input("X", "tensor(int64)").output("Y", "tensor(int64)");
    reg->add("test.ops", "Exp")
        .since(1)
        .experimental()
        .input("X", "T")
        .output("Y", "T")
        .constraint("T", {"tensor(float)"});
    reg->add("", "Constant")
        .since(1)
        .attr_optional("value_floats", AttrType::floats)
        .output("output", "T")
        .constraint("T", {"tensor(float)"})
        .trait(Trait::attribute_value);
    return reg;
  }();
  return *r;
}

struct Result {
  std::vector<Diagnostic> all;
  std::multiset<std::string> rules(Severity s = Severity::error) const {
    std::multiset<std::string> out;
    for (const auto& d : all)
      if (d.severity == s) out.insert(d.rule);
    return out;
  }
  const Diagnostic* find(const std::string& rule) const {
    for (const auto& d : all)
      if (d.rule == rule) return &d;
    return nullptr;
  }
};

using Rules = std::multiset<std::string>;

std::string vi(const std::string& name, int elem = 1) {
  return "{ name: \"" + name + "\" type { tensor_type { elem_type: " + std::to_string(elem) +
         " shape { dim { dim_value: 2 } } } } }";
}

// One node of test.ops (version `v`) between typed inputs and outputs.
Result run(const std::string& node, const std::string& io, int v = 1,
           const std::string& extra = "") {
  const std::string text = R"(ir_version: 10 opset_import { version: 21 }
    opset_import { domain: "test.ops" version: )" +
                           std::to_string(v) + " } " + extra + R"( graph { name: "g" )" + io +
                           " node { domain: \"test.ops\" " + node + " } }";
  onnx::ModelProto m;
  REQUIRE_MESSAGE(google::protobuf::TextFormat::ParseFromString(text, &m), text);
  CheckOptions opt;
  opt.registry = &test_registry();
  DiagSink sink;
  check_model(m, opt, sink);
  return {sink.diagnostics()};
}

const std::string kXY = "input " + vi("X") + " output " + vi("Y");
const std::string kAlpha = R"(attribute { name: "alpha" type: FLOAT f: 2 })";

}  // namespace

TEST_CASE("a node that satisfies its schema") {
  auto r = run(R"(op_type: "Scale" input: "X" output: "Y" )" + kAlpha, kXY);
  CHECK(r.all.empty());
  // The optional input given as "" and a trailing one omitted are both fine.
  auto r2 = run(R"(op_type: "Scale" input: "X" input: "" output: "Y" )" + kAlpha, kXY);
  CHECK(r2.all.empty());
}

TEST_CASE("operators and domains") {
  SUBCASE("unknown operator in a known domain") {
    auto r = run(R"(op_type: "Nope" input: "X" output: "Y")", kXY);
    CHECK(r.rules() == Rules{"node.unknown-op"});
    CHECK(r.find("node.unknown-op")->location == "graph.node[0] (test.ops.Nope)");
  }
  SUBCASE("an operator newer than the imported version") {
    const std::string text = R"(ir_version: 10 opset_import { version: 21 }
      graph { name: "g" input { name: "X" type { tensor_type { elem_type: 1 shape { } } } }
        output { name: "Y" type { tensor_type { elem_type: 1 shape { } } } }
        node { op_type: "Gelu" input: "X" output: "Y" } })";
    onnx::ModelProto m;
    REQUIRE(google::protobuf::TextFormat::ParseFromString(text, &m));
    m.mutable_opset_import(0)->set_version(17);
    DiagSink sink;
    check_model(m, {}, sink);
    REQUIRE(sink.errors() == 1);
    CHECK(sink.diagnostics()[0].rule == "node.unknown-op");
    CHECK(sink.diagnostics()[0].message.find("first appears in version 20") != std::string::npos);
  }
  SUBCASE("deprecated at the imported version") {
    auto r = run(R"(op_type: "Scale" input: "X" output: "Y" )" + kAlpha, kXY, 3);
    CHECK(r.rules() == Rules{"node.deprecated-op"});
  }
  SUBCASE("experimental is a warning") {
    auto r = run(R"(op_type: "Exp" input: "X" output: "Y")", kXY);
    CHECK(r.rules().empty());
    CHECK(r.rules(Severity::warning) == Rules{"node.experimental-op"});
  }
  SUBCASE("a domain that is not imported") {
    const std::string text = R"(ir_version: 10 opset_import { version: 21 } graph { name: "g"
        input { name: "X" type { tensor_type { elem_type: 1 shape { } } } }
        output { name: "Y" type { tensor_type { elem_type: 1 shape { } } } }
        node { domain: "test.ops" op_type: "Scale" input: "X" output: "Y" } })";
    onnx::ModelProto m;
    REQUIRE(google::protobuf::TextFormat::ParseFromString(text, &m));
    CheckOptions opt;
    opt.registry = &test_registry();
    DiagSink sink;
    check_model(m, opt, sink);
    REQUIRE(sink.errors() == 1);
    CHECK(sink.diagnostics()[0].rule == "node.domain-not-imported");
  }
  SUBCASE("a custom domain is noted once and checked structurally") {
    const std::string text = R"(ir_version: 10 opset_import { version: 21 }
      opset_import { domain: "com.example" version: 1 }
      graph { name: "g" input { name: "X" type { tensor_type { elem_type: 1 shape { } } } }
        output { name: "Z" type { tensor_type { elem_type: 1 shape { } } } }
        node { domain: "com.example" op_type: "Fancy" input: "X" output: "Y" }
        node { domain: "com.example" op_type: "Fancy" input: "Y" output: "Z"
          attribute { name: "a" type: INT i: 1 f: 2 } } })";
    onnx::ModelProto m;
    REQUIRE(google::protobuf::TextFormat::ParseFromString(text, &m));
    DiagSink sink;
    check_model(m, {}, sink);
    std::multiset<std::string> notes, errors;
    for (const auto& d : sink.diagnostics())
      (d.severity == Severity::note ? notes : errors).insert(d.rule);
    CHECK(notes == Rules{"node.custom-domain"});
    CHECK(errors == Rules{"attr.multiple-values"});
  }
  SUBCASE("no op_type, no outputs") {
    auto r = run(R"(input: "X")", "input " + vi("X") + " output " + vi("X"));
    CHECK(r.rules() == Rules{"node.missing-op-type", "node.no-outputs"});
  }
}

TEST_CASE("arity") {
  SUBCASE("too many inputs") {
    auto r = run(R"(op_type: "Scale" input: "X" input: "X" input: "X" output: "Y" )" + kAlpha, kXY);
    CHECK(r.rules() == Rules{"node.input-arity"});
    CHECK(r.find("node.input-arity")->message == "has 3 inputs, test.ops.Scale-1 takes 1 to 2");
  }
  SUBCASE("no output") {
    auto r = run(R"(op_type: "Pick" input: "X" output: "")", "input " + vi("X", 7));
    CHECK(r.rules() == Rules{"node.missing-output"});
  }
  SUBCASE("too few variadic inputs") {
    auto r = run(R"(op_type: "Concat" output: "Y")", "output " + vi("Y"));
    CHECK(r.rules() == Rules{"node.input-arity"});
    CHECK(r.find("node.input-arity")->message.find("at least 1") != std::string::npos);
  }
  SUBCASE("a required input left empty") {
    auto r = run(R"(op_type: "Scale" input: "" input: "X" output: "Y" )" + kAlpha, kXY);
    CHECK(r.rules() == Rules{"node.missing-input"});
  }
}

TEST_CASE("attributes") {
  SUBCASE("required missing") {
    auto r = run(R"(op_type: "Scale" input: "X" output: "Y")", kXY);
    CHECK(r.rules() == Rules{"attr.missing-required"});
    CHECK(r.find("attr.missing-required")->message ==
          "required attribute alpha (float) is missing");
  }
  SUBCASE("unknown") {
    auto r = run(
        R"(op_type: "Scale" input: "X" output: "Y" attribute { name: "beta" type: INT i: 1 } )" +
            kAlpha,
        kXY);
    CHECK(r.rules() == Rules{"attr.unknown"});
    CHECK(r.find("attr.unknown")->location == "graph.node[0] (test.ops.Scale) attribute beta");
  }
  SUBCASE("internal names (__x) are skipped") {
    auto r =
        run(R"(op_type: "Scale" input: "X" output: "Y" attribute { name: "__x" type: INT i: 1 } )" +
                kAlpha,
            kXY);
    CHECK(r.all.empty());
  }
  SUBCASE("wrong type") {
    auto r =
        run(R"(op_type: "Scale" input: "X" output: "Y" attribute { name: "alpha" type: INT i: 2 })",
            kXY);
    CHECK(r.rules() == Rules{"attr.type-mismatch"});
    CHECK(r.find("attr.type-mismatch")->message == "is int, test.ops.Scale-1 expects float");
  }
  SUBCASE("twice") {
    auto r = run(R"(op_type: "Scale" input: "X" output: "Y" )" + kAlpha + " " + kAlpha, kXY);
    CHECK(r.rules() == Rules{"attr.duplicate"});
  }
  SUBCASE("malformed: no name, no type, no value, two values, type and field disagree") {
    auto r = run(R"(op_type: "Scale" input: "X" output: "Y" )" + kAlpha + R"(
        attribute { type: STRING s: "x" }
        attribute { name: "mode" s: "x" }
        attribute { name: "__a" type: TENSOR }
        attribute { name: "__b" type: INT i: 1 f: 1 }
        attribute { name: "__c" type: INT f: 1 }
        attribute { name: "__d" type: INTS })",
                 kXY);
    CHECK(r.rules() == Rules{"attr.missing-name", "attr.missing-type", "attr.no-value",
                             "attr.multiple-values", "attr.value-type-mismatch"});
  }
  SUBCASE("ref_attr_name outside a function") {
    auto r = run(
        R"(op_type: "Scale" input: "X" output: "Y" attribute { name: "alpha" type: FLOAT ref_attr_name: "a" })",
        kXY);
    CHECK(r.rules() == Rules{"attr.ref-outside-function"});
  }
}

TEST_CASE("type constraints where types are declared") {
  SUBCASE("a type the constraint does not allow") {
    auto r = run(R"(op_type: "Scale" input: "X" output: "Y" )" + kAlpha,
                 "input " + vi("X", 6) + " output " + vi("Y", 6));
    CHECK(r.rules() == Rules{"node.type-not-allowed", "node.type-not-allowed"});
    CHECK(r.find("node.type-not-allowed")->message ==
          "input 0 \"X\" (X) is tensor(int32), which test.ops.Scale-1 does not allow for T; "
          "expected tensor(float), tensor(double)");
  }
  SUBCASE("one constraint bound to two types") {
    auto r = run(R"(op_type: "Scale" input: "X" input: "D" output: "Y" )" + kAlpha,
                 "input " + vi("X") + " input " + vi("D", 11) + " output " + vi("Y"));
    CHECK(r.rules() == Rules{"node.type-inconsistent"});
  }
  SUBCASE("variadic inputs bind one type") {
    auto r = run(R"(op_type: "Concat" input: "X" input: "I" output: "Y")",
                 "input " + vi("X") + " input " + vi("I", 7) + " output " + vi("Y"));
    CHECK(r.rules() == Rules{"node.type-inconsistent"});
  }
  SUBCASE("a literal type") {
    auto r = run(R"(op_type: "Pick" input: "X" output: "Y")",
                 "input " + vi("X", 6) + " output " + vi("Y", 7));
    CHECK(r.rules() == Rules{"node.type-not-allowed"});
  }
  SUBCASE("initializers and Constant outputs have evident types") {
    auto r = run(
        R"(op_type: "Pick" input: "C" output: "Y")",
        "output " + vi("Y", 7) +
            R"( node { op_type: "Constant" output: "C" attribute { name: "value_floats" type: FLOATS floats: 1 } })");
    // The checker asks the operator's traits, not its name, whether the output's type comes from
    // an attribute: the test registry's Constant declares attribute_value.
    CHECK(r.rules() == Rules{"node.type-not-allowed"});
    auto init = run(R"(op_type: "Pick" input: "W" output: "Y")",
                    "output " + vi("Y", 7) +
                        R"( initializer { name: "W" data_type: 1 dims: 1 float_data: 1 })");
    CHECK(init.rules() == Rules{"node.type-not-allowed"});
  }
  SUBCASE("unknown types are not guessed") {
    auto r = run(
        R"(op_type: "Scale" input: "X" output: "Y" )" + kAlpha,
        R"(input { name: "X" type { tensor_type { elem_type: 0 shape {} } } } output { name: "Y" type { tensor_type { elem_type: 1 shape {} } } })");
    CHECK(r.rules() == Rules{"type.missing-elem-type"});
  }
}

TEST_CASE("calls to model-local functions") {
  const std::string fn =
      R"(functions { name: "F" domain: "local" input: "a" output: "b" attribute: "k"
      opset_import { version: 21 } node { op_type: "Relu" input: "a" output: "b" } })";
  auto call = [&](const std::string& node) {
    const std::string text =
        R"(ir_version: 10 opset_import { version: 21 }
      opset_import { domain: "local" version: 1 } )" +
        fn +
        R"( graph { name: "g" input { name: "X" type { tensor_type { elem_type: 1 shape { } } } }
        output { name: "Y" type { tensor_type { elem_type: 1 shape { } } } } node { domain: "local" )" +
        node + " } }";
    onnx::ModelProto m;
    REQUIRE(google::protobuf::TextFormat::ParseFromString(text, &m));
    DiagSink sink;
    check_model(m, {}, sink);
    return Result{sink.diagnostics()};
  };
  CHECK(call(R"(op_type: "F" input: "X" output: "Y" attribute { name: "k" type: INT i: 1 })")
            .all.empty());
  CHECK(call(R"(op_type: "F" input: "X" input: "X" output: "Y")").rules() ==
        Rules{"node.input-arity"});
  CHECK(call(R"(op_type: "F" input: "X" output: "Y" attribute { name: "z" type: INT i: 1 })")
            .rules() == Rules{"attr.unknown"});
  CHECK(call(R"(op_type: "F" overload: "v2" input: "X" output: "Y")").rules() ==
        Rules{"node.unknown-op"});
  // Another operator of that domain may be a runtime's custom operator: noted, not rejected.
  CHECK(call(R"(op_type: "G" input: "X" output: "Y")").rules().empty());
}
