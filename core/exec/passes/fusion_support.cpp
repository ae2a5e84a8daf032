// SPDX-License-Identifier: Apache-2.0
#include "core/exec/passes/fusion_support.h"

#include "core/exec/planner.h"
#include "core/infer/engine.h"
#include "core/ir/graph.h"
#include "core/registry/attrs.h"
#include "core/registry/registry.h"
#include "onnx.pb.h"

namespace onnxtool::exec_detail {

const GraphResult* FusionSupport::inferred_graph(const ir::Graph& g) const {
  return ctx_.inferred && g.origin() ? ctx_.inferred->graph_of(g.origin()) : nullptr;
}

FusionSupport::Resolved FusionSupport::resolve(const ir::Node& n) const {
  Resolved r;
  r.proto = &n.proto();
  const OpResolution op = resolve_operator(ctx_.registry, opsets_, &ctx_.functions, *r.proto);
  if (runs_kernel(ctx_, op)) r.schema = op.schema;
  return r;
}

const Tensor* FusionSupport::constant(const ir::Graph& g, const std::string& name) {
  const Value* v = constants_.find(g, name);
  return v && v->is_tensor() && v->tensor().defined() ? &v->tensor() : nullptr;
}

FusionNode FusionSupport::describe(const ir::Graph& g, const ir::Node& n, const Resolved& r,
                                   const AttrView& attrs) {
  FusionNode f{*r.schema, attrs, {}, {}, false, -1, 0, {}};
  for (const auto& name : n.inputs()) {
    f.input_named.push_back(!name.empty());
    f.constants.push_back(constant(g, name));
  }
  for (std::size_t i = 1; i < n.outputs().size(); ++i)
    f.writes_other_outputs = f.writes_other_outputs || !n.outputs()[i].empty();
  // A fusion keeps output 0's type and shape (it takes over the later node's output name, of
  // the same type), so what inference found for the stored graph still holds.
  bool widened = false;
  const ValueRecord* out =
      n.outputs().empty() ? nullptr : inferred_record(g, n.outputs()[0], widened);
  if (out && out->type.kind == Type::Kind::tensor) {
    f.output_elem = widened ? onnx::TensorProto::FLOAT : out->type.elem;
    if (out->type.shape) {
      f.output_rank = static_cast<int64_t>(out->type.shape->size());
      for (const Dim& d : *out->type.shape) f.output_dims.push_back(d.is_known() ? d.value() : -1);
    }
  }
  return f;
}

const ValueRecord* FusionSupport::inferred_record(const ir::Graph& g, const std::string& value,
                                                  bool& widened) const {
  const auto w = ctx_.widened.find({&g, value});
  widened = w != ctx_.widened.end();
  const GraphResult* inferred = inferred_graph(g);
  return inferred ? inferred->find(widened ? w->second : value) : nullptr;
}

std::optional<FusionSupport::TensorFacts> FusionSupport::inferred_tensor(
    const ir::Graph& g, const std::string& value) const {
  bool widened = false;
  const ValueRecord* record = inferred_record(g, value, widened);
  if (!record || record->type.kind != Type::Kind::tensor || !record->type.shape ||
      record->type.elem == 0)
    return std::nullopt;
  return TensorFacts{widened ? onnx::TensorProto::FLOAT : record->type.elem, *record->type.shape};
}

int32_t FusionSupport::inferred_elem(const ir::Graph& g, const std::string& value) const {
  bool widened = false;
  const ValueRecord* record = inferred_record(g, value, widened);
  if (!record || record->type.kind != Type::Kind::tensor) return 0;
  return widened ? onnx::TensorProto::FLOAT : record->type.elem;
}

void FusionSupport::record_widened(const ir::Graph& g, const std::string& widened,
                                   const std::string& original) {
  ctx_.widened[{&g, widened}] = original;
}

std::set<std::string> FusionSupport::read_outside_nodes(const ir::Graph& g) {
  std::set<std::string> read;
  for (const auto& out : g.outputs()) read.insert(out.name());
  for (const ir::Node* n : g.node_list())
    for (const auto& sub : n->subgraphs())
      for (const auto& name : sub.graph->outer_references()) read.insert(name);
  return read;
}

bool FusionSupport::read_outside(const ir::Graph& g, const std::string& value) const {
  auto it = read_outside_.find(&g);
  if (it == read_outside_.end()) it = read_outside_.emplace(&g, read_outside_nodes(g)).first;
  return it->second.count(value) > 0;
}

ir::Node* FusionSupport::sole_producer_for(ir::Graph& g, const std::string& value,
                                           const ir::Node& reader) const {
  int output = 0;
  ir::Node* p = g.producer(value, &output);
  if (!p || output != 0 || p->outputs().size() != 1) return nullptr;
  const auto& uses = g.uses(value);
  if (uses.size() != 1 || uses.front().node != &reader) return nullptr;
  return read_outside(g, value) ? nullptr : p;
}

std::optional<FusionSupport::Pair> FusionSupport::pair_with_producer(
    ir::Graph& g, ir::Node& q, bool (*q_has)(const OpVersion&),
    bool (*p_has)(const OpVersion&)) const {
  if (q.inputs().empty() || q.outputs().empty() || q.outputs()[0].empty()) return std::nullopt;
  Pair pair;
  pair.q_op = resolve(q);
  if (!pair.q_op.schema || !q_has(*pair.q_op.schema)) return std::nullopt;
  pair.p = sole_producer_for(g, q.inputs()[0], q);
  if (!pair.p) return std::nullopt;
  pair.p_op = resolve(*pair.p);
  if (!pair.p_op.schema || !p_has(*pair.p_op.schema)) return std::nullopt;
  return pair;
}

void FusionSupport::append_fused_inputs(ir::Graph& g, ir::Node& p, const OpVersion& schema,
                                        const char* attribute,
                                        const std::vector<std::string>& extra) {
  while (p.inputs().size() < schema.inputs.size()) g.append_node_input(p, "");
  const auto index = static_cast<int64_t>(p.inputs().size());
  for (const auto& name : extra) g.append_node_input(p, name);
  add_int_attribute(p, attribute, index);
}

void FusionSupport::add_int_attribute(ir::Node& n, const char* name, int64_t value) {
  onnx::AttributeProto* a = n.mutable_proto().add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::INT);
  a->set_i(value);
}

void FusionSupport::add_floats_attribute(ir::Node& n, const char* name,
                                         const std::vector<float>& values) {
  onnx::AttributeProto* a = n.mutable_proto().add_attribute();
  a->set_name(name);
  a->set_type(onnx::AttributeProto::FLOATS);
  for (float v : values) a->add_floats(v);
}

void FusionSupport::drop_if_unread(ir::Graph& g, const std::string& name) {
  if (name.empty() || !g.initializer(name) || g.is_used(name)) return;
  for (const auto& in : g.inputs())
    if (in.name() == name) return;  // an input's default stays with its input
  (void)g.remove_initializer(name);
}

void FusionSupport::fold_into_producer(ir::Graph& g, ir::Node& q, ir::Node& p) {
  const std::string y = q.outputs()[0];
  const std::vector<std::string> q_inputs = q.inputs();
  (void)g.remove_node(q, ir::Graph::Removal::force);
  (void)g.set_node_output(p, 0, y);
  for (std::size_t i = 1; i < q_inputs.size(); ++i) drop_if_unread(g, q_inputs[i]);
}

int64_t FusionSupport::fuse_all(ir::Graph& g,
                                const std::function<bool(ir::Graph&, ir::Node&)>& try_fuse) {
  int64_t fused = 0;
  for (ir::Node* n : g.node_list())
    for (const auto& sub : n->subgraphs()) fused += fuse_all(*sub.graph, try_fuse);
  // node_list() is a snapshot; a fusion removes only the node being visited or one visited
  // before it (the graphs are in data order by now), never one still to come.
  for (ir::Node* n : g.node_list())
    if (n->subgraphs().empty() && try_fuse(g, *n)) ++fused;
  return fused;
}

}  // namespace onnxtool::exec_detail
