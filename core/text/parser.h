// SPDX-License-Identifier: Apache-2.0
// Parsing the ONNX textual syntax (Syntax.md) and onnxtool's extensions of it (README "Textual
// syntax") into a ModelProto.
//
// Errors are onnxtool Errors (kind invalid, rule "text.*") located "line:column" in the text,
// saying what was expected and what was found. Any input gives a model or such an error, never
// a crash or a hang: nesting is bounded, numbers are range-checked, strings must be UTF-8.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types/npz.h"

namespace onnx {
class ModelProto;
class GraphProto;
class TypeProto;
class FunctionProto;
}  // namespace onnx

namespace onnxtool::text {

struct TextParseOptions {
  std::string file;  // names the text in messages
  // Reads the sidecar the header names (`%npz: "model.npz"`); called at most once, at the
  // first `%npz "member"` reference. Unset: such references are an error.
  std::function<std::vector<NamedTensor>(const std::string& sidecar)> load_sidecar;
};

void parse_model_text(std::string_view text, onnx::ModelProto& model,
                      const TextParseOptions& options = {});
// A graph alone: `name (inputs) => (outputs) <locals> { nodes }`.
void parse_graph_text(std::string_view text, onnx::GraphProto& graph,
                      const TextParseOptions& options = {});
// One function alone: `<domain: "...", opset_import: [...]> Name <attrs> (inputs) => (outputs)
// { nodes }` (what OpVersion::function_body holds). `file` names the text in messages.
void parse_function_text(std::string_view text, onnx::FunctionProto& f, const std::string& file);
// A type alone: `float[N,3]`, `seq(int64)`, ...
void parse_type_text(std::string_view text, onnx::TypeProto& type,
                     const TextParseOptions& options = {});

}  // namespace onnxtool::text
