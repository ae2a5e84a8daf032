// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/fuse_dequantized.h"

#include <algorithm>
#include <optional>
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

// A dequantization D feeding P: D, its operands' names, and how P's hook sees them.
struct Found {
  ir::Node* d = nullptr;
  std::string values, scale, zero;  // zero "" when omitted
  DequantizedOperand operand;
};

std::string input_or_empty(const ir::Node& n, std::size_t i) {
  return i < n.inputs().size() ? n.inputs()[i] : std::string();
}

// The dequantization making `value` (output 0 of a node whose operator says it is one), its
// scale and zero point constants, and the integers' type and dims known to inference.
std::optional<Found> dequantization_of(FusionSupport& support, ir::Graph& g,
                                       const std::string& value) {
  if (value.empty()) return std::nullopt;
  int output = 0;
  ir::Node* d = g.producer(value, &output);
  if (!d || output != 0 || d->outputs().size() != 1) return std::nullopt;
  const FusionSupport::Resolved dr = support.resolve(*d);
  if (!dr.schema || !dr.schema->dequantize) return std::nullopt;
  const AttrView d_attrs(*dr.proto, dr.schema);
  const FusionNode dn = support.describe(g, *d, dr, d_attrs);
  Dequantization dq;
  if (!dr.schema->dequantize(dn, dq)) return std::nullopt;
  Found f;
  f.d = d;
  f.values = input_or_empty(*d, dq.x);
  f.scale = input_or_empty(*d, dq.scale);
  f.zero = input_or_empty(*d, dq.zero);
  if (f.values.empty() || f.scale.empty() || !dn.constants[dq.scale]) return std::nullopt;
  if (!f.zero.empty() && !dn.constants[dq.zero]) return std::nullopt;
  const auto facts = support.inferred_tensor(g, f.values);
  if (!facts) return std::nullopt;
  f.operand.elem = facts->elem;
  for (const Dim& dim : facts->dims) f.operand.dims.push_back(dim.is_known() ? dim.value() : -1);
  f.operand.values = dn.constants[dq.x];
  f.operand.scale = dn.constants[dq.scale];
  f.operand.zero = f.zero.empty() ? nullptr : dn.constants[dq.zero];
  const auto rank = static_cast<int64_t>(f.operand.dims.size());
  f.operand.axis = dq.axis < 0 ? dq.axis + rank : dq.axis;
  if (f.operand.axis < 0 || f.operand.axis >= std::max<int64_t>(rank, 1)) return std::nullopt;
  return f;
}

// Removes a dequantization nothing reads any more, and the constants only it read.
void drop_if_unread(ir::Graph& g, ir::Node& d) {
  const std::vector<std::string> inputs = d.inputs();
  if (!g.remove_node(d, ir::Graph::Removal::require_unused)) return;
  for (const auto& name : inputs) FusionSupport::drop_if_unread(g, name);
}

void set_dequantized_inputs(ir::Graph& g, ir::Node& p, const OpVersion& schema, const Found& x,
                            const Found& w) {
  (void)g.set_node_input(p, 0, x.values);
  (void)g.set_node_input(p, 1, w.values);
  FusionSupport::append_fused_inputs(g, p, schema, kDequantizedInputsAttribute,
                                     {x.scale, x.zero, w.scale, w.zero});
}

// Rewrites p when it fuses; the dequantizations it read go to `maybe_unread` (removed after the
// walk over the nodes, which must meet only the node it visits removed).
bool fold_dequantized(FusionSupport& support, ir::Graph& g, ir::Node& p,
                      std::vector<ir::Node*>& maybe_unread) {
  if (p.inputs().size() < 2 || p.outputs().empty()) return false;
  const FusionSupport::Resolved pr = support.resolve(p);
  if (!pr.schema || !pr.schema->takes_dequantized) return false;
  const AttrView p_attrs(*pr.proto, pr.schema);
  if (dequantized_inputs_of(p_attrs) >= 0 || residual_input_of(p_attrs) >= 0) return false;
  // The extra inputs go after the formal ones: none may be there already.
  if (p.inputs().size() > pr.schema->inputs.size()) return false;
  const auto x = dequantization_of(support, g, p.inputs()[0]);
  const auto w = dequantization_of(support, g, p.inputs()[1]);
  if (!x || !w || x->d == w->d) return false;
  if (!pr.schema->takes_dequantized(support.describe(g, p, pr, p_attrs), x->operand, w->operand))
    return false;
  set_dequantized_inputs(g, p, *pr.schema, *x, *w);
  maybe_unread.push_back(x->d);
  maybe_unread.push_back(w->d);
  return true;
}

}  // namespace

PassReport FuseDequantized::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  FusionSupport support(ctx_, model_opsets(model.header()));
  PassReport report;
  std::vector<ir::Node*> maybe_unread;
  report.changes = FusionSupport::fuse_all(*model.graph(), [&](ir::Graph& g, ir::Node& n) {
    return fold_dequantized(support, g, n, maybe_unread);
  });
  std::sort(maybe_unread.begin(), maybe_unread.end());
  maybe_unread.erase(std::unique(maybe_unread.begin(), maybe_unread.end()), maybe_unread.end());
  for (ir::Node* d : maybe_unread) drop_if_unread(d->graph(), *d);
  report.summary = plural(static_cast<uint64_t>(report.changes), "node") +
                   " computing on the integers of their dequantized operands";
  return report;
}

}  // namespace onnxtool::exec_detail
