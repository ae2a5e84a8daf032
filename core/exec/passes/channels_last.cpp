// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/channels_last.h"

#include <algorithm>

#include "core/exec/passes/fusion_support.h"
#include "core/exec/planner.h"
#include "core/ir/graph.h"
#include "core/model/model.h"
#include "core/registry/attrs.h"
#include "core/registry/schema.h"
#include "core/util/format.h"

namespace onnxtool::exec_detail {

namespace {

// What a node's kernel does with channels-last values, and which it has been given already.
struct Layouts {
  ChannelsLast can;
  bool reads_now = false, writes_now = false;
};

std::optional<Layouts> layouts_of(FusionSupport& support, ir::Graph& g, ir::Node& n) {
  const FusionSupport::Resolved r = support.resolve(n);
  if (!r.schema || !r.schema->channels_last) return std::nullopt;
  const AttrView attrs(*r.proto, r.schema);
  Layouts l;
  l.can = r.schema->channels_last(support.describe(g, n, r, attrs));
  l.reads_now = channels_last_input_of(attrs);
  l.writes_now = channels_last_output_of(attrs);
  return l;
}

// Q's input 0 channels-last, made so by its producer P, when both can and one gains.
bool link_input(FusionSupport& support, ir::Graph& g, ir::Node& q) {
  if (q.inputs().empty() || q.inputs()[0].empty()) return false;
  const std::string& x = q.inputs()[0];
  // Read once by Q (a second input of Q reading it would want the other layout).
  if (std::count(q.inputs().begin(), q.inputs().end(), x) != 1) return false;
  const std::optional<Layouts> ql = layouts_of(support, g, q);
  if (!ql || ql->reads_now || !ql->can.reads || (ql->writes_now && !ql->can.both)) return false;
  ir::Node* p = support.sole_producer_for(g, x, q);
  if (!p || p == &q) return false;
  const std::optional<Layouts> pl = layouts_of(support, g, *p);
  if (!pl || pl->writes_now || !pl->can.writes || (pl->reads_now && !pl->can.both)) return false;
  if (!pl->can.gains && !ql->can.gains) return false;
  FusionSupport::add_int_attribute(*p, kChannelsLastOutputAttribute, 1);
  FusionSupport::add_int_attribute(q, kChannelsLastInputAttribute, 1);
  return true;
}

}  // namespace

PassReport ChannelsLastValues::run(ir::ModelGraph& model, const PassContext&) {
  if (!model.graph()) return {};
  FusionSupport support(ctx_, model_opsets(model.header()));
  PassReport report;
  report.changes = FusionSupport::fuse_all(
      *model.graph(), [&](ir::Graph& g, ir::Node& n) { return link_input(support, g, n); });
  ctx_.stats.channels_last += report.changes;
  report.summary = plural(static_cast<uint64_t>(report.changes), "value") + " held channels-last";
  return report;
}

}  // namespace onnxtool::exec_detail
