// SPDX-License-Identifier: Apache-2.0
#include "core/exec/function_body.h"

#include "core/registry/schema.h"
#include "core/text/parser.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace {

// The registry's bodies are the ONNX textual syntax, so core/text's parser is the default; a
// parse error surfaces as the planner's exec.bad-function, naming the operator version.
std::shared_ptr<const onnx::FunctionProto> parse_registry_body(const OpVersion& v) {
  auto f = std::make_shared<onnx::FunctionProto>();
  text::parse_function_text(v.function_body, *f, v.id() + " function body");
  return f;
}

FunctionBodyParser& parser_slot() {
  static FunctionBodyParser parser = parse_registry_body;
  return parser;
}

void substitute_in_graph(onnx::GraphProto& graph, const exec_detail::AttrSource& actual);

// Resolves references in place; returns false when the attribute must be dropped (a reference
// to an attribute the caller did not give and that has no default).
bool substitute_attribute(onnx::AttributeProto& a, const exec_detail::AttrSource& actual) {
  if (!a.ref_attr_name().empty()) {
    const onnx::AttributeProto* value = actual(a.ref_attr_name());
    if (!value) return false;
    const std::string name = a.name();
    a = *value;
    a.set_name(name);
    a.clear_ref_attr_name();
    return true;
  }
  if (a.has_g()) substitute_in_graph(*a.mutable_g(), actual);
  for (auto& g : *a.mutable_graphs()) substitute_in_graph(g, actual);
  return true;
}

void substitute_in_node(onnx::NodeProto& node, const exec_detail::AttrSource& actual) {
  auto* attrs = node.mutable_attribute();
  for (int i = attrs->size() - 1; i >= 0; --i)
    if (!substitute_attribute(*attrs->Mutable(i), actual)) attrs->DeleteSubrange(i, 1);
}

void substitute_in_graph(onnx::GraphProto& graph, const exec_detail::AttrSource& actual) {
  for (auto& node : *graph.mutable_node()) substitute_in_node(node, actual);
}

}  // namespace

void set_default_function_body_parser(FunctionBodyParser parser) {
  parser_slot() = std::move(parser);
}

const FunctionBodyParser& default_function_body_parser() {
  return parser_slot();
}

namespace exec_detail {

std::unique_ptr<onnx::NodeProto> substitute_attributes(const onnx::NodeProto& body_node,
                                                       const AttrSource& actual) {
  auto node = std::make_unique<onnx::NodeProto>(body_node);
  substitute_in_node(*node, actual);
  return node;
}

}  // namespace exec_detail
}  // namespace onnxtool
