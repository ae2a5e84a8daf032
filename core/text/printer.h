// SPDX-License-Identifier: Apache-2.0
// Printing a ModelProto in the ONNX textual syntax (Syntax.md), exactly: parse_model_text of the
// result (with its sidecar) gives back a message equal to the original, field for field,
// including storage forms, presence of empty fields and everything the official syntax cannot
// express (README "Textual syntax" lists the extensions, all introduced by '%').
//
// Tensors with more than inline_limit elements go to a sidecar .npz (one member per tensor,
// bit-exact for every element type) referenced from the text; tensors whose data is in external
// files stay references. Without a sidecar name everything is inline.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/types/npz.h"

namespace onnx {
class ModelProto;
class GraphProto;
}  // namespace onnx

namespace onnxtool::text {

struct TextPrintOptions {
  int64_t inline_limit = 64;  // tensors with more elements than this go to the sidecar
  std::string sidecar_name;   // the sidecar file as the text names it; "" keeps all inline
};

struct PrintedText {
  std::string text;
  std::vector<NamedTensor> sidecar;  // members for TextPrintOptions::sidecar_name
};

// `owner` keeps `model` alive: when given, sidecar tensors view the model's raw_data instead of
// copying it.
PrintedText print_model_text(const onnx::ModelProto& model, const TextPrintOptions& options = {},
                             std::shared_ptr<const void> owner = nullptr);

// A graph on its own, every tensor inline (for messages and tests).
std::string print_graph_text(const onnx::GraphProto& graph);

// Whether a name prints bare: an identifier that is not a keyword of the syntax (a type name,
// seq, map, optional, sparse_tensor, opaque, inf, infinity, nan).
bool prints_bare(const std::string& name);

}  // namespace onnxtool::text
