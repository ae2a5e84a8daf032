// SPDX-License-Identifier: Apache-2.0
// Function calls for the executor: the parser hook for the spec's function bodies, and the
// rewrite of a body node for one call site (attribute references resolved).
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "core/exec/session.h"
#include "core/registry/binding.h"

namespace onnx {
class AttributeProto;
class NodeProto;
class FunctionProto;
}  // namespace onnx

namespace onnxtool {

// The parser used for OpVersion::function_body when SessionOptions::function_parser is unset:
// core/text's parse_function_text unless replaced. Replace once at start-up (not thread-safe
// against running sessions); an empty parser makes body-only operators "no kernel" again.
void set_default_function_body_parser(FunctionBodyParser parser);
const FunctionBodyParser& default_function_body_parser();

namespace exec_detail {

// The value an attribute reference (@name) stands for at a call site: the caller's attribute,
// else the function's default; nullptr when neither exists (the attribute is then omitted).
using AttrSource = AttributeSource;

// A copy of a body node with every attribute reference (ref_attr_name), including those inside
// its subgraphs, replaced by the actual value.
std::unique_ptr<onnx::NodeProto> substitute_attributes(const onnx::NodeProto& body_node,
                                                       const AttrSource& actual);

}  // namespace exec_detail
}  // namespace onnxtool
