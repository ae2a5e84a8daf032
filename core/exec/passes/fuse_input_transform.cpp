// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/fuse_input_transform.h"

#include <string>
#include <vector>

#include "core/exec/passes/fusion_support.h"
#include "core/ir/graph.h"
#include "core/model/model.h"
#include "core/registry/attrs.h"
#include "core/registry/schema.h"
#include "core/util/format.h"

namespace onnxtool::exec_detail {

namespace {

void set_input_transform(ir::Node& q, const InputTransform& t) {
  FusionSupport::add_floats_attribute(q, kInputScaleAttribute, t.scale);
  FusionSupport::add_floats_attribute(q, kInputShiftAttribute, t.shift);
  FusionSupport::add_int_attribute(q, kInputActivationAttribute,
                                   static_cast<int64_t>(t.activation.kind));
  FusionSupport::add_floats_attribute(q, kInputActivationParamsAttribute,
                                      {t.activation.lo, t.activation.hi, t.activation.alpha});
}

// Q takes the transform P applies to Q's input 0, and P is removed (it comes before Q: see
// FusionSupport::fuse_all).
bool fold_transform(FusionSupport& support, ir::Graph& g, ir::Node& q) {
  const auto pair = support.pair_with_producer(
      g, q, [](const OpVersion& v) { return static_cast<bool>(v.takes_input_transform); },
      [](const OpVersion& v) { return static_cast<bool>(v.transforms_input); });
  if (!pair) return false;
  ir::Node* p = pair->p;
  const FusionSupport::Resolved &qr = pair->q_op, &pr = pair->p_op;
  const AttrView q_attrs(*qr.proto, qr.schema), p_attrs(*pr.proto, pr.schema);
  if (input_transform_of(q_attrs) || p->inputs().empty() || p->inputs()[0].empty()) return false;
  // Q reads P's output as its input 0 alone (a second read would need the transformed values).
  const std::string& y = q.inputs()[0];
  for (std::size_t i = 1; i < q.inputs().size(); ++i)
    if (q.inputs()[i] == y) return false;
  InputTransform t;
  if (!pr.schema->transforms_input(support.describe(g, *p, pr, p_attrs), t) || !t) return false;
  if (!qr.schema->takes_input_transform(support.describe(g, q, qr, q_attrs), t)) return false;

  set_input_transform(q, t);
  const std::vector<std::string> p_inputs = p->inputs();
  (void)g.set_node_input(q, 0, p_inputs[0]);
  (void)g.remove_node(*p, ir::Graph::Removal::force);  // its output has no reader left
  for (std::size_t i = 1; i < p_inputs.size(); ++i) FusionSupport::drop_if_unread(g, p_inputs[i]);
  return true;
}

}  // namespace

PassReport FuseInputTransform::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  FusionSupport support(ctx_, model_opsets(model.header()));
  PassReport report;
  report.changes = FusionSupport::fuse_all(
      *model.graph(), [&](ir::Graph& g, ir::Node& n) { return fold_transform(support, g, n); });
  report.summary = plural(static_cast<uint64_t>(report.changes), "node") +
                   " applied by the kernel after them, to its input";
  return report;
}

}  // namespace onnxtool::exec_detail
