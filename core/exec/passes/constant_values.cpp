// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/constant_values.h"

#include "core/exec/planner.h"
#include "core/ir/graph.h"
#include "onnx.pb.h"

namespace onnxtool::exec_detail {

const Value* ConstantValues::find(const ir::Graph& g, const std::string& name) {
  if (name.empty()) return nullptr;
  const auto def = g.resolve(name);
  if (!def) return nullptr;
  const ir::Graph& owner = *def->graph;
  bool fixed =
      def->kind == ir::ValueKind::initializer || def->kind == ir::ValueKind::sparse_initializer;
  // A main-graph input's default counts when the caller says no run will feed it.
  if (def->kind == ir::ValueKind::graph_input && !owner.parent() && ctx_.defaults_as_constants &&
      owner.initializer(name))
    fixed = true;
  return fixed ? decode(owner, name) : nullptr;
}

const Value* ConstantValues::decode(const ir::Graph& owner, const std::string& name) {
  const auto key = std::make_pair(&owner, name);
  if (auto it = values_.find(key); it != values_.end()) return &it->second;
  try {
    Value v;
    if (const ir::Initializer* init = owner.initializer(name)) {
      v = initializer_value(ctx_.model, *init, name);
    } else {
      const onnx::SparseTensorProto* sparse = nullptr;
      for (const auto& sp : owner.sparse_initializers())
        if (sp.values().name() == name) sparse = &sp;
      if (!sparse) return nullptr;
      v = sparse_initializer_value(ctx_.model, *sparse, name);
    }
    return &values_.emplace(key, std::move(v)).first->second;
  } catch (const Error&) {
    return nullptr;
  }
}

}  // namespace onnxtool::exec_detail
