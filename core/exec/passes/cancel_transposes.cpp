// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/cancel_transposes.h"

#include <numeric>
#include <optional>
#include <string>
#include <vector>

#include "core/exec/passes/fusion_support.h"
#include "core/ir/graph.h"
#include "core/model/model.h"
#include "core/registry/attrs.h"
#include "core/registry/schema.h"
#include "core/util/format.h"
#include "onnx.pb.h"

namespace onnxtool::exec_detail {

namespace {

using AxisPermutation = std::vector<int64_t>;

// The permutation node n applies to its input 0, when its operator says it permutes and
// inference knows that input's rank.
std::optional<AxisPermutation> permutation_of(FusionSupport& support, ir::Graph& g, ir::Node& n,
                                              const FusionSupport::Resolved& r) {
  if (!r.schema || !r.schema->permutes || n.inputs().empty() || n.outputs().size() != 1 ||
      n.outputs()[0].empty())
    return std::nullopt;
  const auto facts = support.inferred_tensor(g, n.inputs()[0]);
  if (!facts) return std::nullopt;
  const AttrView attrs(*r.proto, r.schema);
  return r.schema->permutes(support.describe(g, n, r, attrs),
                            static_cast<int64_t>(facts->dims.size()));
}

bool is_identity_permutation(const AxisPermutation& p) {
  for (std::size_t i = 0; i < p.size(); ++i)
    if (p[i] != static_cast<int64_t>(i)) return false;
  return true;
}

// q's readers read `value` instead of q's output, and q goes; refused (false) where q's output
// is a graph output or a subgraph reads it by name.
bool bypass_permutation(const FusionSupport& support, ir::Graph& g, ir::Node& q,
                        const std::string& value) {
  const std::string out = q.outputs()[0];
  if (support.read_outside(g, out)) return false;
  if (!g.replace_all_uses(out, value)) return false;
  (void)g.remove_node(q, ir::Graph::Removal::force);
  return true;
}

bool cancel_permutation(FusionSupport& support, ir::Graph& g, ir::Node& q) {
  const FusionSupport::Resolved qr = support.resolve(q);
  const std::optional<AxisPermutation> second = permutation_of(support, g, q, qr);
  if (!second) return false;
  if (is_identity_permutation(*second)) return bypass_permutation(support, g, q, q.inputs()[0]);
  int output = 0;
  ir::Node* p = g.producer(q.inputs()[0], &output);
  if (!p || output != 0 || !qr.schema->make_permutation) return false;
  const std::optional<AxisPermutation> first = permutation_of(support, g, *p, support.resolve(*p));
  if (!first || first->size() != second->size()) return false;
  // y = T(T(x, first), second): y's axis j is x's axis first[second[j]].
  AxisPermutation composed(second->size());
  for (std::size_t j = 0; j < composed.size(); ++j)
    composed[j] = (*first)[static_cast<std::size_t>((*second)[j])];
  const std::string x = p->inputs()[0];
  const std::string between = q.inputs()[0];
  // Where q's output must keep its name (a graph output), q stays, permuting x by `composed`.
  const bool gone = is_identity_permutation(composed) && bypass_permutation(support, g, q, x);
  if (!gone) {
    qr.schema->make_permutation(q.mutable_proto(), composed);
    if (!g.set_node_input(q, 0, x)) return false;
  }
  if (!g.is_used(between) && !support.read_outside(g, between))
    (void)g.remove_node(*p, ir::Graph::Removal::force);
  return true;
}

}  // namespace

PassReport CancelTransposes::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  FusionSupport support(ctx_, model_opsets(model.header()));
  PassReport report;
  report.changes = FusionSupport::fuse_all(
      *model.graph(), [&](ir::Graph& g, ir::Node& n) { return cancel_permutation(support, g, n); });
  report.summary = plural(static_cast<uint64_t>(report.changes), "permutation") +
                   " cancelled or merged into the one before";
  return report;
}

}  // namespace onnxtool::exec_detail
