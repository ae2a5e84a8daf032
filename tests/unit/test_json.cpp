// SPDX-License-Identifier: Apache-2.0
// ModelProto as JSON: protobuf's JSON mapping both ways, exact within what the mapping carries.
#include <doctest/doctest.h>
#include <google/protobuf/unknown_field_set.h>

#include <cmath>

#include "core/diag/error.h"
#include "core/text/json.h"
#include "onnx.pb.h"
#include "tests/support/builders.h"
#include "tests/unit/test_text_support.h"

using namespace onnxtool;
using namespace onnxtool::test;

namespace {

onnx::ModelProto from_json(const std::string& json) {
  onnx::ModelProto m;
  text::model_from_json(json, "m.json", m);
  return m;
}

std::string rule_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    CHECK(e.message().find('\n') == std::string::npos);
    return e.rule();
  }
  return "";
}

}  // namespace

TEST_CASE("JSON uses the protobuf mapping: camelCase names, base64 bytes, int64 as strings") {
  const std::string json = text::model_to_json(tiny_model());
  CHECK(json.find("\"irVersion\": \"8\"") != std::string::npos);
  CHECK(json.find("\"opType\": \"MatMul\"") != std::string::npos);
  CHECK(json.find("\"rawData\": \"") != std::string::npos);
  CHECK(json.back() == '\n');
  CHECK(exactly_equal(tiny_model(), from_json(json)));
}

TEST_CASE("JSON input takes the original field names too") {
  const auto m = from_json(R"({"ir_version": "7", "opsetImport": [{"domain": "", "version": 13}],
      "graph": {"name": "g", "node": [{"op_type": "Relu", "input": ["x"], "output": ["y"]}]}})");
  CHECK(m.ir_version() == 7);
  CHECK(m.graph().node(0).op_type() == "Relu");
  CHECK(m.opset_import(0).has_domain());
}

TEST_CASE("presence of empty fields and negative zero survive JSON") {
  onnx::ModelProto m;
  m.set_producer_name("");
  auto* n = m.mutable_graph()->add_node();
  n->set_domain("");
  auto* a = n->add_attribute();
  a->set_name("f");
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(-0.0f);
  auto* t = m.mutable_graph()->add_initializer();
  t->add_double_data(-0.0);
  t->add_float_data(-0.0f);
  const auto back = from_json(text::model_to_json(m));
  CHECK(back.has_producer_name());
  CHECK(back.graph().node(0).has_domain());
  CHECK(std::signbit(back.graph().node(0).attribute(0).f()));
  CHECK(std::signbit(back.graph().initializer(0).double_data(0)));
  CHECK(exactly_equal(m, back));
}

TEST_CASE("what the JSON mapping cannot carry is refused, not silently changed") {
  onnx::ModelProto m;
  m.mutable_graph()->add_node()->set_name(std::string("\xff\xfe", 2));
  CHECK(rule_of([&] { text::model_to_json(m); }) == "json.not-utf8");
  // Fields onnx.proto does not define (a newer writer's, or damage), on the model and deeper:
  // the binary and text formats keep them, protobuf's JSON mapping would drop them.
  for (bool nested : {false, true}) {
    CAPTURE(nested);
    onnx::ModelProto u;
    u.set_ir_version(10);
    auto* node = u.mutable_graph()->add_node();
    google::protobuf::UnknownFieldSet* unknown =
        nested ? node->GetReflection()->MutableUnknownFields(node)
               : u.GetReflection()->MutableUnknownFields(&u);
    unknown->AddFixed64(12, 0x646e656b630c0712ULL);
    std::string message;
    try {
      text::model_to_json(u);
    } catch (const Error& e) {
      message = e.what();
      CHECK(e.diagnostic().rule == "json.unknown-fields");
    }
    CHECK(message.find(nested ? "graph.node[0] has fields" : "model has fields") !=
          std::string::npos);
  }
}

TEST_CASE("malformed JSON gives one line naming the problem") {
  CHECK(rule_of([] { from_json(""); }) == "json.syntax");
  CHECK(rule_of([] { from_json("[1, 2]"); }) == "json.not-a-model");
  CHECK(rule_of([] { from_json("{\"irVersion\": }"); }) == "json.syntax");
  CHECK(rule_of([] { from_json("{\"irVersion\": \"8\""); }) == "json.syntax");
  CHECK(rule_of([] { from_json("{\"noSuchField\": 1}"); }) == "json.syntax");
  CHECK(rule_of([] { from_json("{\"graph\": {\"node\": 5}}"); }) == "json.syntax");
  try {
    from_json("{\"irVersion\": x}");
  } catch (const Error& e) {
    CHECK(e.file() == "m.json");
    CHECK(e.message().rfind("not a ModelProto in JSON: ", 0) == 0);
  }
}
