// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/fuse_residual.h"

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

// Both summands and the sum have one element type and the same dims, every one of them known
// or the same symbol: the add then involves no broadcasting.
bool same_shaped_sum(const FusionSupport& support, const ir::Graph& g, const ir::Node& q) {
  const auto a = support.inferred_tensor(g, q.inputs()[0]);
  const auto b = support.inferred_tensor(g, q.inputs()[1]);
  const auto y = support.inferred_tensor(g, q.outputs()[0]);
  if (!a || !b || !y) return false;
  return a->elem == b->elem && a->elem == y->elem && a->dims == b->dims && a->dims == y->dims;
}

bool fold_residual(FusionSupport& support, ir::Graph& g, ir::Node& q) {
  if (q.inputs().size() != 2 || q.outputs().size() != 1 || q.outputs()[0].empty()) return false;
  if (q.inputs()[0].empty() || q.inputs()[1].empty() || q.inputs()[0] == q.inputs()[1])
    return false;
  const FusionSupport::Resolved qr = support.resolve(q);
  if (!qr.schema || !qr.schema->residual_add) return false;
  const AttrView q_attrs(*qr.proto, qr.schema);
  if (!qr.schema->residual_add(support.describe(g, q, qr, q_attrs))) return false;
  if (!same_shaped_sum(support, g, q)) return false;
  for (std::size_t side = 0; side < 2; ++side) {
    ir::Node* p = support.sole_producer_for(g, q.inputs()[side], q);
    if (!p) continue;
    const FusionSupport::Resolved pr = support.resolve(*p);
    if (!pr.schema || !pr.schema->takes_residual) continue;
    const AttrView p_attrs(*pr.proto, pr.schema);
    if (epilogue_of(p_attrs) || residual_input_of(p_attrs) >= 0) continue;
    if (!pr.schema->takes_residual(support.describe(g, *p, pr, p_attrs))) continue;
    FusionSupport::append_fused_inputs(g, *p, *pr.schema, kResidualInputAttribute,
                                       {q.inputs()[1 - side]});
    FusionSupport::fold_into_producer(g, q, *p);
    // The other summand may be made after p: p moves down to where q was, no further. The
    // summand cannot depend on p's output (q alone read that), so no cycle arises.
    if (!g.is_topologically_sorted()) (void)g.toposort();
    return true;
  }
  return false;
}

}  // namespace

PassReport FuseResidual::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  FusionSupport support(ctx_, model_opsets(model.header()));
  PassReport report;
  report.changes = FusionSupport::fuse_all(
      *model.graph(), [&](ir::Graph& g, ir::Node& n) { return fold_residual(support, g, n); });
  report.summary =
      plural(static_cast<uint64_t>(report.changes), "residual add") + " done by the kernel before";
  return report;
}

}  // namespace onnxtool::exec_detail
