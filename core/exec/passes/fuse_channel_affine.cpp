// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/fuse_channel_affine.h"

#include <utility>

#include "core/exec/passes/fusion_support.h"
#include "core/ir/graph.h"
#include "core/model/model.h"
#include "core/registry/attrs.h"
#include "core/registry/schema.h"
#include "core/util/format.h"

namespace onnxtool::exec_detail {

namespace {

void replace_inputs(ir::Graph& g, ir::Node& p, ReplacedInputs& with) {
  for (auto& [index, tensor] : with.inputs) {
    const std::string old = index < p.inputs().size() ? p.inputs()[index] : std::string();
    const std::string name = g.fresh_name((old.empty() ? p.outputs()[0] : old) + "_fused");
    (void)g.add_initializer(name, std::move(tensor));
    while (p.inputs().size() <= index) g.append_node_input(p, "");
    (void)g.set_node_input(p, static_cast<int>(index), name);
    FusionSupport::drop_if_unread(g, old);
  }
}

bool fold_affine(FusionSupport& support, ir::Graph& g, ir::Node& q) {
  const auto pair = support.pair_with_producer(
      g, q, [](const OpVersion& v) { return static_cast<bool>(v.channel_affine); },
      [](const OpVersion& v) { return static_cast<bool>(v.absorb_channel_affine); });
  if (!pair) return false;
  ir::Node* p = pair->p;
  const FusionSupport::Resolved &qr = pair->q_op, &pr = pair->p_op;
  const AttrView q_attrs(*qr.proto, qr.schema), p_attrs(*pr.proto, pr.schema);
  ChannelAffine affine;
  if (!qr.schema->channel_affine(support.describe(g, q, qr, q_attrs), affine)) return false;
  ReplacedInputs replaced;
  if (!pr.schema->absorb_channel_affine(support.describe(g, *p, pr, p_attrs), affine, replaced))
    return false;

  replace_inputs(g, *p, replaced);
  FusionSupport::fold_into_producer(g, q, *p);
  return true;
}

}  // namespace

PassReport FuseChannelAffine::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  FusionSupport support(ctx_, model_opsets(model.header()));
  PassReport report;
  report.changes = FusionSupport::fuse_all(
      *model.graph(), [&](ir::Graph& g, ir::Node& n) { return fold_affine(support, g, n); });
  report.summary = plural(static_cast<uint64_t>(report.changes), "node") +
                   " folded into the weights before them";
  return report;
}

}  // namespace onnxtool::exec_detail
