// SPDX-License-Identifier: Apache-2.0
// What the control-flow operators (If, Loop, Scan) share for plain `check`: finding a body and
// saying that its inputs or outputs do not fit the node (rule subgraph.arity).
#pragma once

#include <string>

#include "core/registry/schema.h"
#include "onnx.pb.h"

namespace onnxtool::ops {

// The graph attribute `name` of the node, or nullptr (attr.missing-required reports that).
inline const onnx::GraphProto* body_attribute(const onnx::NodeProto& node, const char* name) {
  for (const auto& a : node.attribute())
    if (a.name() == name && a.has_g()) return &a.g();
  return nullptr;
}

// Reports subgraph.arity when `body` has `have` inputs (or outputs: `what`) where the node
// needs `want`; `why` says how the node's own counts give that number.
inline void expect_body_count(const StructureContext& s, const char* body, const char* what,
                              int have, int want, const std::string& why) {
  if (have == want) return;
  s.report("subgraph.arity", std::string(body) + " has " + std::to_string(have) + " " + what +
                                 "; expected " + std::to_string(want) + " (" + why + ")");
}

}  // namespace onnxtool::ops
