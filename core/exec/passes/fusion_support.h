// SPDX-License-Identifier: Apache-2.0
// What the executor's fusion passes share: resolving a node to the operator version whose hooks
// say what fuses (core/registry/fusion.h), the constants a hook sees, and the checks that a
// value between two nodes is theirs alone.
#pragma once

#include <map>
#include <string>
#include <utility>

#include "core/registry/binding.h"
#include "core/registry/fusion.h"
#include "core/types/tensor.h"
#include "onnx.pb.h"

namespace onnxtool {
struct OpVersion;
namespace ir {
class Graph;
class Node;
}  // namespace ir
}  // namespace onnxtool

namespace onnxtool::exec_detail {

struct PlanContext;

class FusionSupport {
 public:
  FusionSupport(PlanContext& ctx, OpsetMap opsets) : ctx_(ctx), opsets_(std::move(opsets)) {}

  // A node as the hooks see it: the operator version it runs as a kernel (nullptr when it does
  // not, or is unknown) and its proto (the attributes the hooks read).
  struct Resolved {
    const OpVersion* schema = nullptr;
    onnx::NodeProto proto;
  };
  Resolved resolve(const ir::Node& n) const;
  // The node's inputs as a hook sees them (constants decoded; they live as long as this).
  FusionNode describe(const ir::Graph& g, const ir::Node& n, const Resolved& r,
                      const AttrView& attrs);
  // The node producing `value` at output 0, its only output, when `reader` is the only reader
  // of value (no other node, no subgraph, no graph output); nullptr otherwise.
  ir::Node* sole_producer_for(ir::Graph& g, const std::string& value, const ir::Node& reader) const;
  // Removes an initializer of g nothing reads any more (not an input's default).
  static void drop_if_unread(ir::Graph& g, const std::string& name);

 private:
  const Tensor* constant(const ir::Graph& g, const std::string& name);

  PlanContext& ctx_;
  OpsetMap opsets_;
  std::map<std::pair<const ir::Graph*, std::string>, Tensor> values_;
};

}  // namespace onnxtool::exec_detail
