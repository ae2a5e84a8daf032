// SPDX-License-Identifier: Apache-2.0
#include "core/exec/planner.h"

#include <algorithm>
#include <cstring>
#include <deque>
#include <numeric>
#include <set>
#include <unordered_map>

#include "core/exec/assembly.h"
#include "core/exec/elementwise_region.h"
#include "core/exec/function_body.h"
#include "core/exec/kernel.h"
#include "core/infer/engine.h"
#include "core/ir/graph.h"
#include "core/ir/location.h"
#include "core/ir/order.h"
#include "core/model/model.h"
#include "core/registry/binding.h"
#include "core/registry/fusion.h"
#include "core/registry/registry.h"
#include "core/registry/schema.h"
#include "core/util/format.h"
#include "onnx.pb.h"

namespace onnxtool::exec_detail {

void PlanContext::problem(const std::string& rule, const std::string& location,
                          const std::string& message) {
  problems.push_back({Severity::error, rule, model.name, location, message, {}});
}

namespace {

std::string qualified_op(const onnx::NodeProto& node) {
  return node.domain().empty() ? node.op_type() : node.domain() + "." + node.op_type();
}

// Per input: the element types its formal parameter allows (0: not checked at run time). A
// dequantized-operands fusion (core/registry/fusion.h) gave inputs 0 and 1 the integers in place
// of the floats: the kernel checks those.
std::vector<uint64_t> input_type_masks(const OpVersion& schema, const onnx::NodeProto& node) {
  bool integers = false;
  for (const auto& a : node.attribute())
    integers = integers || a.name() == kDequantizedInputsAttribute;
  std::vector<uint64_t> masks;
  for (int i = 0; i < node.input_size(); ++i) {
    const FormalParam* formal = formal_input(schema, static_cast<std::size_t>(i));
    const TypeSet* allowed = formal ? allowed_types(schema, *formal) : nullptr;
    masks.push_back(allowed && !(integers && i < 2) ? allowed->tensor_elements() : 0);
  }
  return masks;
}

// ---- attributes ------------------------------------------------------------------------------

const onnx::AttributeProto* find_attribute(const onnx::NodeProto& node, const std::string& name) {
  for (const auto& a : node.attribute())
    if (a.name() == name) return &a;
  return nullptr;
}

// ---- sparse initializers ----------------------------------------------------------------------

// Expands a SparseTensorProto (indices [NNZ] linear, or [NNZ, rank]) into a dense tensor.
Tensor densify(const Model& model, const onnx::SparseTensorProto& sp, const std::string& loc) {
  const Tensor values = model.tensor(sp.values(), loc + " values");
  const Tensor indices = model.tensor(sp.indices(), loc + " indices");
  Shape dims(sp.dims().begin(), sp.dims().end());
  Tensor dense(values.dtype(), dims);
  const int64_t nnz = values.numel();
  const bool coords = indices.rank() == 2;
  if (indices.dtype() != DataType::int64 || (coords ? indices.shape()[0] : indices.numel()) != nnz)
    throw_invalid("exec.bad-sparse", model.name, loc, "indices must be int64 [NNZ] or [NNZ, rank]");
  const int64_t* idx = indices.data<int64_t>();
  const auto width = static_cast<std::size_t>(type_info(values.dtype()).mem_bytes);
  for (int64_t n = 0; n < nnz; ++n) {
    int64_t flat = coords ? 0 : idx[n];
    for (std::size_t d = 0; coords && d < dims.size(); ++d)
      flat = flat * dims[d] + idx[n * static_cast<int64_t>(dims.size()) + static_cast<int64_t>(d)];
    if (flat < 0 || flat >= dense.numel())
      throw_invalid("exec.bad-sparse", model.name, loc, "index out of range");
    if (values.dtype() == DataType::string)
      dense.mutable_strings()[static_cast<std::size_t>(flat)] =
          values.strings()[static_cast<std::size_t>(n)];
    else
      std::memcpy(dense.mutable_raw() + static_cast<std::size_t>(flat) * width,
                  values.raw() + static_cast<std::size_t>(n) * width, width);
  }
  return dense;
}

// ---- prepare -----------------------------------------------------------------------------------

// What an operator's prepare step sees of a node at planning.
class NodePrepareContext final : public PrepareContext {
 public:
  NodePrepareContext(const PlanNode& pn, std::vector<const Value*> constants,
                     const GraphResult* inferred, int threads,
                     const std::map<std::string, std::string>* widened)
      : pn_(pn),
        constants_(std::move(constants)),
        inferred_(inferred),
        widened_(widened),
        threads_(threads) {}

  const onnx::NodeProto& node() const override { return *pn_.node; }
  const OpVersion& schema() const override { return *pn_.schema; }
  int64_t opset() const override { return pn_.opset; }
  const AttrView& attrs() const override { return *pn_.attrs; }
  std::size_t num_inputs() const override { return pn_.inputs.size(); }
  bool has_input(std::size_t i) const override {
    return i < pn_.inputs.size() && pn_.inputs[i].has_value();
  }
  const Value* constant_input(std::size_t i) const override {
    return i < constants_.size() ? constants_[i] : nullptr;
  }
  const Type* input_type(std::size_t i) const override {
    if (!inferred_ || !has_input(i)) return nullptr;
    const std::string& name = pn_.node->input(static_cast<int>(i));
    const std::string* original = nullptr;
    if (widened_)
      if (const auto w = widened_->find(name); w != widened_->end()) original = &w->second;
    if (!original) {
      const ValueRecord* r = inferred_->find(name);
      return r ? &r->type : nullptr;
    }
    // A float32 value standing for a narrower one: the same shape.
    const ValueRecord* r = inferred_->find(*original);
    if (!r) return nullptr;
    Type& t = widened_types_[i];
    t = r->type;
    if (t.kind == Type::Kind::tensor) t.elem = onnx::TensorProto::FLOAT;
    return &t;
  }
  int threads() const override { return threads_; }

 private:
  const PlanNode& pn_;
  std::vector<const Value*> constants_;
  const GraphResult* inferred_;
  const std::map<std::string, std::string>* widened_;
  int threads_;
  mutable std::map<std::size_t, Type> widened_types_;  // what input_type gives for those
};

// ---- one graph ----------------------------------------------------------------------------------

class GraphBuilder {
 public:
  GraphBuilder(PlanContext& ctx, GraphBuilder* parent, OpsetMap opsets, std::string prefix)
      : ctx_(ctx), parent_(parent), opsets_(std::move(opsets)), plan_(new GraphPlan) {
    plan_->prefix = std::move(prefix);
  }

  std::unique_ptr<GraphPlan> build_graph(const ir::Graph& g);
  std::unique_ptr<GraphPlan> build_function(
      const google::protobuf::RepeatedPtrField<std::string>& inputs,
      const google::protobuf::RepeatedPtrField<std::string>& outputs,
      const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes, const AttrSource& attrs);
  // (depth, slot) of enclosing graphs' values this graph reads.
  const std::set<std::pair<int, int>>& outer_uses() const { return outer_uses_; }

 private:
  std::optional<ValueRef> resolve(const std::string& name);
  const Value& constant(const ValueRef& ref) const;
  int new_slot(const std::string& name);
  int add_constant(Value v);
  void mark_use(int slot, int node_index);
  void mark_unread(PlanNode& pn, int slot);
  void define(const std::string& name, ValueRef ref, const std::string& loc);

  void add_initializers(const ir::Graph& g);
  void add_graph_node(const ir::Node& node, int index);
  // ir_node: the graph node `node` stands for; nullptr for the nodes of a function body.
  void add_node(const onnx::NodeProto& node, int index, const ir::Node* ir_node);
  bool bind(PlanNode& pn, const onnx::NodeProto& node);
  bool bind_region(PlanNode& pn, const onnx::NodeProto& node, const ir::Node* ir_node);
  void note_unknown_attributes(const PlanNode& pn, const onnx::NodeProto& node);
  bool bind_local_function(PlanNode& pn, const onnx::NodeProto& node,
                           const onnx::FunctionProto& fn);
  bool bind_spec_function(PlanNode& pn, const onnx::NodeProto& node, const OpVersion& schema);
  std::unique_ptr<GraphPlan> plan_body(const PlanNode& pn, const onnx::FunctionProto& fn,
                                       OpsetMap opsets, const AttrSource& attrs);
  void plan_subgraphs(PlanNode& pn, const onnx::NodeProto& node, const ir::Node* ir_node);
  void plan_subgraph(PlanNode& pn, const onnx::GraphProto& key, const ir::Graph& graph,
                     const std::string& attribute, int list_index);
  void prepare(PlanNode& pn);
  bool try_fold(PlanNode& pn, const onnx::NodeProto& node);
  void add_outputs(const google::protobuf::RepeatedPtrField<std::string>& names);
  void finish();
  std::optional<SlotFacts> slot_facts(int slot) const;
  void place_concatenations(const std::vector<bool>& graph_output);

  PlanContext& ctx_;
  GraphBuilder* parent_;
  OpsetMap opsets_;
  std::unique_ptr<GraphPlan> plan_;
  std::unordered_map<std::string, ValueRef> names_;
  std::set<std::pair<int, int>> outer_uses_;
  std::vector<int> last_use_, producer_;
  const GraphResult* inferred_ = nullptr;       // this graph's inference results (not for bodies)
  std::map<std::string, std::string> widened_;  // this graph's part of ctx_.widened
};

std::optional<ValueRef> GraphBuilder::resolve(const std::string& name) {
  if (auto it = names_.find(name); it != names_.end()) return it->second;
  if (!parent_) return std::nullopt;
  auto r = parent_->resolve(name);
  if (!r) return std::nullopt;
  ++r->depth;
  if (!r->constant) outer_uses_.insert({r->depth, r->index});
  return r;
}

const Value& GraphBuilder::constant(const ValueRef& ref) const {
  const GraphBuilder* b = this;
  for (int d = 0; d < ref.depth; ++d) b = b->parent_;
  return b->plan_->constants[static_cast<std::size_t>(ref.index)];
}

int GraphBuilder::new_slot(const std::string& name) {
  plan_->slot_names.push_back(name);
  last_use_.push_back(-1);
  producer_.push_back(-1);
  return plan_->num_slots++;
}

int GraphBuilder::add_constant(Value v) {
  plan_->constants.push_back(std::move(v));
  return static_cast<int>(plan_->constants.size()) - 1;
}

void GraphBuilder::mark_use(int slot, int node_index) {
  auto& last = last_use_[static_cast<std::size_t>(slot)];
  last = std::max(last, node_index);
}

void GraphBuilder::define(const std::string& name, ValueRef ref, const std::string& loc) {
  if (!names_.emplace(name, ref).second)
    ctx_.problem("exec.bad-graph", loc, "value " + quoted_name(name) + " is assigned twice");
}

void GraphBuilder::add_initializers(const ir::Graph& g) {
  std::set<std::string> inputs;
  for (const auto& in : g.inputs()) inputs.insert(in.name());
  std::unordered_map<std::string, int> defaults;
  const std::string where = plan_->prefix;
  int i = 0;
  for (const ir::Initializer& init : g.initializers()) {
    const std::string loc = item_location(where, "initializer", i++, init.name);
    try {
      const int c = add_constant(initializer_value(ctx_.model, init, loc));
      const bool is_input = inputs.count(init.name) > 0;
      if (is_input) defaults[init.name] = c;
      if (!is_input || (ctx_.defaults_as_constants && !parent_))
        define(init.name, {0, true, c}, loc);
    } catch (const Error& e) {
      ctx_.problem(e.rule(), loc, e.message());
    }
  }
  i = 0;
  for (const auto& sp : g.sparse_initializers()) {
    const std::string loc = item_location(where, "sparse_initializer", i++, sp.values().name());
    try {
      define(sp.values().name(), {0, true, add_constant(densify(ctx_.model, sp, loc))}, loc);
    } catch (const Error& e) {
      ctx_.problem(e.rule(), loc, e.message());
    }
  }
  for (std::size_t k = 0; k < g.inputs().size(); ++k) {
    const std::string& name = g.inputs()[k].name();
    const int slot = new_slot(name);
    plan_->input_slots.push_back(slot);
    auto d = defaults.find(name);
    plan_->input_defaults.push_back(d == defaults.end() ? std::nullopt : std::optional(d->second));
    // An input whose default is used as a constant keeps its slot (a feed lands there unread).
    if (d == defaults.end() || !ctx_.defaults_as_constants || parent_)
      define(name, {0, false, slot}, item_location(where, "input", static_cast<int>(k), name));
  }
}

std::unique_ptr<GraphPlan> GraphBuilder::build_graph(const ir::Graph& g) {
  if (ctx_.inferred && g.origin()) inferred_ = ctx_.inferred->graph_of(g.origin());
  for (const auto& [where, original] : ctx_.widened)
    if (where.first == &g) widened_.emplace(where.second, original);
  add_initializers(g);
  // Locations name a node by its place in the stored model, whatever the passes removed before
  // it; a node a pass inserted is named by its place in the graph as planned.
  int index = 0;
  for (const ir::Node& n : g.nodes()) {
    add_graph_node(n, n.stored_index() >= 0 ? n.stored_index() : index);
    ++index;
  }
  google::protobuf::RepeatedPtrField<std::string> outputs;
  for (const auto& o : g.outputs()) *outputs.Add() = o.name();
  add_outputs(outputs);
  finish();
  return std::move(plan_);
}

// A node the passes left as stored is planned from the stored proto (no copy); one they made
// or edited from its own proto, kept in the plan.
void GraphBuilder::add_graph_node(const ir::Node& node, int index) {
  const onnx::NodeProto* proto = node.origin();
  if (!proto) {
    plan_->owned_nodes.push_back(std::make_unique<onnx::NodeProto>());
    node.to_proto(*plan_->owned_nodes.back());
    proto = plan_->owned_nodes.back().get();
  }
  add_node(*proto, index, &node);
}

std::unique_ptr<GraphPlan> GraphBuilder::build_function(
    const google::protobuf::RepeatedPtrField<std::string>& inputs,
    const google::protobuf::RepeatedPtrField<std::string>& outputs,
    const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes, const AttrSource& attrs) {
  for (int i = 0; i < inputs.size(); ++i) {
    const int slot = new_slot(inputs[i]);
    plan_->input_slots.push_back(slot);
    plan_->input_defaults.push_back(std::nullopt);
    // An empty name is an unused optional input.
    if (!inputs[i].empty()) define(inputs[i], {0, false, slot}, plan_->prefix + "input");
  }
  // In the order of the data, as graphs are (order_by_data); a body's nodes keep their stored
  // places in messages.
  DependencyOrder order = node_order(nodes);
  if (!order.sorted()) {
    ctx_.problem("exec.cycle", plan_->prefix,
                 kCycleIntro + describe_cycle(plan_->prefix, nodes, order.cycle));
    order.order.resize(static_cast<std::size_t>(nodes.size()));  // planned as stored
    std::iota(order.order.begin(), order.order.end(), 0);
  }
  for (int i : order.order) {
    plan_->owned_nodes.push_back(substitute_attributes(nodes[i], attrs));
    add_node(*plan_->owned_nodes.back(), i, nullptr);
  }
  add_outputs(outputs);
  finish();
  return std::move(plan_);
}

void GraphBuilder::add_outputs(const google::protobuf::RepeatedPtrField<std::string>& names) {
  for (const auto& name : names) {
    auto r = resolve(name);
    if (!r) {
      ctx_.problem("exec.undefined-value", plan_->prefix + "output",
                   "graph output " + quoted_name(name) + " is not produced by any node");
      r = ValueRef{0, false, new_slot(name)};
    }
    plan_->outputs.push_back(*r);
    plan_->output_names.push_back(name);
  }
}

// Releases each slot right after its last reader (or its producer, when nothing reads it);
// graph outputs stay.
void GraphBuilder::finish() {
  std::vector<bool> keep(static_cast<std::size_t>(plan_->num_slots), false);
  for (const auto& ref : plan_->outputs)
    if (ref.depth == 0 && !ref.constant) keep[static_cast<std::size_t>(ref.index)] = true;
  for (int slot = 0; slot < plan_->num_slots; ++slot) {
    const auto s = static_cast<std::size_t>(slot);
    const int at = last_use_[s] >= 0 ? last_use_[s] : producer_[s];
    if (keep[s] || at < 0) continue;
    plan_->nodes[static_cast<std::size_t>(at)].release.push_back(slot);
    if (last_use_[s] < 0 && ctx_.options.fuse)
      mark_unread(plan_->nodes[static_cast<std::size_t>(at)], slot);
  }
  const auto& off = ctx_.options.disabled_passes;
  if (ctx_.options.fuse && std::find(off.begin(), off.end(), kAssembleConcatName) == off.end())
    place_concatenations(keep);
}

// A slot's element type and shape as inference found them (the value a pass widened to float32
// has the dims of the one inference knew); nullopt unless both are known.
std::optional<SlotFacts> GraphBuilder::slot_facts(int slot) const {
  if (!inferred_) return std::nullopt;
  const std::string& name = plan_->slot_names[static_cast<std::size_t>(slot)];
  const auto w = widened_.find(name);
  const ValueRecord* r = inferred_->find(w == widened_.end() ? name : w->second);
  if (!r) return std::nullopt;
  std::optional<Shape> shape = known_shape(r->type);
  const std::optional<DataType> dtype =
      w == widened_.end() ? data_type_from_int(r->type.elem) : DataType::float32;
  if (!shape || !dtype) return std::nullopt;
  return SlotFacts{*dtype, std::move(*shape)};
}

// Concatenations whose inputs' producers can write straight into the output (Assembly): a
// rewrite for speed, so only with the fusions on (--dump-values sees every value made apart).
void GraphBuilder::place_concatenations(const std::vector<bool>& graph_output) {
  AssemblyInputs in;
  in.producer = producer_;
  in.graph_output = graph_output;
  in.facts = [this](int slot) { return slot_facts(slot); };
  ctx_.stats.placed_inputs += place_assemblies(*plan_, in);
  ctx_.stats.assembled += static_cast<int64_t>(plan_->assemblies.size());
}

void GraphBuilder::mark_unread(PlanNode& pn, int slot) {
  pn.unread_outputs.resize(pn.outputs.size(), false);
  for (std::size_t i = 0; i < pn.outputs.size(); ++i)
    if (pn.outputs[i] == slot) pn.unread_outputs[i] = true;
}

void GraphBuilder::plan_subgraph(PlanNode& pn, const onnx::GraphProto& key, const ir::Graph& graph,
                                 const std::string& attribute, int list_index) {
  const int index = static_cast<int>(plan_->nodes.size());
  GraphBuilder child(ctx_, this, opsets_, subgraph_prefix(pn.location, attribute, list_index));
  // Kernels ask for their subgraphs by the graph attribute they hold (KernelContext::run_graph).
  pn.subgraphs[&key] = child.build_graph(graph);
  // --profile looks inside If, Loop and Scan bodies too: their nodes are where the time goes.
  pn.subgraphs[&key]->timed = ctx_.options.profile;
  // The child's reads of this graph's values keep them alive until this node has run.
  for (const auto& [depth, slot] : child.outer_uses())
    if (depth == 1) mark_use(slot, index);
}

void GraphBuilder::plan_subgraphs(PlanNode& pn, const onnx::NodeProto& node,
                                  const ir::Node* ir_node) {
  if (ir_node) {
    for (const ir::Subgraph& sub : ir_node->subgraphs()) {
      const onnx::AttributeProto* a = find_attribute(node, sub.attribute);
      if (!a) continue;
      if (sub.list_index < 0 && a->has_g())
        plan_subgraph(pn, a->g(), *sub.graph, sub.attribute, -1);
      else if (sub.list_index >= 0 && sub.list_index < a->graphs_size())
        plan_subgraph(pn, a->graphs(sub.list_index), *sub.graph, sub.attribute, sub.list_index);
    }
    return;
  }
  // A function body's node: its subgraphs are viewed in place for the time of planning.
  for (const auto& a : node.attribute()) {
    if (a.has_g()) plan_subgraph(pn, a.g(), *ir::Graph::view(a.g()), a.name(), -1);
    for (int i = 0; i < a.graphs_size(); ++i)
      plan_subgraph(pn, a.graphs(i), *ir::Graph::view(a.graphs(i)), a.name(), i);
  }
}

void GraphBuilder::add_node(const onnx::NodeProto& node, int index, const ir::Node* ir_node) {
  PlanNode pn;
  pn.node = &node;
  pn.location = node_location(plan_->prefix, index, node);
  for (const auto& name : node.input()) {
    if (name.empty()) {
      pn.inputs.emplace_back(std::nullopt);
      continue;
    }
    auto r = resolve(name);
    if (!r)
      ctx_.problem("exec.undefined-value", pn.location,
                   "input " + quoted_name(name) +
                       " is not defined (not a graph input, an initializer or an output of an "
                       "earlier node)");
    pn.inputs.push_back(r);
  }
  const bool bound = bind_region(pn, node, ir_node) || bind(pn, node);
  // Subgraphs of an unbound node are planned too, so every missing kernel is reported at once.
  if (!pn.function) plan_subgraphs(pn, node, ir_node);
  if (bound) prepare(pn);
  // The graphs' constants were folded by the fold-constants pass before planning; a function
  // body exists only per call, so what its own constants compute is folded here.
  if (bound && !ir_node && try_fold(pn, node)) return;

  const int node_index = static_cast<int>(plan_->nodes.size());
  for (const auto& name : node.output()) {
    if (name.empty()) {
      pn.outputs.push_back(-1);
      continue;
    }
    const int slot = new_slot(name);
    producer_[static_cast<std::size_t>(slot)] = node_index;
    pn.outputs.push_back(slot);
    define(name, {0, false, slot}, pn.location);
  }
  for (const auto& r : pn.inputs)
    if (r && r->depth == 0 && !r->constant) mark_use(r->index, node_index);
  if (pn.function) ++ctx_.stats.function_calls;
  plan_->nodes.push_back(std::move(pn));
}

// A node fuse-elementwise made runs its region's program (it names no operator of a model).
bool GraphBuilder::bind_region(PlanNode& pn, const onnx::NodeProto& node, const ir::Node* ir_node) {
  const auto region =
      ir_node ? ctx_.elementwise_regions.find(ir_node) : ctx_.elementwise_regions.end();
  if (region == ctx_.elementwise_regions.end()) return false;
  pn.node = &node;
  pn.opset = 1;
  pn.schema = &region_version();
  pn.attrs.emplace(node, pn.schema);
  pn.state = region->second;
  return true;
}

bool GraphBuilder::bind(PlanNode& pn, const onnx::NodeProto& node) {
  const OpResolution r = resolve_operator(ctx_.registry, opsets_, &ctx_.functions, node);
  const onnx::FunctionProto* local = r.function;
  if (!r.imported && !local) {
    ctx_.problem("exec.unknown-domain", pn.location,
                 "domain " + quoted_name(r.domain.empty() ? "ai.onnx" : r.domain) +
                     " is not imported by the model");
    return false;
  }
  pn.opset = r.opset;
  const OpVersion* schema = r.schema;
  pn.schema = schema;
  if (runs_kernel(ctx_, r)) {
    bind_kernel(pn, node, r);
    note_unknown_attributes(pn, node);
    return true;
  }
  if (local) return bind_local_function(pn, node, *local);
  if (schema && schema->is_function) return bind_spec_function(pn, node, *schema);
  std::string message;
  if (schema)
    message = "no kernel for " + schema->id();
  else if (r.op_known)
    message = "no version of " + qualified_op(node) + " at opset " + std::to_string(pn.opset);
  else
    message = "unknown operator " + qualified_op(node);
  ctx_.problem("exec.no-kernel", pn.location, message);
  return false;
}

// Attributes the operator version does not define: its kernel ignores them, which the user
// should hear of (an exporter's typo, or an attribute of a newer version than the model imports).
void GraphBuilder::note_unknown_attributes(const PlanNode& pn, const onnx::NodeProto& node) {
  if (!pn.schema) return;
  for (const auto& a : node.attribute()) {
    if (pn.schema->find_attribute(a.name()) || a.name().rfind(kExecutorAttributePrefix, 0) == 0)
      continue;
    auto& seen = ctx_.unknown_attributes[{pn.schema->id(), a.name()}];
    if (seen.first++ == 0) seen.second = pn.location;
  }
}

std::unique_ptr<GraphPlan> GraphBuilder::plan_body(const PlanNode& pn,
                                                   const onnx::FunctionProto& fn, OpsetMap opsets,
                                                   const AttrSource& attrs) {
  opsets = function_opsets(fn, opsets);
  const std::string prefix = pn.location + " function " + quoted_name(fn.name()) + ": ";
  ++ctx_.function_depth;
  GraphBuilder body(ctx_, nullptr, std::move(opsets), prefix);
  auto plan = body.build_function(fn.input(), fn.output(), fn.node(), attrs);
  --ctx_.function_depth;
  return plan;
}

constexpr int kMaxFunctionDepth = 32;

bool GraphBuilder::bind_local_function(PlanNode& pn, const onnx::NodeProto& node,
                                       const onnx::FunctionProto& fn) {
  if (ctx_.function_depth >= kMaxFunctionDepth) {
    ctx_.problem("exec.bad-function", pn.location,
                 "function calls nest more than " + std::to_string(kMaxFunctionDepth) +
                     " deep (a function that calls itself?)");
    return false;
  }
  pn.attrs.emplace(node, pn.schema);
  AttrSource attrs = [&](const std::string& name) -> const onnx::AttributeProto* {
    if (auto* a = find_attribute(node, name)) return a;
    for (const auto& d : fn.attribute_proto())
      if (d.name() == name) return &d;
    return nullptr;
  };
  // The function's own opset_import applies to its body (plan_body); the model's fills the gaps.
  pn.function = plan_body(pn, fn, model_opsets(*ctx_.model.proto), attrs);
  return true;
}

bool GraphBuilder::bind_spec_function(PlanNode& pn, const onnx::NodeProto& node,
                                      const OpVersion& schema) {
  const FunctionBodyParser& parser =
      ctx_.options.function_parser ? ctx_.options.function_parser : default_function_body_parser();
  auto [it, fresh] = ctx_.parsed_bodies.try_emplace(&schema);
  if (fresh && parser && !schema.function_body.empty()) {
    try {
      it->second = parser(schema);
    } catch (const Error& e) {
      ctx_.problem("exec.bad-function", pn.location,
                   "the function body of " + schema.id() + " does not parse: " + e.message());
      return false;
    }
  }
  if (!it->second) {
    ctx_.problem("exec.no-kernel", pn.location,
                 "no kernel for " + schema.id() + " (its function body is not available)");
    return false;
  }
  pn.attrs.emplace(node, &schema);
  std::deque<onnx::AttributeProto> defaults;
  AttrSource attrs = [&](const std::string& name) -> const onnx::AttributeProto* {
    if (auto* a = find_attribute(node, name)) return a;
    const AttrDef* def = schema.find_attribute(name);
    if (!def || !def->has_default()) return nullptr;
    return &defaults.emplace_back(default_attribute(name, def->default_value));
  };
  OpsetMap opsets = opsets_;
  opsets[""] = schema.function_opset ? schema.function_opset : pn.opset;
  pn.function = plan_body(pn, *it->second, std::move(opsets), attrs);
  pn.function->keep_alive = it->second;
  return true;
}

void GraphBuilder::prepare(PlanNode& pn) {
  if (pn.function || !pn.schema || !pn.schema->prepare) return;
  std::vector<const Value*> constants;
  for (const auto& r : pn.inputs) constants.push_back(r && r->constant ? &constant(*r) : nullptr);
  prepare_node(pn, constants, inferred_, ctx_.threads, &widened_);
}

// Runs a node now when its result cannot change between runs; its outputs become constants.
bool GraphBuilder::try_fold(PlanNode& pn, const onnx::NodeProto& node) {
  if (!ctx_.options.fold_constants || pn.function || !pn.subgraphs.empty() || !pn.schema ||
      !pn.schema->kernel || pn.schema->has(Trait::nondeterministic))
    return false;
  std::vector<const Value*> inputs;
  for (const auto& r : pn.inputs) {
    if (r && !r->constant) return false;
    inputs.push_back(r ? &constant(*r) : nullptr);
  }
  std::vector<Value> outs;
  try {
    outs = ctx_.runner.invoke(pn, inputs, nullptr);
  } catch (const Error&) {
    return false;  // left in the plan: the same error then surfaces at run time, at this node
  }
  outs.resize(static_cast<std::size_t>(node.output_size()));
  for (int i = 0; i < node.output_size(); ++i) {
    if (node.output(i).empty()) continue;
    const Value& v = outs[static_cast<std::size_t>(i)];
    if (v.is_tensor()) ctx_.stats.constant_bytes += static_cast<int64_t>(v.tensor().nbytes());
    define(node.output(i), {0, true, add_constant(v)}, pn.location);
  }
  ++ctx_.stats.folded_nodes;
  return true;
}

}  // namespace

bool runs_kernel(const PlanContext& ctx, const OpResolution& r) {
  const OpVersion* schema = r.schema;
  // A kernel wins over a model-local function and over the spec's function body: bodies are for
  // operators without one, unless the caller asks to exercise the bodies.
  const bool body_wanted = ctx.options.prefer_function_bodies && schema && schema->is_function &&
                           !schema->function_body.empty() && !r.function;
  return schema && schema->kernel && !body_wanted;
}

void bind_kernel(PlanNode& pn, const onnx::NodeProto& node, const OpResolution& r) {
  pn.node = &node;
  pn.opset = r.opset;
  pn.schema = r.schema;
  pn.attrs.emplace(node, r.schema);
  pn.allowed_types = input_type_masks(*r.schema, node);
}

// Builds the kernel's per-node state. A failure is kept and rethrown when the node runs, so a
// node that never runs (an untaken If branch) stays harmless, as it was before prepare existed.
void prepare_node(PlanNode& pn, const std::vector<const Value*>& constants,
                  const GraphResult* inferred, int threads,
                  const std::map<std::string, std::string>* widened) {
  if (pn.function || !pn.schema || !pn.schema->prepare) return;
  NodePrepareContext pc(pn, constants, inferred, threads, widened);
  try {
    pn.state = pn.schema->prepare(pc);
  } catch (...) {
    pn.prepare_error = std::current_exception();
  }
}

Value initializer_value(const Model& model, const ir::Initializer& init, const std::string& loc) {
  if (init.tensor) return *init.tensor;
  // What wraps the proto's raw data keeps that proto alive: an edited graph holds its
  // initializers apart from the model, and may drop one while a folded view of it lives on.
  return model.tensor(*init.proto, loc, init.proto);
}

Value sparse_initializer_value(const Model& model, const onnx::SparseTensorProto& sp,
                               const std::string& loc) {
  return densify(model, sp, loc);
}

namespace {

// Nodes, as late.count, that read a value a node listed after them produces; late.first names
// the first one seen.
struct LateReaders {
  int count = 0;
  std::string first;
};

// A node of g by its place in the stored model (what messages name), else its place now.
std::string stored_location(const std::string& prefix, const ir::Graph& g, const ir::Node& n) {
  return node_location(prefix, n.stored_index() >= 0 ? n.stored_index() : g.index_of(n), n.proto());
}

void order_graph(PlanContext& ctx, ir::Graph& g, const std::string& prefix, LateReaders& late) {
  const ir::Node* first = nullptr;
  if (const int count = g.late_readers(&first)) {
    if (late.count == 0) late.first = stored_location(prefix, g, *first);
    late.count += count;
    std::vector<ir::Node*> cycle;
    if (!g.toposort(&cycle)) {
      std::vector<std::string> locations;
      for (const ir::Node* n : cycle) locations.push_back(stored_location(prefix, g, *n));
      ctx.problem("exec.cycle", locations.front(), kCycleIntro + cycle_path(locations));
    }
  }
  for (ir::Node& n : g.nodes())
    for (const ir::Subgraph& sub : n.subgraphs())
      order_graph(ctx, *sub.graph,
                  subgraph_prefix(stored_location(prefix, g, n), sub.attribute, sub.list_index),
                  late);
}

// A node's attributes named as the executor's passes name theirs, removed: count and the first.
struct ReservedAttributes {
  int count = 0;
  std::string first, first_location;
};

void drop_reserved(ir::Graph& g, const std::string& prefix, ReservedAttributes& found) {
  for (ir::Node& n : g.nodes()) {
    for (const ir::Subgraph& sub : n.subgraphs())
      drop_reserved(*sub.graph,
                    subgraph_prefix(stored_location(prefix, g, n), sub.attribute, sub.list_index),
                    found);
    const auto& attrs = n.proto().attribute();
    if (std::none_of(attrs.begin(), attrs.end(), [](const onnx::AttributeProto& a) {
          return a.name().rfind(kExecutorAttributePrefix, 0) == 0;
        }))
      continue;
    auto* editable = n.mutable_proto().mutable_attribute();
    for (int i = editable->size() - 1; i >= 0; --i) {
      if (editable->Get(i).name().rfind(kExecutorAttributePrefix, 0) != 0) continue;
      if (found.count++ == 0) {
        found.first = editable->Get(i).name();
        found.first_location = stored_location(prefix, g, n);
      }
      editable->DeleteSubrange(i, 1);
    }
  }
}

}  // namespace

void drop_reserved_attributes(PlanContext& ctx, ir::Graph& graph) {
  ReservedAttributes found;
  drop_reserved(graph, kMainGraphPrefix, found);
  if (found.count == 0) return;
  std::string message =
      "attribute " + quoted_name(found.first) + " is reserved for the executor's own rewrites (" +
      std::string(kExecutorAttributePrefix) + "*), not an ONNX attribute; ignored";
  if (found.count > 1) message += " (" + std::to_string(found.count) + " such attributes)";
  ctx.warnings.push_back({Severity::warning,
                          "exec.reserved-attribute",
                          ctx.model.name,
                          found.first_location,
                          message,
                          {}});
}

void order_by_data(PlanContext& ctx, ir::Graph& graph) {
  LateReaders late;
  order_graph(ctx, graph, kMainGraphPrefix, late);
  if (late.count == 0) return;
  ctx.warnings.push_back(
      {Severity::warning,
       "exec.not-topological",
       ctx.model.name,
       late.first,
       plural(static_cast<uint64_t>(late.count), "node") +
           " read a value that a later node produces (IR.md wants producers first); the nodes "
           "run in the order of their data (convert --toposort writes the model sorted)",
       {}});
}

std::unique_ptr<GraphPlan> plan_model(PlanContext& ctx, const ir::ModelGraph& model) {
  if (!model.graph()) throw_invalid("exec.bad-graph", ctx.model.name, "", "the model has no graph");
  GraphBuilder main(ctx, nullptr, model_opsets(model.header()), kMainGraphPrefix);
  auto plan = main.build_graph(*model.graph());
  if (!ctx.problems.empty()) throw PlanError(ctx.problems, ctx.model.name);
  for (const auto& [what, seen] : ctx.unknown_attributes) {
    const auto& [op, attribute] = what;
    std::string message = "attribute " + quoted_name(attribute) + " is not an attribute of " + op +
                          "; the kernel ignores it";
    if (seen.first > 1)
      message += " (" + std::to_string(seen.first) + " nodes of " + op + " have it)";
    ctx.warnings.push_back(
        {Severity::warning, "exec.unknown-attribute", ctx.model.name, seen.second, message, {}});
  }
  plan->timed = ctx.options.profile;
  ctx.stats.nodes = static_cast<int64_t>(plan->nodes.size());
  return plan;
}

}  // namespace onnxtool::exec_detail
