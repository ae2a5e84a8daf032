// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/fuse_channel_affine.h"

#include <utility>

#include "core/exec/passes/fusion_support.h"
#include "core/ir/graph.h"
#include "core/model/model.h"
#include "core/registry/attrs.h"
#include "core/util/format.h"

namespace onnxtool::exec_detail {

namespace {

class Fuser {
 public:
  Fuser(PlanContext& ctx, OpsetMap opsets) : support_(ctx, std::move(opsets)) {}

  void fuse_graph(ir::Graph& g);
  int64_t fused() const { return fused_; }

 private:
  bool try_fuse(ir::Graph& g, ir::Node& q);
  void replace_inputs(ir::Graph& g, ir::Node& p, ReplacedInputs& with);

  FusionSupport support_;
  int64_t fused_ = 0;
};

void Fuser::replace_inputs(ir::Graph& g, ir::Node& p, ReplacedInputs& with) {
  for (auto& [index, tensor] : with.inputs) {
    const std::string old = index < p.inputs().size() ? p.inputs()[index] : std::string();
    const std::string name = g.fresh_name((old.empty() ? p.outputs()[0] : old) + "_fused");
    (void)g.add_initializer(name, std::move(tensor));
    while (p.inputs().size() <= index) g.append_node_input(p, "");
    (void)g.set_node_input(p, static_cast<int>(index), name);
    FusionSupport::drop_if_unread(g, old);
  }
}

bool Fuser::try_fuse(ir::Graph& g, ir::Node& q) {
  if (q.inputs().empty() || q.outputs().empty() || q.outputs()[0].empty()) return false;
  const FusionSupport::Resolved qr = support_.resolve(q);
  if (!qr.schema || !qr.schema->channel_affine) return false;
  ir::Node* p = support_.sole_producer_for(g, q.inputs()[0], q);
  if (!p) return false;
  const FusionSupport::Resolved pr = support_.resolve(*p);
  if (!pr.schema || !pr.schema->absorb_channel_affine) return false;

  const AttrView q_attrs(qr.proto, qr.schema), p_attrs(pr.proto, pr.schema);
  ChannelAffine affine;
  if (!qr.schema->channel_affine(support_.describe(g, q, qr, q_attrs), affine)) return false;
  ReplacedInputs replaced;
  if (!pr.schema->absorb_channel_affine(support_.describe(g, *p, pr, p_attrs), affine, replaced))
    return false;

  replace_inputs(g, *p, replaced);
  const std::string y = q.outputs()[0];
  const std::vector<std::string> q_inputs = q.inputs();
  (void)g.remove_node(q, ir::Graph::Removal::force);
  (void)g.set_node_output(*p, 0, y);
  for (std::size_t i = 1; i < q_inputs.size(); ++i) FusionSupport::drop_if_unread(g, q_inputs[i]);
  ++fused_;
  return true;
}

void Fuser::fuse_graph(ir::Graph& g) {
  for (ir::Node* n : g.node_list())
    for (const auto& sub : n->subgraphs()) fuse_graph(*sub.graph);
  // node_list() is a snapshot; a fusion removes only the node being visited.
  for (ir::Node* n : g.node_list())
    if (n->subgraphs().empty()) try_fuse(g, *n);
}

}  // namespace

PassReport FuseChannelAffine::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  Fuser fuser(ctx_, model_opsets(model.header()));
  fuser.fuse_graph(*model.graph());
  PassReport report;
  report.changes = fuser.fused();
  report.summary =
      plural(static_cast<uint64_t>(fuser.fused()), "node") + " folded into the weights before them";
  return report;
}

}  // namespace onnxtool::exec_detail
