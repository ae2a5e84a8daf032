// SPDX-License-Identifier: Apache-2.0
#include "core/infer/engine.h"

#include <algorithm>
#include <deque>
#include <set>
#include <unordered_set>

#include "core/diag/error.h"
#include "core/infer/context.h"
#include "core/infer/helpers.h"
#include "core/ir/location.h"
#include "core/ir/order.h"
#include "core/model/model.h"
#include "core/registry/binding.h"
#include "core/registry/registry.h"
#include "onnx.pb.h"

namespace onnxtool {

// ---- results -------------------------------------------------------------------------------

const ValueRecord* GraphResult::find(const std::string& name) const {
  auto it = index.find(name);
  return it == index.end() ? nullptr : &values[it->second];
}

const GraphResult* InferResult::graph_of(const onnx::GraphProto* g) const {
  for (const auto& r : graphs)
    if (r.graph == g) return &r;
  return nullptr;
}

std::pair<const GraphResult*, const ValueRecord*> InferResult::find_in_scope(
    const GraphResult& g, const std::string& name) const {
  for (const GraphResult* s = &g; s;
       s = s->parent >= 0 ? &graphs[static_cast<std::size_t>(s->parent)] : nullptr)
    if (const ValueRecord* v = s->find(name)) return {s, v};
  return {nullptr, nullptr};
}

const ValueRecord* InferResult::find(const std::string& name) const {
  for (const auto& g : graphs)
    if (const auto* v = g.find(name)) return v;
  return nullptr;
}

namespace {

using Opsets = OpsetMap;

// What the engine knows about a value while inferring, beyond its record.
struct Slot {
  GraphResult* graph = nullptr;
  std::size_t index = 0;
  bool absent = false;                       // an omitted function input
  const onnx::TensorProto* proto = nullptr;  // initializer or constant, decoded on demand
  std::optional<Tensor> tensor;              // the value when constant
  bool tensor_tried = false;
  std::optional<Dims> values;  // propagated integer values
  bool values_tried = false;

  ValueRecord& record() const { return graph->values[index]; }
};

// The values visible in one graph (or function body), and its enclosing scope.
struct Scope {
  Scope* parent = nullptr;
  GraphResult* graph = nullptr;
  bool scratch = false;  // a function body, or inside one: types depend on the call
  const Opsets* opsets = nullptr;
  std::string prefix;
  std::unordered_map<std::string, Slot> slots;
  std::unordered_map<std::string, Type> declared;  // value_info

  Slot* find(const std::string& name) {
    for (Scope* s = this; s; s = s->parent) {
      auto it = s->slots.find(name);
      if (it != s->slots.end()) return &it->second;
    }
    return nullptr;
  }
};

// A type with every shape dropped: what a type constraint binds.
Type without_shapes(const Type& t) {
  Type out = t;
  out.shape.reset();
  if (t.inner) out.inner = std::make_shared<const Type>(without_shapes(*t.inner));
  return out;
}

bool elem_missing(const Type& t) {
  return t.is_unknown() ||
         ((t.kind == Type::Kind::tensor || t.kind == Type::Kind::sparse_tensor) && t.elem == 0);
}

std::string joined(const std::vector<std::string>& v, std::size_t limit = 8) {
  std::string s;
  for (std::size_t i = 0; i < v.size() && i < limit; ++i) s += (i ? ", " : "") + v[i];
  if (v.size() > limit) s += ", ...";
  return s;
}

class Engine;

// ---- the context an operator's inference function sees ------------------------------------

struct OutputState {
  Type type;
  std::optional<Dims> values;
  bool scalar = false;
  std::optional<Tensor> constant;
  std::string explanation;
};

class NodeContext final : public InferContext {
 public:
  NodeContext(Engine& engine, Scope& scope, const onnx::NodeProto& node, const OpVersion* schema,
              int64_t opset, std::string loc);

  const onnx::NodeProto& node() const override { return node_; }
  const OpVersion& schema() const override;
  int64_t opset() const override { return opset_; }
  const AttrView& attrs() const override { return attrs_; }
  std::size_t num_inputs() const override { return slots_.size(); }
  bool has_input(std::size_t i) const override {
    return i < slots_.size() && slots_[i] && !slots_[i]->absent;
  }
  const Type& input_type(std::size_t i) const override;
  const Tensor* input_constant(std::size_t i) const override;
  const Dims* input_values(std::size_t i) const override;
  std::optional<Tensor> tensor_attribute(std::string_view name) const override;
  std::size_t num_outputs() const override { return outs_.size(); }
  bool has_output(std::size_t i) const override {
    return i < outs_.size() && !node_.output(static_cast<int>(i)).empty();
  }
  void set_output_type(std::size_t i, Type type) override {
    if (i < outs_.size()) outs_[i].type = std::move(type);
  }
  const Type& output_type(std::size_t i) const override;
  void set_output_values(std::size_t i, Dims values, bool scalar) override {
    if (i >= outs_.size()) return;
    outs_[i].values = std::move(values);
    outs_[i].scalar = scalar;
  }
  void set_output_constant(std::size_t i, const Tensor& value) override {
    if (i < outs_.size()) outs_[i].constant = value;
  }
  Dim unify_dims(const Dim& a, const Dim& b, const std::string& what) override;
  void explain(std::size_t output, const std::string& why) override {
    if (output < outs_.size()) outs_[output].explanation = why;
  }
  std::vector<Type> infer_graph(const onnx::GraphProto& graph,
                                const std::vector<Type>& input_types) override;
  void infer_unreachable_graph(const onnx::GraphProto& graph) override;
  [[noreturn]] void fail(const std::string& message) const override { throw InferFailure{message}; }
  void warn(const std::string& message) override;

  // For the engine.
  Scope& scope() { return scope_; }
  const std::string& location() const { return loc_; }
  std::vector<OutputState>& outputs() { return outs_; }
  Slot* input_slot(std::size_t i) const { return has_input(i) ? slots_[i] : nullptr; }
  const std::set<std::size_t>& missing_values() const { return missing_values_; }
  const std::set<const onnx::GraphProto*>& inferred_graphs() const { return inferred_graphs_; }
  std::string reason;  // why outputs lack information, found by the engine

 private:
  Engine& engine_;
  Scope& scope_;
  const onnx::NodeProto& node_;
  const OpVersion* schema_;
  int64_t opset_;
  std::string loc_;
  AttrView attrs_;
  std::vector<Slot*> slots_;
  std::vector<Type> types_;
  std::vector<OutputState> outs_;
  mutable std::set<std::size_t> missing_values_;
  std::set<const onnx::GraphProto*> inferred_graphs_;
};

// ---- the engine ----------------------------------------------------------------------------

class Engine {
 public:
  Engine(const Model& model, const InferOptions& options, DiagSink& sink)
      : model_(model),
        opt_(options),
        sink_(sink),
        registry_(options.registry ? *options.registry : Registry::standard()) {}

  InferResult run();

  // Used by NodeContext.
  Type substituted(const Type& t) const;
  Dims substituted(const Dims& d) const;
  const Tensor* constant_of(Slot& slot);
  const Dims* values_of(Slot& slot);
  std::optional<Tensor> decode(const onnx::TensorProto& t);
  Dim unify_and_bind(const Dim& a, const Dim& b, const std::string& what, const std::string& loc);
  std::vector<Type> infer_subgraph(const onnx::GraphProto& g, const std::string& prefix,
                                   Scope& parent, const std::vector<Type>& input_types);
  void report(Severity s, const std::string& rule, const std::string& loc, const std::string& msg);
  // While positive, findings are not reported: a subgraph that never runs is being inferred.
  int silenced = 0;

 private:
  Severity conflict_severity() const { return opt_.strict ? Severity::error : Severity::warning; }

  GraphResult* new_graph(const onnx::GraphProto* g, const std::string& prefix, const Scope* parent,
                         bool scratch);
  Slot& define(Scope& scope, const std::string& name, Type type, Provenance prov);
  void add_inputs(const onnx::GraphProto& g, Scope& scope, const std::vector<Type>* given);
  Type main_input_type(const onnx::ValueInfoProto& v);
  void add_initializers(const onnx::GraphProto& g, Scope& scope);
  std::vector<Type> run_graph(const onnx::GraphProto& g, Scope& scope,
                              const std::vector<Type>* given_inputs);
  void finish_outputs(const onnx::GraphProto& g, Scope& scope);

  void infer_node(const onnx::NodeProto& node, const std::string& loc, Scope& scope);
  void infer_with_schema(NodeContext& ctx, const OpVersion& schema);
  void run_infer_fn(NodeContext& ctx, const InferFn& fn);
  void check_constraints(NodeContext& ctx, const OpVersion& schema);
  void generic_outputs(NodeContext& ctx, const OpVersion& schema);
  void infer_leftover_subgraphs(NodeContext& ctx);
  void commit_outputs(NodeContext& ctx, const std::string& op_id);

  const onnx::FunctionProto* spec_function(const OpVersion& schema);
  void infer_function_call(NodeContext& ctx, const onnx::FunctionProto& fn, int64_t opset);
  std::string function_cache_key(NodeContext& ctx, const onnx::FunctionProto& fn);

  Type merge_declared(const Type& inferred, const Type& declared, const std::string& what,
                      const std::string& loc);
  void bind_types(const Type& a, const Type& b, const std::string& loc);
  void bind_dims(const Dim& a, const Dim& b, const std::string& loc);
  void bind(const std::string& name, int64_t value, const std::string& loc);
  void apply_bindings();

  const Model& model_;
  const InferOptions& opt_;
  DiagSink& sink_;
  const Registry& registry_;
  Opsets model_opsets_;
  LocalFunctions functions_;
  std::vector<std::unique_ptr<GraphResult>> graphs_;
  std::vector<std::unique_ptr<GraphResult>> scratch_;  // function bodies: not part of the result
  std::unordered_map<const onnx::GraphProto*, std::size_t> graph_index_;
  std::map<std::string, int64_t> bound_;
  std::map<std::string, std::string> bound_at_;
  std::unordered_set<std::string> reported_;
  std::map<const OpVersion*, std::optional<onnx::FunctionProto>> spec_functions_;
  std::unordered_map<std::string, std::vector<OutputState>> function_cache_;
  // Function-body nodes with the caller's attributes bound. They live as long as the engine:
  // a Constant's tensor views its attribute, and that tensor may outlive the call (cached
  // outputs, lazily read values).
  std::deque<onnx::NodeProto> bound_function_nodes_;
  int function_depth_ = 0;
};

// ---- NodeContext ---------------------------------------------------------------------------

NodeContext::NodeContext(Engine& engine, Scope& scope, const onnx::NodeProto& node,
                         const OpVersion* schema, int64_t opset, std::string loc)
    : engine_(engine),
      scope_(scope),
      node_(node),
      schema_(schema),
      opset_(opset),
      loc_(std::move(loc)),
      attrs_(node, schema),
      outs_(static_cast<std::size_t>(node.output_size())) {
  for (const auto& name : node.input()) {
    Slot* slot = name.empty() ? nullptr : scope.find(name);
    if (!name.empty() && !slot)
      engine.report(Severity::error, "infer.undefined-input", loc_,
                    "input " + quoted_name(name) + " is not defined before this node");
    slots_.push_back(slot);
    types_.push_back(slot && !slot->absent ? engine.substituted(slot->record().type) : Type());
  }
}

const OpVersion& NodeContext::schema() const {
  static const OpVersion kNone;
  return schema_ ? *schema_ : kNone;
}

const Type& NodeContext::input_type(std::size_t i) const {
  static const Type kUnknown;
  return i < types_.size() ? types_[i] : kUnknown;
}

const Type& NodeContext::output_type(std::size_t i) const {
  static const Type kUnknown;
  return i < outs_.size() ? outs_[i].type : kUnknown;
}

const Tensor* NodeContext::input_constant(std::size_t i) const {
  Slot* s = input_slot(i);
  return s ? engine_.constant_of(*s) : nullptr;
}

const Dims* NodeContext::input_values(std::size_t i) const {
  Slot* s = input_slot(i);
  const Dims* v = s ? engine_.values_of(*s) : nullptr;
  if (!v && has_input(i)) missing_values_.insert(i);
  return v;
}

std::optional<Tensor> NodeContext::tensor_attribute(std::string_view name) const {
  const onnx::TensorProto* t = attrs_.tensor(name);
  return t ? engine_.decode(*t) : std::nullopt;
}

Dim NodeContext::unify_dims(const Dim& a, const Dim& b, const std::string& what) {
  return engine_.unify_and_bind(a, b, what, loc_);
}

std::vector<Type> NodeContext::infer_graph(const onnx::GraphProto& graph,
                                           const std::vector<Type>& input_types) {
  std::string prefix = loc_ + " attribute ?: ";
  for (const auto& a : node_.attribute()) {
    if (a.has_g() && &a.g() == &graph) prefix = subgraph_prefix(loc_, a.name());
    for (int k = 0; k < a.graphs_size(); ++k)
      if (&a.graphs(k) == &graph) prefix = subgraph_prefix(loc_, a.name(), k);
  }
  inferred_graphs_.insert(&graph);
  return engine_.infer_subgraph(graph, prefix, scope_, input_types);
}

void NodeContext::infer_unreachable_graph(const onnx::GraphProto& graph) {
  ++engine_.silenced;
  try {
    infer_graph(graph, {});
  } catch (...) {
    --engine_.silenced;
    throw;
  }
  --engine_.silenced;
}

void NodeContext::warn(const std::string& message) {
  engine_.report(Severity::warning, "infer.warning", loc_, message);
}

// ---- Engine: values, constants, bindings ---------------------------------------------------

void Engine::report(Severity s, const std::string& rule, const std::string& loc,
                    const std::string& msg) {
  if (silenced > 0) return;
  // Subgraphs are inferred more than once (a loop's carried types settle); say things once.
  if (!reported_.insert(rule + '\n' + loc + '\n' + msg).second) return;
  Diagnostic d;
  d.severity = s;
  d.rule = rule;
  d.location = loc;
  d.message = msg;
  sink_.report(std::move(d));
}

Dims Engine::substituted(const Dims& d) const {
  if (bound_.empty()) return d;
  auto lookup = [this](const std::string& name) -> std::optional<Dim> {
    auto it = bound_.find(name);
    return it == bound_.end() ? std::nullopt : std::optional<Dim>(Dim::value(it->second));
  };
  Dims out = d;
  for (auto& x : out)
    if (x.is_symbolic()) x = x.substitute(lookup);
  return out;
}

Type Engine::substituted(const Type& t) const {
  if (bound_.empty()) return t;
  Type out = t;
  if (out.shape) out.shape = substituted(*out.shape);
  if (t.inner) out.inner = std::make_shared<const Type>(substituted(*t.inner));
  return out;
}

std::optional<Tensor> Engine::decode(const onnx::TensorProto& t) {
  try {
    return model_.tensor(t);
  } catch (const std::exception&) {
    return std::nullopt;  // a malformed tensor is the checker's finding
  }
}

const Tensor* Engine::constant_of(Slot& slot) {
  if (!slot.tensor && slot.proto && !slot.tensor_tried) {
    slot.tensor_tried = true;
    slot.tensor = decode(*slot.proto);
  }
  return slot.tensor ? &*slot.tensor : nullptr;
}

namespace {
// Integer tensors of rank 0 or 1 and modest size double as propagated values.
constexpr int64_t kMaxValues = 4096;

std::optional<Dims> values_from_tensor(const Tensor& t) {
  if (t.rank() > 1 || t.numel() > kMaxValues) return std::nullopt;
  const DataType d = t.dtype();
  if (d != DataType::int64 && d != DataType::int32) return std::nullopt;
  Dims out;
  for (int64_t i = 0; i < t.numel(); ++i)
    out.push_back(Dim::value(d == DataType::int64 ? t.data<int64_t>()[i] : t.data<int32_t>()[i]));
  return out;
}
}  // namespace

const Dims* Engine::values_of(Slot& slot) {
  if (slot.values) return &*slot.values;
  if (slot.values_tried) return nullptr;
  slot.values_tried = true;
  if (const Tensor* t = constant_of(slot)) slot.values = values_from_tensor(*t);
  return slot.values ? &*slot.values : nullptr;
}

void Engine::bind(const std::string& name, int64_t value, const std::string& loc) {
  auto it = bound_.find(name);
  if (it == bound_.end()) {
    bound_[name] = value;
    bound_at_[name] = loc;
    return;
  }
  if (it->second != value)
    report(conflict_severity(), "infer.symbol-conflict", loc,
           "dim_param " + name + " is " + std::to_string(value) + " here but " +
               std::to_string(it->second) + " at " + bound_at_[name] +
               " (a dim_param is one value across the model)");
}

void Engine::bind_dims(const Dim& a, const Dim& b, const std::string& loc) {
  const Dim& known = a.is_known() ? a : b;
  const Dim& sym = a.is_known() ? b : a;
  if (!known.is_known() || !sym.is_symbolic()) return;
  if (auto s = sym.solve_for(known.value())) bind(s->first, s->second, loc);
}

void Engine::bind_types(const Type& a, const Type& b, const std::string& loc) {
  if (a.shape && b.shape && a.shape->size() == b.shape->size())
    for (std::size_t i = 0; i < a.shape->size(); ++i) bind_dims((*a.shape)[i], (*b.shape)[i], loc);
  if (a.inner && b.inner) bind_types(*a.inner, *b.inner, loc);
}

Dim Engine::unify_and_bind(const Dim& a, const Dim& b, const std::string& what,
                           const std::string& loc) {
  Dim r = unify_dim(a, b, what);
  bind_dims(a, b, loc);
  return r;
}

Type Engine::merge_declared(const Type& inferred, const Type& declared, const std::string& what,
                            const std::string& loc) {
  if (declared.is_unknown()) return inferred;
  const Type d = substituted(declared);
  try {
    Type merged = unify_types(inferred, d, what);
    bind_types(inferred, d, loc);
    return merged;
  } catch (const InferFailure& f) {
    report(conflict_severity(), "infer.declared-conflict", loc,
           what + " is declared " + d.to_string() + " but inferred " + inferred.to_string() + " (" +
               f.message + ")");
    return inferred;
  }
}

void Engine::apply_bindings() {
  if (bound_.empty()) return;
  for (auto& g : graphs_) {
    for (auto& v : g->values) {
      v.type = substituted(v.type);
      if (v.values) v.values = substituted(*v.values);
    }
    for (auto& t : g->output_types) t = substituted(t);
  }
}

// ---- Engine: graphs ------------------------------------------------------------------------

GraphResult* Engine::new_graph(const onnx::GraphProto* g, const std::string& prefix,
                               const Scope* parent, bool scratch) {
  auto fresh = std::make_unique<GraphResult>();
  fresh->graph = g;
  fresh->prefix = prefix;
  if (scratch) {  // function bodies and what they hold: not part of the result
    scratch_.push_back(std::move(fresh));
    return scratch_.back().get();
  }
  if (parent) fresh->parent = static_cast<int>(graph_index_.at(parent->graph->graph));
  // A subgraph inferred again (a loop body as its carried types settle) replaces its result.
  auto it = graph_index_.find(g);
  if (it != graph_index_.end()) {
    *graphs_[it->second] = std::move(*fresh);
    return graphs_[it->second].get();
  }
  graph_index_[g] = graphs_.size();
  graphs_.push_back(std::move(fresh));
  return graphs_.back().get();
}

Slot& Engine::define(Scope& scope, const std::string& name, Type type, Provenance prov) {
  GraphResult& g = *scope.graph;
  ValueRecord rec;
  rec.name = name;
  rec.type = std::move(type);
  rec.provenance = std::move(prov);
  auto it = g.index.find(name);
  std::size_t idx = 0;
  if (it != g.index.end()) {  // defined twice: the checker reports it; the last one wins
    idx = it->second;
    g.values[idx] = std::move(rec);
  } else {
    idx = g.values.size();
    g.index[name] = idx;
    g.values.push_back(std::move(rec));
  }
  Slot& slot = scope.slots[name];
  slot = Slot{};
  slot.graph = &g;
  slot.index = idx;
  return slot;
}

Type Engine::main_input_type(const onnx::ValueInfoProto& v) {
  Type t = v.has_type() ? type_from_proto(v.type()) : Type();
  auto it = opt_.input_shapes.find(v.name());
  if (it == opt_.input_shapes.end()) return t;
  const auto& given = it->second;
  if (!t.is_tensor() && !t.is_unknown())
    throw_usage("--input-shape " + v.name() + ": the input is " + t.to_string() + ", not a tensor");
  if (t.shape && t.shape->size() != given.size())
    throw_usage("--input-shape " + v.name() + ": the input has rank " +
                std::to_string(t.shape->size()) + " (" + t.to_string() + "), not " +
                std::to_string(given.size()));
  Dims dims;
  for (int64_t d : given) dims.push_back(Dim::value(d));
  Type fixed = Type::tensor(t.elem, dims);
  bind_types(t, fixed, "--input-shape " + v.name());
  return fixed;
}

void Engine::add_inputs(const onnx::GraphProto& g, Scope& scope, const std::vector<Type>* given) {
  const bool main = !scope.parent && !scope.scratch;
  for (int i = 0; i < g.input_size(); ++i) {
    const auto& v = g.input(i);
    const std::string loc = item_location(scope.prefix, "input", i, v.name());
    Type t = main ? main_input_type(v) : (v.has_type() ? type_from_proto(v.type()) : Type());
    if (given && static_cast<std::size_t>(i) < given->size())
      t = merge_declared((*given)[static_cast<std::size_t>(i)], t,
                         "subgraph input " + quoted_name(v.name()), loc);
    Provenance p;
    p.origin = Provenance::Origin::input;
    define(scope, v.name(), substituted(t), std::move(p));
  }
}

void Engine::add_initializers(const onnx::GraphProto& g, Scope& scope) {
  // An initializer that is also an input is only the input's default, not a constant — except
  // before IR 4, where every initializer had to be listed as an input too.
  const bool inputs_are_weights = model_.proto->ir_version() < 4;
  for (const auto& t : g.initializer()) {
    if (auto it = scope.slots.find(t.name()); it != scope.slots.end()) {
      if (inputs_are_weights) it->second.proto = &t;
      continue;
    }
    Dims dims;
    for (int64_t d : t.dims()) dims.push_back(Dim::value(d));
    Provenance p;
    p.origin = Provenance::Origin::initializer;
    Slot& s = define(scope, t.name(), Type::tensor(t.data_type(), dims), std::move(p));
    s.proto = &t;
  }
  for (const auto& sp : g.sparse_initializer()) {
    const std::string& name = sp.values().name();
    if (scope.slots.count(name)) continue;
    Dims dims;
    for (int64_t d : sp.dims()) dims.push_back(Dim::value(d));
    Provenance p;
    p.origin = Provenance::Origin::initializer;
    define(scope, name, Type::tensor(sp.values().data_type(), dims), std::move(p));
  }
}

void Engine::finish_outputs(const onnx::GraphProto& g, Scope& scope) {
  GraphResult& r = *scope.graph;
  r.output_types.clear();
  for (int i = 0; i < g.output_size(); ++i) {
    const auto& v = g.output(i);
    const std::string loc = item_location(scope.prefix, "output", i, v.name());
    Slot* s = scope.find(v.name());
    Type inferred = s ? s->record().type : Type();
    if (!s)
      report(Severity::error, "infer.undefined-input", loc,
             "graph output " + quoted_name(v.name()) + " is not produced by any node");
    Type declared = v.has_type() ? type_from_proto(v.type()) : Type();
    Type merged = merge_declared(inferred, declared, "output " + quoted_name(v.name()), loc);
    if (s && s->graph == &r) {
      s->record().type = merged;
      s->record().is_output = true;
    }
    r.output_types.push_back(std::move(merged));
  }
}

std::vector<Type> Engine::run_graph(const onnx::GraphProto& g, Scope& scope,
                                    const std::vector<Type>* given_inputs) {
  add_inputs(g, scope, given_inputs);
  add_initializers(g, scope);
  for (const auto& v : g.value_info())
    if (v.has_type()) scope.declared[v.name()] = type_from_proto(v.type());
  for (int i = 0; i < g.output_size(); ++i)
    if (g.output(i).has_type() && !scope.declared.count(g.output(i).name()))
      scope.declared[g.output(i).name()] = type_from_proto(g.output(i).type());
  // By the data, not the listing: an unsorted export still gets every value typed (the
  // checker reports the order). A cycle leaves the stored order.
  for (int i : order_or_stored(g.node()))
    infer_node(g.node(i), node_location(scope.prefix, i, g.node(i)), scope);
  finish_outputs(g, scope);
  return scope.graph->output_types;
}

std::vector<Type> Engine::infer_subgraph(const onnx::GraphProto& g, const std::string& prefix,
                                         Scope& parent, const std::vector<Type>& input_types) {
  Scope scope;
  scope.parent = &parent;
  scope.opsets = parent.opsets;
  scope.prefix = prefix;
  scope.scratch = parent.scratch;
  scope.graph = new_graph(&g, prefix, &parent, parent.scratch);
  return run_graph(g, scope, &input_types);
}

// The dim_params that the main graph's inputs, outputs and value_info name.
std::set<std::string> main_graph_dim_params(const onnx::GraphProto& g) {
  std::set<std::string> out;
  for (const auto* list : {&g.input(), &g.output(), &g.value_info()})
    for (const auto& v : *list) collect_dim_params(v.type(), out);
  return out;
}

// " (it has: batch, seq)" or " (it has none)".
std::string symbol_list(const std::set<std::string>& symbols) {
  if (symbols.empty()) return " (it has none)";
  std::string out;
  for (const auto& s : symbols) out += (out.empty() ? "" : ", ") + s;
  return " (it has: " + out + ")";
}

InferResult Engine::run() {
  const auto& proto = *model_.proto;
  model_opsets_ = model_opsets(proto);
  functions_ = LocalFunctions(proto);
  const std::set<std::string> symbols = main_graph_dim_params(proto.graph());
  for (const auto& [name, value] : opt_.dims) {
    if (!symbols.count(name))
      throw_usage("--dim " + name + ": the model has no symbolic dimension named " +
                  quoted_name(name) + symbol_list(symbols));
    bound_[name] = value;
    bound_at_[name] = "--dim " + name;
  }
  for (const auto& [name, shape] : opt_.input_shapes) {
    bool found = false;
    for (const auto& v : proto.graph().input()) found = found || v.name() == name;
    if (!found) throw_usage("--input-shape: the model has no input named " + quoted_name(name));
  }
  Scope main;
  main.opsets = &model_opsets_;
  main.prefix = kMainGraphPrefix;
  main.graph = new_graph(&proto.graph(), main.prefix, nullptr, false);
  run_graph(proto.graph(), main, nullptr);
  for (int i = 0; i < proto.training_info_size(); ++i) {
    const auto& t = proto.training_info(i);
    const std::string base = "training_info[" + std::to_string(i) + "].";
    if (t.has_initialization())
      infer_subgraph(t.initialization(), base + "initialization.", main, {});
    if (t.has_algorithm()) infer_subgraph(t.algorithm(), base + "algorithm.", main, {});
  }
  apply_bindings();
  InferResult result;
  for (auto& g : graphs_) result.graphs.push_back(std::move(*g));
  result.bindings = bound_;
  return result;
}

// ---- Engine: nodes -------------------------------------------------------------------------

const onnx::FunctionProto* Engine::spec_function(const OpVersion& schema) {
  if (!opt_.function_body || schema.function_body.empty()) return nullptr;
  auto it = spec_functions_.find(&schema);
  if (it == spec_functions_.end()) {
    std::optional<onnx::FunctionProto> fn;
    try {
      fn = opt_.function_body(schema);
    } catch (const std::exception&) {
      fn.reset();  // a body that does not parse is the registry's bug, reported by its tests
    }
    it = spec_functions_.emplace(&schema, std::move(fn)).first;
  }
  return it->second ? &*it->second : nullptr;
}

void Engine::infer_node(const onnx::NodeProto& node, const std::string& loc, Scope& scope) {
  const OpResolution r = resolve_operator(registry_, *scope.opsets, &functions_, node);
  // A model-local function of the same name wins over the registry's operator.
  const onnx::FunctionProto* local = r.function;
  const OpVersion* schema = local ? nullptr : r.schema;
  NodeContext ctx(*this, scope, node, schema, r.opset, loc);
  std::string op_id = node.op_type();
  if (local) {
    infer_function_call(ctx, *local, r.opset);
  } else if (schema) {
    op_id = schema->id();
    infer_with_schema(ctx, *schema);
  } else {
    const std::string where = r.domain.empty() ? "ai.onnx" : r.domain;
    ctx.reason = "no operator " + node.op_type() + " in " + where +
                 (!r.imported ? " (domain not imported)" : " at opset " + std::to_string(r.opset));
    report(Severity::warning, "infer.unknown-op", loc, ctx.reason + ": its outputs stay untyped");
  }
  infer_leftover_subgraphs(ctx);
  commit_outputs(ctx, op_id);
}

void Engine::infer_with_schema(NodeContext& ctx, const OpVersion& schema) {
  check_constraints(ctx, schema);
  if (schema.infer) {
    run_infer_fn(ctx, schema.infer);
  } else if (const auto* fn = spec_function(schema)) {
    infer_function_call(ctx, *fn, schema.function_opset);
  } else {
    ctx.reason = "no shape inference for " + schema.id() + " (element types only)";
  }
  generic_outputs(ctx, schema);
}

void Engine::run_infer_fn(NodeContext& ctx, const InferFn& fn) {
  try {
    fn(ctx);
  } catch (const InferFailure& f) {
    report(Severity::error, "infer.failed", ctx.location(), f.message);
    ctx.reason = "inference failed: " + f.message;
  } catch (const Error& e) {
    report(Severity::error, e.rule(), ctx.location(), e.message());
    ctx.reason = "inference failed: " + e.message();
  } catch (const std::exception& e) {
    report(Severity::error, "infer.internal", ctx.location(),
           std::string("inference raised an unexpected error: ") + e.what());
    ctx.reason = "inference failed";
  }
}

void Engine::check_constraints(NodeContext& ctx, const OpVersion& schema) {
  TypeBinder binder(schema);
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    if (!ctx.has_input(i)) continue;
    const std::string spec = type_spec(ctx.input_type(i));
    if (spec.empty()) continue;
    const std::string label = "input " + std::to_string(i);
    const auto r = binder.bind_input(i, spec, label);
    const std::string named = label + " " + quoted_name(ctx.node().input(static_cast<int>(i)));
    if (r.outcome == TypeBinder::Outcome::not_allowed) {
      const bool literal = r.formal->is_literal_type();
      report(Severity::error, "infer.type-not-allowed", ctx.location(),
             named + " has type " + spec + ", which " + schema.id() + " does not allow" +
                 (literal ? "" : " for " + r.formal->type) + " (expected " +
                 joined(r.allowed->names()) + ")");
    } else if (r.outcome == TypeBinder::Outcome::inconsistent) {
      report(Severity::error, "infer.type-mismatch", ctx.location(),
             named + " has type " + spec + " but " + r.bound_by + " has " + r.bound_type +
                 " (both are " + r.formal->type + ")");
    }
  }
}

// Outputs the operator's inference left without an element type take it from the signature:
// the type an input bound to the same constraint has, or the constraint's only type.
void Engine::generic_outputs(NodeContext& ctx, const OpVersion& schema) {
  std::map<std::string, Type> bound;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    const FormalParam* f = formal_input(schema, i);
    if (!f || !ctx.has_input(i) || f->is_literal_type()) continue;
    if (f->option == ParamOption::variadic && !f->homogeneous) continue;
    const Type& t = ctx.input_type(i);
    if (!elem_missing(t)) bound.try_emplace(f->type, without_shapes(t));
  }
  for (std::size_t o = 0; o < ctx.num_outputs(); ++o) {
    OutputState& out = ctx.outputs()[o];
    const FormalParam* f = formal_output(schema, o);
    if (!ctx.has_output(o) || !f || !elem_missing(out.type)) continue;
    if (f->option == ParamOption::variadic && !f->homogeneous) continue;
    Type t;
    const TypeSet* allowed = allowed_types(schema, *f);
    if (f->is_literal_type()) {
      t = type_from_spec(f->type);
    } else if (auto it = bound.find(f->type); it != bound.end()) {
      t = it->second;
    } else if (allowed && allowed->names().size() == 1) {
      t = type_from_spec(allowed->names()[0]);
    }
    if (t.is_unknown()) continue;
    if (out.type.kind == t.kind && t.kind == Type::Kind::tensor)
      out.type.elem = t.elem;
    else
      out.type = t;
  }
}

void Engine::infer_leftover_subgraphs(NodeContext& ctx) {
  // Graph attributes the operator's inference did not visit still get their values typed,
  // from their own declarations.
  for (const auto& a : ctx.node().attribute()) {
    if (a.has_g() && !ctx.inferred_graphs().count(&a.g()))
      infer_subgraph(a.g(), subgraph_prefix(ctx.location(), a.name()), ctx.scope(), {});
    for (int k = 0; k < a.graphs_size(); ++k)
      if (!ctx.inferred_graphs().count(&a.graphs(k)))
        infer_subgraph(a.graphs(k), subgraph_prefix(ctx.location(), a.name(), k), ctx.scope(), {});
  }
}

void Engine::commit_outputs(NodeContext& ctx, const std::string& op_id) {
  Scope& scope = ctx.scope();
  for (std::size_t o = 0; o < ctx.num_outputs(); ++o) {
    if (!ctx.has_output(o)) continue;
    const std::string& name = ctx.node().output(static_cast<int>(o));
    OutputState& out = ctx.outputs()[o];
    Type t = substituted(out.type);
    Provenance p;
    if (auto d = scope.declared.find(name); d != scope.declared.end()) {
      const std::string alone = t.to_string();
      t = merge_declared(t, d->second, "value " + quoted_name(name), ctx.location());
      if (t.to_string() != alone) p.declared = d->second.to_string();
    }
    p.node = ctx.location();
    p.op = op_id;
    for (const auto& in : ctx.node().input()) p.inputs.push_back(in);
    p.reason = !out.explanation.empty() ? out.explanation : ctx.reason;
    p.missing_values.assign(ctx.missing_values().begin(), ctx.missing_values().end());
    Slot& s = define(scope, name, std::move(t), std::move(p));
    if (out.constant) s.tensor = std::move(out.constant);
    if (out.values) {
      s.values = substituted(*out.values);
      s.record().values = s.values;
    }
  }
}

// ---- Engine: functions ---------------------------------------------------------------------

namespace {

// The function body's node with attribute references (ref_attr_name) resolved against the
// calling node's attributes, then the function's defaults; unresolved ones are dropped.
onnx::NodeProto bind_attributes(const onnx::NodeProto& body_node, const onnx::NodeProto& caller,
                                const onnx::FunctionProto& fn) {
  onnx::NodeProto out = body_node;
  out.clear_attribute();
  for (const auto& a : body_node.attribute()) {
    if (a.ref_attr_name().empty()) {
      *out.add_attribute() = a;
      continue;
    }
    const onnx::AttributeProto* src = nullptr;
    for (const auto& c : caller.attribute())
      if (c.name() == a.ref_attr_name()) src = &c;
    for (const auto& d : fn.attribute_proto())
      if (!src && d.name() == a.ref_attr_name()) src = &d;
    if (!src) continue;
    auto* copy = out.add_attribute();
    *copy = *src;
    copy->set_name(a.name());
  }
  return out;
}

}  // namespace

std::string Engine::function_cache_key(NodeContext& ctx, const onnx::FunctionProto& fn) {
  std::string key = std::to_string(reinterpret_cast<std::uintptr_t>(&fn));
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    key += '|' + (ctx.has_input(i) ? ctx.input_type(i).to_string() : "-");
    if (const Dims* v = ctx.has_input(i) ? ctx.input_values(i) : nullptr)
      key += '=' + dims_to_string(*v);
  }
  for (const auto& a : ctx.node().attribute()) key += '|' + a.SerializeAsString();
  return key;
}

void Engine::infer_function_call(NodeContext& ctx, const onnx::FunctionProto& fn, int64_t opset) {
  constexpr int kMaxFunctionNesting = 16;
  if (function_depth_ >= kMaxFunctionNesting) {
    report(Severity::warning, "infer.function", ctx.location(),
           "functions nest more than " + std::to_string(kMaxFunctionNesting) +
               " deep (recursive?): outputs left untyped");
    return;
  }
  const std::string key = function_cache_key(ctx, fn);
  if (auto hit = function_cache_.find(key); hit != function_cache_.end()) {
    ctx.outputs() = hit->second;
    return;
  }
  // The body resolves against its own imports; the default domain, when it does not import it,
  // at the caller's version.
  Opsets opsets = opsets_from(fn.opset_import());
  if (!opsets.count("")) opsets[""] = opset > 0 ? opset : model_opsets_[""];
  Scope body;
  body.opsets = &opsets;
  body.prefix = ctx.location() + " function " + fn.name() + ": ";
  body.scratch = true;
  body.graph = new_graph(nullptr, body.prefix, nullptr, true);
  for (int i = 0; i < fn.input_size(); ++i) {
    Slot* caller = ctx.input_slot(static_cast<std::size_t>(i));
    Provenance p;
    p.origin = Provenance::Origin::input;
    Slot& s = define(body, fn.input(i),
                     caller ? ctx.input_type(static_cast<std::size_t>(i)) : Type(), std::move(p));
    if (!caller) {
      s.absent = true;
      continue;
    }
    s.proto = caller->proto;
    s.tensor = caller->tensor;
    if (const Dims* v = values_of(*caller)) s.values = *v;
  }
  ++function_depth_;
  for (int i : order_or_stored(fn.node())) {
    const onnx::NodeProto& node =
        bound_function_nodes_.emplace_back(bind_attributes(fn.node(i), ctx.node(), fn));
    infer_node(node, node_location(body.prefix, i, node), body);
  }
  --function_depth_;
  for (int o = 0; o < fn.output_size() && static_cast<std::size_t>(o) < ctx.num_outputs(); ++o) {
    Slot* s = body.find(fn.output(o));
    if (!s) continue;
    OutputState& out = ctx.outputs()[static_cast<std::size_t>(o)];
    out.type = s->record().type;
    out.values = s->values;
    out.scalar = out.type.rank() == 0;
    if (constant_of(*s)) out.constant = s->tensor;
    if (!is_fully_known(out.type)) out.explanation = "inferred through its function body";
  }
  function_cache_[key] = ctx.outputs();
}

}  // namespace

InferResult infer_model(const Model& model, const InferOptions& options, DiagSink& sink) {
  Engine engine(model, options, sink);
  return engine.run();
}

}  // namespace onnxtool
