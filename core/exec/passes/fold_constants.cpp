// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/fold_constants.h"

#include <map>
#include <utility>

#include "core/exec/passes/constant_values.h"
#include "core/exec/planner.h"
#include "core/infer/engine.h"
#include "core/ir/graph.h"
#include "core/ir/location.h"
#include "core/model/model.h"
#include "core/registry/binding.h"
#include "core/registry/registry.h"
#include "core/util/format.h"
#include "onnx.pb.h"

namespace onnxtool::exec_detail {

namespace {

class Folder {
 public:
  Folder(PlanContext& ctx, OpsetMap opsets)
      : ctx_(ctx), opsets_(std::move(opsets)), constants_(ctx) {}

  void fold_graph(ir::Graph& g, const std::string& prefix);
  int64_t folded() const { return folded_; }
  int64_t bytes() const { return bytes_; }
  int64_t too_large() const { return too_large_; }

 private:
  bool can_define(const ir::Graph& g, const ir::Node& n) const;
  bool try_fold(ir::Graph& g, ir::Node& n, const std::string& prefix, int index);

  PlanContext& ctx_;
  OpsetMap opsets_;
  ConstantValues constants_;
  int64_t folded_ = 0, bytes_ = 0, too_large_ = 0;
};

// Whether each output of n can become an initializer of g (a malformed graph may define the
// name elsewhere too).
bool Folder::can_define(const ir::Graph& g, const ir::Node& n) const {
  for (const auto& out : n.outputs()) {
    if (out.empty()) continue;
    const auto def = g.find_local(out);
    if (!def || def->kind != ir::ValueKind::node_output || def->node != &n) return false;
    if (g.parent() && g.parent()->resolve(out)) return false;
  }
  return true;
}

bool Folder::try_fold(ir::Graph& g, ir::Node& n, const std::string& prefix, int index) {
  if (!can_define(g, n)) return false;
  onnx::NodeProto own;
  const onnx::NodeProto* proto = n.origin();
  if (!proto) {
    n.to_proto(own);
    proto = &own;
  }
  const OpResolution r = resolve_operator(ctx_.registry, opsets_, &ctx_.functions, *proto);
  if (!runs_kernel(ctx_, r) || r.schema->has(Trait::nondeterministic)) return false;
  if (ctx_.keep_dequantizations && r.schema->dequantize) return false;

  PlanNode pn;
  std::vector<const Value*> inputs;
  for (std::size_t i = 0; i < n.inputs().size(); ++i) {
    const std::string& name = n.inputs()[i];
    if (name.empty()) {
      inputs.push_back(nullptr);
      pn.inputs.emplace_back(std::nullopt);
      continue;
    }
    const Value* v = constants_.find(g, name);
    if (!v) return false;
    inputs.push_back(v);
    pn.inputs.push_back(ValueRef{0, true, static_cast<int>(i)});
  }
  pn.location = node_location(prefix, index, *proto);
  bind_kernel(pn, *proto, r);
  const GraphResult* inferred =
      ctx_.inferred && g.origin() ? ctx_.inferred->graph_of(g.origin()) : nullptr;
  prepare_node(pn, inputs, inferred, ctx_.threads);
  std::vector<Value> outs;
  try {
    outs = ctx_.runner.invoke(pn, inputs, nullptr);
  } catch (const Error&) {
    return false;  // left in the graph: the same error then surfaces when the node runs
  }
  const std::vector<std::string> names = n.outputs();
  outs.resize(names.size());
  uint64_t out_bytes = 0, in_bytes = 0;
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) continue;
    if (!outs[i].is_tensor() || !outs[i].tensor().defined()) return false;
    out_bytes += outs[i].tensor().nbytes();
  }
  for (const Value* v : inputs)
    if (v && v->is_tensor()) in_bytes += v->tensor().nbytes();
  if (out_bytes > ctx_.max_folded_bytes && out_bytes > in_bytes) {
    ++too_large_;
    return false;
  }

  (void)g.remove_node(n, ir::Graph::Removal::force);
  for (std::size_t i = 0; i < names.size(); ++i) {
    if (names[i].empty()) continue;
    const Tensor& t = outs[i].tensor();
    bytes_ += static_cast<int64_t>(t.nbytes());
    // can_define() made sure the name is free in this scope.
    (void)g.add_initializer(names[i], t);
  }
  ++folded_;
  return true;
}

void Folder::fold_graph(ir::Graph& g, const std::string& prefix) {
  int index = 0;
  for (ir::Node* n : g.node_list()) {
    const int at = n->stored_index() >= 0 ? n->stored_index() : index;
    ++index;
    // A node with subgraphs is never folded itself; what its subgraphs compute from constants
    // alone (theirs and their enclosing graphs') is.
    if (!n->subgraphs().empty()) {
      const std::string location = node_location(prefix, at, n->proto());
      for (const auto& sub : n->subgraphs())
        fold_graph(*sub.graph, subgraph_prefix(location, sub.attribute, sub.list_index));
      continue;
    }
    try_fold(g, *n, prefix, at);
  }
}

}  // namespace

PassReport FoldConstants::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  Folder folder(ctx_, model_opsets(model.header()));
  folder.fold_graph(*model.graph(), kMainGraphPrefix);
  ctx_.stats.folded_nodes += folder.folded();
  ctx_.stats.constant_bytes += folder.bytes();
  ctx_.stats.fold_too_large += folder.too_large();
  PassReport report;
  report.changes = folder.folded();
  report.summary = plural(static_cast<uint64_t>(folder.folded()), "node") +
                   " folded into constants (" + human_bytes(static_cast<uint64_t>(folder.bytes())) +
                   ")";
  return report;
}

}  // namespace onnxtool::exec_detail
