// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/fuse_channel_affine.h"

#include <algorithm>
#include <deque>
#include <map>
#include <utility>

#include "core/exec/planner.h"
#include "core/ir/graph.h"
#include "core/model/model.h"
#include "core/registry/attrs.h"
#include "core/registry/binding.h"
#include "core/registry/fusion.h"
#include "core/registry/registry.h"
#include "core/util/format.h"
#include "onnx.pb.h"

namespace onnxtool::exec_detail {

namespace {

class Fuser {
 public:
  Fuser(PlanContext& ctx, OpsetMap opsets) : ctx_(ctx), opsets_(std::move(opsets)) {}

  void fuse_graph(ir::Graph& g);
  int64_t fused() const { return fused_; }

 private:
  struct Resolved {
    const OpVersion* schema = nullptr;
    onnx::NodeProto proto;  // attributes as the hooks read them
  };
  Resolved resolve(const ir::Node& n) const;
  const Tensor* constant(const ir::Graph& g, const std::string& name);
  FusionNode describe(const ir::Graph& g, const ir::Node& n, const Resolved& r,
                      const AttrView& attrs);
  bool read_only_by(const ir::Graph& g, const std::string& value, const ir::Node& reader) const;
  bool try_fuse(ir::Graph& g, ir::Node& q);
  void replace_inputs(ir::Graph& g, ir::Node& p, ReplacedInputs& with);
  void drop_if_unread(ir::Graph& g, const std::string& name);

  PlanContext& ctx_;
  OpsetMap opsets_;
  // Decoded constants, kept while the pass runs (the hooks see pointers into them).
  std::map<std::pair<const ir::Graph*, std::string>, Tensor> values_;
  int64_t fused_ = 0;
};

Fuser::Resolved Fuser::resolve(const ir::Node& n) const {
  Resolved r;
  n.to_proto(r.proto);
  const OpResolution op = resolve_operator(ctx_.registry, opsets_, &ctx_.functions, r.proto);
  if (runs_kernel(ctx_, op)) r.schema = op.schema;
  return r;
}

// The tensor `name` holds on every run as seen from g (an initializer of g or an enclosing
// graph, or a main-graph input's default when no run feeds those); nullptr otherwise.
const Tensor* Fuser::constant(const ir::Graph& g, const std::string& name) {
  if (name.empty()) return nullptr;
  const auto def = g.resolve(name);
  if (!def) return nullptr;
  const ir::Graph& owner = *def->graph;
  const bool fixed =
      def->kind == ir::ValueKind::initializer ||
      (def->kind == ir::ValueKind::graph_input && !owner.parent() && ctx_.defaults_as_constants);
  const ir::Initializer* init = fixed ? owner.initializer(name) : nullptr;
  if (!init) return nullptr;
  const auto key = std::make_pair(&owner, name);
  if (auto it = values_.find(key); it != values_.end()) return &it->second;
  try {
    Value v = initializer_value(ctx_.model, *init, name);
    if (!v.is_tensor() || !v.tensor().defined()) return nullptr;
    return &values_.emplace(key, v.tensor()).first->second;
  } catch (const Error&) {
    return nullptr;  // a malformed initializer: planning reports it
  }
}

FusionNode Fuser::describe(const ir::Graph& g, const ir::Node& n, const Resolved& r,
                           const AttrView& attrs) {
  FusionNode f{*r.schema, attrs, {}, {}, false};
  for (const auto& name : n.inputs()) {
    f.input_named.push_back(!name.empty());
    f.constants.push_back(constant(g, name));
  }
  for (std::size_t i = 1; i < n.outputs().size(); ++i)
    f.writes_other_outputs = f.writes_other_outputs || !n.outputs()[i].empty();
  return f;
}

// Whether `reader` is the only reader of `value`: no other node, no subgraph, no graph output.
bool Fuser::read_only_by(const ir::Graph& g, const std::string& value,
                         const ir::Node& reader) const {
  const auto& uses = g.uses(value);
  if (uses.size() != 1 || uses.front().node != &reader) return false;
  for (const auto& out : g.outputs())
    if (out.name() == value) return false;
  for (const ir::Node* n : g.node_list())
    for (const auto& sub : n->subgraphs()) {
      const auto refs = sub.graph->outer_references();
      if (std::find(refs.begin(), refs.end(), value) != refs.end()) return false;
    }
  return true;
}

void Fuser::drop_if_unread(ir::Graph& g, const std::string& name) {
  if (name.empty() || !g.initializer(name) || g.is_used(name)) return;
  for (const auto& in : g.inputs())
    if (in.name() == name) return;  // an input's default stays with its input
  (void)g.remove_initializer(name);
}

void Fuser::replace_inputs(ir::Graph& g, ir::Node& p, ReplacedInputs& with) {
  for (auto& [index, tensor] : with.inputs) {
    const std::string old = index < p.inputs().size() ? p.inputs()[index] : std::string();
    const std::string name = g.fresh_name((old.empty() ? p.outputs()[0] : old) + "_fused");
    (void)g.add_initializer(name, std::move(tensor));
    while (p.inputs().size() <= index) g.append_node_input(p, "");
    (void)g.set_node_input(p, static_cast<int>(index), name);
    drop_if_unread(g, old);
  }
}

bool Fuser::try_fuse(ir::Graph& g, ir::Node& q) {
  if (q.inputs().empty() || q.outputs().empty() || q.outputs()[0].empty()) return false;
  const Resolved qr = resolve(q);
  if (!qr.schema || !qr.schema->channel_affine) return false;
  int output = 0;
  ir::Node* p = g.producer(q.inputs()[0], &output);
  if (!p || output != 0 || p->outputs().size() != 1 || !read_only_by(g, q.inputs()[0], q))
    return false;
  const Resolved pr = resolve(*p);
  if (!pr.schema || !pr.schema->absorb_channel_affine) return false;

  const AttrView q_attrs(qr.proto, qr.schema), p_attrs(pr.proto, pr.schema);
  ChannelAffine affine;
  if (!qr.schema->channel_affine(describe(g, q, qr, q_attrs), affine)) return false;
  ReplacedInputs replaced;
  if (!pr.schema->absorb_channel_affine(describe(g, *p, pr, p_attrs), affine, replaced))
    return false;

  replace_inputs(g, *p, replaced);
  const std::string y = q.outputs()[0];
  const std::vector<std::string> q_inputs = q.inputs();
  (void)g.remove_node(q, ir::Graph::Removal::force);
  (void)g.set_node_output(*p, 0, y);
  for (std::size_t i = 1; i < q_inputs.size(); ++i) drop_if_unread(g, q_inputs[i]);
  ++fused_;
  return true;
}

void Fuser::fuse_graph(ir::Graph& g) {
  for (ir::Node* n : g.node_list()) {
    for (const auto& sub : n->subgraphs()) fuse_graph(*sub.graph);
  }
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
