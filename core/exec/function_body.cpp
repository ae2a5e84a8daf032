// SPDX-License-Identifier: Apache-2.0
#include "core/exec/function_body.h"

#include "core/registry/binding.h"
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
  substitute_attribute_refs(*node, actual);
  return node;
}

}  // namespace exec_detail
}  // namespace onnxtool
