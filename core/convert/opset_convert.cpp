// SPDX-License-Identifier: Apache-2.0
#include "core/convert/opset_convert.h"

#include <algorithm>
#include <deque>
#include <optional>
#include <set>
#include <unordered_map>

#include "core/convert/adapter.h"
#include "core/convert/signature.h"
#include "core/diag/error.h"
#include "core/infer/engine.h"
#include "core/infer/type.h"
#include "core/ir/graph.h"
#include "core/ir/location.h"
#include "core/model/model.h"
#include "core/registry/binding.h"
#include "core/registry/registry.h"
#include "core/types/dtype.h"
#include "core/types/tensor_proto.h"
#include "core/version.h"
#include "onnx.pb.h"

namespace onnxtool::convert {

int Report::count(NodeOutcome::Action a) const {
  return static_cast<int>(std::count_if(nodes.begin(), nodes.end(),
                                        [&](const NodeOutcome& n) { return n.action == a; }));
}

const char* action_name(NodeOutcome::Action a) {
  switch (a) {
    case NodeOutcome::Action::kept:
      return "kept";
    case NodeOutcome::Action::adapted:
      return "adapted";
    case NodeOutcome::Action::expanded:
      return "expanded";
    case NodeOutcome::Action::refused:
      return "refused";
  }
  return "?";
}

namespace {

using Action = NodeOutcome::Action;

// A step the signatures cannot bridge and no adapter covers: a gap in onnxtool, not a limit of
// the target opset (the completeness test keeps it from happening for standard operators).
struct NoAdapter {
  std::string why;
};

std::string step_text(int64_t from, int64_t to) {
  return std::to_string(from) + " -> " + std::to_string(to);
}

// Whether an attribute as a node gives it holds the value the registry gives as its default.
bool holds_default(const onnx::AttributeProto& a, const AttrDef& def) {
  if (!def.has_default()) return false;
  const onnx::AttributeProto d = default_attribute(def.name, def.default_value);
  if (!a.ref_attr_name().empty()) return false;
  switch (d.type()) {
    case onnx::AttributeProto::INT:
      return a.i() == d.i();
    case onnx::AttributeProto::FLOAT:
      return a.f() == d.f();
    case onnx::AttributeProto::STRING:
      return a.s() == d.s();
    case onnx::AttributeProto::INTS:
      return std::equal(a.ints().begin(), a.ints().end(), d.ints().begin(), d.ints().end());
    case onnx::AttributeProto::FLOATS:
      return std::equal(a.floats().begin(), a.floats().end(), d.floats().begin(), d.floats().end());
    case onnx::AttributeProto::STRINGS:
      return std::equal(a.strings().begin(), a.strings().end(), d.strings().begin(),
                        d.strings().end());
    default:
      return false;
  }
}

// Every graph of the model (subgraphs at any depth), with the location prefix of its nodes.
struct GraphAt {
  ir::Graph* graph;
  std::string prefix;
};

int node_position(const ir::Node& n, int index) {
  return n.stored_index() >= 0 ? n.stored_index() : index;
}

void collect_graphs(ir::Graph& g, const std::string& prefix, std::vector<GraphAt>& out) {
  out.push_back({&g, prefix});
  int index = 0;
  for (ir::Node& n : g.nodes()) {
    const int at = node_position(n, index++);
    if (n.subgraphs().empty()) continue;
    const std::string loc = node_location(prefix, at, n.proto());
    for (const auto& sub : n.subgraphs())
      collect_graphs(*sub.graph, subgraph_prefix(loc, sub.attribute, sub.list_index), out);
  }
}

// Renames every value a node (and the graphs inside it) names: the body's names are the body's
// own, so a map over all of them keeps subgraphs' reads of outer values right.
void rename_values(onnx::NodeProto& node, const std::function<std::string(const std::string&)>& f);

void rename_values(onnx::GraphProto& g, const std::function<std::string(const std::string&)>& f) {
  for (auto* list : {g.mutable_input(), g.mutable_output(), g.mutable_value_info()})
    for (auto& v : *list) v.set_name(f(v.name()));
  for (auto& t : *g.mutable_initializer()) t.set_name(f(t.name()));
  for (auto& n : *g.mutable_node()) rename_values(n, f);
}

void rename_values(onnx::NodeProto& node, const std::function<std::string(const std::string&)>& f) {
  for (auto& s : *node.mutable_input()) s = f(s);
  for (auto& s : *node.mutable_output()) s = f(s);
  for (auto& a : *node.mutable_attribute()) {
    if (a.has_g()) rename_values(*a.mutable_g(), f);
    for (auto& g : *a.mutable_graphs()) rename_values(g, f);
  }
}

// Whether the model is at IR 3 and its target opsets keep it there (every initializer is then
// also a graph input, so new ones must be too).
bool stays_at_ir3(const ir::ModelGraph& model, const Options& options) {
  if (model.header().ir_version() > 3) return false;
  OpsetMap opsets = model_opsets(model.header());
  for (const auto& [domain, version] : options.targets) opsets[domain] = version;
  for (const auto& [domain, version] : opsets)
    if (find_opset_domain(domain) && min_ir_for_opset(domain, version) > 3) return false;
  return true;
}

// Whether the body's nodes read a value of this name inside a subgraph (at any depth).
bool body_reads_nested(const onnx::FunctionProto& body, const std::string& name);

// Replaces reads of omitted inputs: "" at the body's top level, the stand-in inside subgraphs.
void bind_omitted(onnx::NodeProto& node, const std::map<std::string, std::string>& omitted,
                  bool nested) {
  for (auto& in : *node.mutable_input()) {
    auto it = omitted.find(in);
    if (it != omitted.end()) in = nested ? it->second : "";
  }
  for (auto& a : *node.mutable_attribute()) {
    auto bind_graph = [&](onnx::GraphProto& sub) {
      for (auto& inner : *sub.mutable_node()) bind_omitted(inner, omitted, true);
      for (auto& out : *sub.mutable_output()) {
        auto it = omitted.find(out.name());
        if (it != omitted.end()) out.set_name(it->second);
      }
    };
    if (a.has_g()) bind_graph(*a.mutable_g());
    for (auto& sub : *a.mutable_graphs()) bind_graph(sub);
  }
}

// Whether a graph's subgraphs (at any depth) read a value of this name.
bool read_in_subgraphs(const onnx::GraphProto& g, const std::string& name, bool nested = false) {
  for (const auto& node : g.node()) {
    if (nested && std::find(node.input().begin(), node.input().end(), name) != node.input().end())
      return true;
    for (const auto& a : node.attribute()) {
      if (a.has_g() && read_in_subgraphs(a.g(), name, true)) return true;
      for (const auto& sub : a.graphs())
        if (read_in_subgraphs(sub, name, true)) return true;
    }
  }
  if (nested)
    for (const auto& o : g.output())
      if (o.name() == name) return true;
  return false;
}

bool body_reads_nested(const onnx::FunctionProto& body, const std::string& name) {
  onnx::GraphProto g;
  *g.mutable_node() = body.node();
  return read_in_subgraphs(g, name);
}

class Converter {
 public:
  Converter(ir::ModelGraph& model, const Registry& registry, const Options& options)
      : model_(model), registry_(registry), options_(options) {
    env_.model = &model;
    env_.registry = &registry;
    env_.type_of = [this](const std::string& name) -> const Type* {
      if (auto it = extra_types_.find(name); it != extra_types_.end()) return &it->second;
      return options_.type_of ? options_.type_of(name) : nullptr;
    };
    env_.allow_approximate = options.allow_approximate;
    env_.constants_as_nodes = options.constants_as_nodes;
    env_.initializers_as_inputs = stays_at_ir3(model, options);
  }

  Report run();

 private:
  void record_nodes();
  void convert_domain(const std::string& domain, int64_t from, int64_t to);
  void record_read_constants(const std::vector<GraphAt>& graphs);
  void drop_orphaned_constants();
  void convert_functions();
  void convert_training_graphs(const onnx::ModelProto& original_header);
  std::optional<onnx::ModelProto> convert_detached(
      onnx::ModelProto mini, const std::map<std::string, int64_t>& targets,
      const std::string& where, std::function<const Type*(const std::string&)> type_of);
  void step(ir::Graph& g, ir::Node& n, const std::string& domain, int64_t cur, int64_t next);
  void step_up(ir::Graph& g, ir::Node& n, const OpDef& def, int64_t cur, int64_t next);
  void step_down(ir::Graph& g, ir::Node& n, const OpDef& def, int64_t cur, int64_t next);
  void apply(ir::Graph& g, ir::Node& n, const OpVersion& from, const OpVersion& to, int64_t cur,
             int64_t next, const AdapterFn& adapter, const std::string& refusal);
  void check_compatible(AdapterContext& ctx) const;
  void check_extension(AdapterContext& ctx, const SignatureChange& c) const;
  // unknown_ok: values whose type inference does not know are let through (after an adapter,
  // whose new constants have the right types by construction).
  void check_types(AdapterContext& ctx, const OpVersion& target, bool unknown_ok = false) const;
  void expand(ir::Graph& g, ir::Node& n, const OpVersion& op, int64_t cur, int64_t next);
  void refuse(const ir::Node& n, const std::string& rule, const std::string& why);
  NodeOutcome* outcome(const ir::Node& n);
  // Makes a node the conversion put in (and the nodes of its subgraphs) part of outcome `index`.
  void claim(const ir::Node& n, std::size_t index);
  int64_t current_opset(const std::string& domain) const;
  void set_opset(const std::string& domain, int64_t version);

  ir::ModelGraph& model_;
  const Registry& registry_;
  const Options& options_;
  AdapterContext::Environment env_;
  Report report_;
  std::unordered_map<const ir::Node*, std::size_t> index_;
  std::set<std::string> read_constants_;
  // Types of values the conversion made (function bodies put in a node's place).
  std::unordered_map<std::string, Type> extra_types_;
};

void Converter::claim(const ir::Node& n, std::size_t index) {
  index_[&n] = index;
  for (const auto& sub : n.subgraphs())
    for (const ir::Node& inner : sub.graph->nodes()) claim(inner, index);
}

NodeOutcome* Converter::outcome(const ir::Node& n) {
  auto it = index_.find(&n);
  return it == index_.end() ? nullptr : &report_.nodes[it->second];
}

int64_t Converter::current_opset(const std::string& domain) const {
  const OpsetMap opsets = model_opsets(model_.header());
  auto it = opsets.find(domain);
  return it == opsets.end() ? 0 : it->second;
}

void Converter::set_opset(const std::string& domain, int64_t version) {
  auto* imports = model_.mutable_header().mutable_opset_import();
  for (auto& o : *imports)
    if (normalize_domain(o.domain()) == domain) {
      o.set_version(version);
      return;
    }
  auto* o = imports->Add();
  o->set_domain(domain);
  o->set_version(version);
}

// A Constant node (by trait), whose one output is a constant value.
bool is_constant_node(const Registry& registry, const ir::Node& n) {
  return n.outputs().size() == 1 && declares_attribute_value(registry, n);
}

bool is_graph_input(const ir::Graph& g, const std::string& name) {
  return std::any_of(g.inputs().begin(), g.inputs().end(),
                     [&](const onnx::ValueInfoProto& v) { return v.name() == name; });
}

// Constants (initializers, Constant nodes) that something reads before the conversion: when a
// step turns such an input back into an attribute, the constant is left unread and is dropped.
void Converter::record_read_constants(const std::vector<GraphAt>& graphs) {
  for (const auto& [graph, prefix] : graphs) {
    for (const ir::Initializer& init : graph->initializers())
      if (graph->is_used(init.name)) read_constants_.insert(init.name);
    for (const ir::Node& n : graph->nodes())
      if (is_constant_node(registry_, n) && graph->is_used(n.outputs()[0]))
        read_constants_.insert(n.outputs()[0]);
  }
}

void Converter::drop_orphaned_constants() {
  if (!model_.graph() || read_constants_.empty()) return;
  std::set<std::string> state;  // training state variables stay, read or not
  for (const auto& t : model_.header().training_info()) {
    for (const auto& b : t.initialization_binding()) state.insert(b.key());
    for (const auto& b : t.update_binding()) state.insert(b.key());
  }
  std::vector<GraphAt> graphs;
  collect_graphs(*model_.graph(), kMainGraphPrefix, graphs);
  for (const auto& [graph, prefix] : graphs) {
    std::vector<std::string> unread;
    for (const ir::Initializer& init : graph->initializers())
      if (read_constants_.count(init.name) && !state.count(init.name) &&
          !graph->is_used(init.name) && !is_graph_input(*graph, init.name))
        unread.push_back(init.name);
    for (const auto& name : unread) (void)graph->remove_initializer(name);
    for (ir::Node* n : graph->node_list())
      if (is_constant_node(registry_, *n) && read_constants_.count(n->outputs()[0]) &&
          !graph->is_used(n->outputs()[0])) {
        index_.erase(n);
        (void)graph->remove_node(*n);
      }
  }
}

// One outcome per node of a converted domain, located as in the input model.
void Converter::record_nodes() {
  if (!model_.graph()) return;
  std::vector<GraphAt> graphs;
  collect_graphs(*model_.graph(), kMainGraphPrefix, graphs);
  record_read_constants(graphs);
  const OpsetMap opsets = model_opsets(model_.header());
  for (const auto& [graph, prefix] : graphs) {
    int index = 0;
    for (ir::Node& n : graph->nodes()) {
      const int at = node_position(n, index++);
      const std::string domain = normalize_domain(n.domain());
      if (!options_.targets.count(domain)) continue;
      NodeOutcome o;
      o.location = node_location(prefix, at, n.proto());
      auto it = opsets.find(domain);
      const OpVersion* v =
          it == opsets.end() ? nullptr : registry_.lookup(domain, n.op_type(), it->second);
      o.from = v ? v->id() : (domain.empty() ? "" : domain + ".") + n.op_type();
      index_[&n] = report_.nodes.size();
      report_.nodes.push_back(std::move(o));
    }
  }
}

void Converter::refuse(const ir::Node& n, const std::string& rule, const std::string& why) {
  NodeOutcome* o = outcome(n);
  if (o && o->action == Action::refused) return;  // one reason per node is enough
  const std::string location =
      o ? o->location : "a node the conversion inserted (" + n.op_type() + ")";
  const std::string full_why =
      o && o->action == Action::expanded ? "its function body: " + n.op_type() + ": " + why : why;
  if (o) {
    o->action = Action::refused;
    o->why = full_why;
    o->rule = rule;
    o->to.clear();
  }
  Diagnostic d;
  d.severity = Severity::error;
  d.rule = rule;
  d.location = location;
  d.message = full_why;
  report_.diagnostics.push_back(std::move(d));
}

void Converter::check_types(AdapterContext& ctx, const OpVersion& target, bool unknown_ok) const {
  TypeBinder binder(target);
  auto check = [&](bool output, std::size_t i, const Type* type) {
    const std::string what = (output ? "output " : "input ") + std::to_string(i);
    if ((!type || type_spec(*type).empty()) && unknown_ok) return;
    if (!type) {
      ctx.refuse(what + " has a type shape inference could not tell, and " + target.id() +
                 " allows fewer types than " + ctx.from().id());
    }
    const std::string spec = type_spec(*type);
    if (spec.empty())
      ctx.refuse(what + " has a type shape inference could not tell, and " + target.id() +
                 " allows fewer types than " + ctx.from().id());
    const auto r = output ? binder.bind_output(i, spec, what) : binder.bind_input(i, spec, what);
    if (r.outcome == TypeBinder::Outcome::not_allowed)
      ctx.refuse(what + " is " + spec + ", which " + target.id() + " does not allow");
    if (r.outcome == TypeBinder::Outcome::inconsistent)
      ctx.refuse(what + " is " + spec + " but " + r.bound_by + " is " + r.bound_type + ", and " +
                 target.id() + " needs them the same");
  };
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i)
    if (ctx.has_input(i)) check(false, i, ctx.input_type(i));
  for (std::size_t i = 0; i < ctx.num_outputs(); ++i) {
    if (!ctx.has_output(i)) continue;
    // An optional output nothing reads can go rather than stop the node (Dropout's mask).
    const FormalParam* f = formal_output(target, i);
    if (f && f->option == ParamOption::optional && i > 0 && !ctx.output_used(i)) {
      ctx.drop_output(i);
      ctx.describe("output " + std::to_string(i) + " (unused) dropped");
      continue;
    }
    check(true, i, ctx.output_type(i));
  }
}

// Going down to a version the other extends: a node that uses none of the additions (or gives
// an added attribute its default, which is dropped) reads the same there.
void Converter::check_extension(AdapterContext& ctx, const SignatureChange& c) const {
  const OpVersion& older = ctx.to();
  const OpVersion& newer = ctx.from();
  for (std::size_t i : c.added_inputs)
    if (ctx.has_input(i))
      ctx.refuse("input " + std::to_string(i) + " (" + newer.inputs[i].name +
                 ") has no equivalent in " + older.id());
  if (ctx.num_inputs() > older.inputs.size() && !c.added_inputs.empty())
    ctx.truncate_inputs(older.inputs.size());
  for (std::size_t i : c.added_outputs)
    if (ctx.has_output(i))
      ctx.refuse("output " + std::to_string(i) + " (" + newer.outputs[i].name +
                 ") has no equivalent in " + older.id());
  if (ctx.num_outputs() > older.outputs.size() && !c.added_outputs.empty())
    ctx.truncate_outputs(older.outputs.size());
  for (const AttrDef* a : c.added_attributes) {
    const onnx::AttributeProto* given = ctx.attribute(a->name);
    if (!given) continue;
    if (!holds_default(*given, *a))
      ctx.refuse("attribute " + a->name + " has no equivalent in " + older.id() +
                 (a->has_default() ? " (only its default does)" : ""));
    ctx.remove_attribute(a->name);
    ctx.describe("attribute " + a->name + " (its default) dropped");
  }
}

// A step between versions whose signatures say how a node of one reads as the other.
void Converter::check_compatible(AdapterContext& ctx) const {
  const bool up = ctx.upgrading();
  const OpVersion& older = up ? ctx.from() : ctx.to();
  const OpVersion& newer = up ? ctx.to() : ctx.from();
  const SignatureChange c = compare_signatures(older, newer);
  if (c.kind == SignatureChange::Kind::different)
    throw NoAdapter{"onnxtool has no adapter between " + older.id() + " and " + newer.id() + " (" +
                    c.why + ")"};
  if (!up) check_extension(ctx, c);
  if (c.types_differ && !(up ? types_include(newer, older) : types_include(older, newer)))
    check_types(ctx, up ? newer : older);
}

void Converter::apply(ir::Graph& g, ir::Node& n, const OpVersion& from, const OpVersion& to,
                      int64_t cur, int64_t next, const AdapterFn& adapter,
                      const std::string& refusal) {
  AdapterContext ctx(env_, g, n, from, to, cur, next);
  const std::string step = step_text(cur, next);
  try {
    if (adapter) {
      adapter(ctx);
      // An adapter for a change the signatures do not show (a value's meaning) leaves the
      // extension the newer version makes to the usual check.
      if (next < cur && &to != &from && n.op_type() == to.name) {
        const SignatureChange c = compare_signatures(to, from);
        if (c.kind == SignatureChange::Kind::compatible) check_extension(ctx, c);
      }
      // An adapter rewrites what the signatures cannot bridge; the types a node keeps must
      // still be ones the version it goes to allows.
      if (n.op_type() == to.name && &to != &from && !types_include(to, from))
        check_types(ctx, to, /*unknown_ok=*/true);
    } else if (!refusal.empty()) {
      ctx.refuse(refusal);
    } else {
      check_compatible(ctx);
    }
  } catch (const AdapterRefusal& r) {
    // The step's two versions; one alone where the operator gives way to another (a
    // replaced operator's adapter names what it becomes in its reason).
    const std::string versions = &to == &from ? from.id() : from.id() + " -> " + to.id();
    refuse(n, r.approximate ? "convert.approximate" : "convert.no-equivalent",
           (r.approximate ? "only approximately at opset " : "no equivalent at opset ") +
               std::to_string(next) + " (" + versions + "): " + r.why +
               (r.approximate ? "; --allow-approximate converts it anyway" : ""));
    return;
  } catch (const NoAdapter& e) {
    refuse(n, "convert.no-adapter", "step " + step + ": " + e.why);
    return;
  }
  // What the step inserted belongs to this node: a later refusal of it refuses the node.
  if (auto it = index_.find(&n); it != index_.end())
    for (ir::Node* added : ctx.inserted()) claim(*added, it->second);
  NodeOutcome* o = outcome(n);
  if (!o) return;
  for (const auto& d : ctx.descriptions()) o->steps.push_back(step + ": " + d);
  if (!ctx.descriptions().empty() && o->action == Action::kept) o->action = Action::adapted;
  for (const auto& w : ctx.approximations()) {
    o->warnings.push_back(step + ": " + w);
    Diagnostic d;
    d.severity = Severity::warning;
    d.rule = "convert.approximate";
    d.location = o->location;
    d.message = "approximated at opset " + std::to_string(next) + ": " + w;
    report_.diagnostics.push_back(std::move(d));
  }
}

void Converter::step_up(ir::Graph& g, ir::Node& n, const OpDef& def, int64_t cur, int64_t next) {
  const OpVersion* prev = def.lookup(cur);
  const OpVersion* nxt = def.lookup(next);
  if (!prev) {
    refuse(n, "convert.no-equivalent",
           def.name() + " is not an operator of " + domain_display_name(def.domain()) +
               " at opset " + std::to_string(cur));
    return;
  }
  if (prev == nxt) return;
  if (nxt->deprecated && !nxt->upgrade) {
    // A declared refusal says no replacement exists; without one, the replacement is onnxtool's
    // gap.
    if (nxt->upgrade_refusal.empty())
      refuse(n, "convert.no-adapter",
             def.name() + " is deprecated from opset " + std::to_string(next) +
                 ", and onnxtool has no adapter to its replacement");
    else
      refuse(n, "convert.no-equivalent",
             def.name() + " is deprecated from opset " + std::to_string(next) + ": " +
                 nxt->upgrade_refusal);
    return;
  }
  apply(g, n, *prev, *nxt, cur, next, nxt->upgrade, nxt->upgrade_refusal);
}

void Converter::step_down(ir::Graph& g, ir::Node& n, const OpDef& def, int64_t cur, int64_t next) {
  const OpVersion* prev = def.lookup(cur);
  if (!prev || prev->since < cur) return;  // the same version on both sides of the step
  const OpVersion* nxt = def.lookup(next);
  if (prev->downgrade) {
    // The adapter may also replace the operator (the one before it, or another).
    apply(g, n, *prev, nxt ? *nxt : *prev, cur, next, prev->downgrade, "");
    return;
  }
  // Below its first version, or where the version before is a deprecated one (a different
  // operator under the same name, GroupNormalization-18): its function body.
  if (!nxt || nxt->deprecated) {
    expand(g, n, *prev, cur, next);
    return;
  }
  apply(g, n, *prev, *nxt, cur, next, nullptr, prev->downgrade_refusal);
}

void Converter::step(ir::Graph& g, ir::Node& n, const std::string& domain, int64_t cur,
                     int64_t next) {
  const OpDef* def = registry_.find(domain, n.op_type());
  if (!def) {
    refuse(n, "convert.no-equivalent",
           "onnxtool does not know " + n.op_type() + " in " + domain_display_name(domain));
    return;
  }
  if (next > cur)
    step_up(g, n, *def, cur, next);
  else
    step_down(g, n, *def, cur, next);
}

// Going down to an opset that lacks the operator: its function body, written for the opset
// the spec gives it, converted to the target on its own and put in the node's place.
void Converter::expand(ir::Graph& g, ir::Node& n, const OpVersion& op, int64_t cur, int64_t next) {
  const std::string why_not = op.id() + " first appears at opset " + std::to_string(cur) + " of " +
                              domain_display_name(op.domain);
  std::shared_ptr<const onnx::FunctionProto> body;
  if (op.is_function && !op.function_body.empty() && options_.parse_body) {
    try {
      body = options_.parse_body(op);
    } catch (const Error&) {
      body.reset();
    }
  }
  if (!body) {
    refuse(n, "convert.no-equivalent",
           "no equivalent at opset " + std::to_string(next) + ": " + why_not +
               (op.is_function ? " and its function body is built per call site"
                               : " and the spec defines no function body for it"));
    return;
  }
  // The body as a graph of its own: the node's inputs and outputs bind to the body's.
  onnx::ModelProto mini;
  mini.set_ir_version(model_.header().ir_version());
  *mini.mutable_opset_import() = body->opset_import();
  onnx::GraphProto& bg = *mini.mutable_graph();
  bg.set_name(op.name);
  // The body's inputs the node gives take the types the node's inputs have, so that its own
  // nodes can be typed (the steps down check types) by inference on the body alone. One the node
  // omits is no input at all ("" where the body reads it), except inside a subgraph (a branch
  // taken only when it is there), which still needs a value to be well-formed: an empty tensor
  // of its type, a constant of the graph.
  std::map<std::string, std::string> omitted;  // body input -> "" or the stand-in's name
  for (int i = 0; i < body->input_size(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (k < n.inputs().size() && !n.inputs()[k].empty()) {
      auto* in = bg.add_input();
      in->set_name(body->input(i));
      if (const Type* t = env_.type_of(n.inputs()[k])) type_to_proto(*t, *in->mutable_type());
      continue;
    }
    std::string stand_in;
    if (body_reads_nested(*body, body->input(i))) {
      const FormalParam* f = formal_input(op, k);
      const TypeSet* allowed = f ? allowed_types(op, *f) : nullptr;
      const uint64_t bits = allowed ? allowed->tensor_elements() : 0;
      int t = 1;
      while (t <= kMaxDataType && !(bits & (uint64_t{1} << t))) ++t;
      if (t > kMaxDataType) {
        refuse(n, "convert.no-equivalent",
               "no equivalent at opset " + std::to_string(next) + ": " + why_not +
                   ", and its body needs a value for the omitted input " + body->input(i));
        return;
      }
      const Tensor empty(static_cast<DataType>(t), {0});
      AdapterContext ctx(env_, g, n, op, op, cur, next);
      stand_in = ctx.add_constant((n.name().empty() ? op.name : n.name()) + "_absent", empty);
      onnx::TensorProto init;
      tensor_to_proto(empty, init);
      init.set_name(stand_in);
      *bg.add_initializer() = std::move(init);
    }
    omitted[body->input(i)] = stand_in;
  }
  for (const auto& out : body->output()) bg.add_output()->set_name(out);
  const onnx::NodeProto caller = [&] {
    onnx::NodeProto p;
    n.to_proto(p);
    return p;
  }();
  std::deque<onnx::AttributeProto> defaults;
  AttributeSource actual = [&](const std::string& name) -> const onnx::AttributeProto* {
    for (const auto& a : caller.attribute())
      if (a.name() == name) return &a;
    const AttrDef* d = op.find_attribute(name);
    if (!d || !d->has_default()) return nullptr;
    return &defaults.emplace_back(default_attribute(name, d->default_value));
  };
  for (const auto& node : body->node()) {
    onnx::NodeProto copy = node;
    substitute_attribute_refs(copy, actual);
    bind_omitted(copy, omitted, false);
    *bg.add_node() = std::move(copy);
  }
  auto mini_model = std::make_shared<onnx::ModelProto>(std::move(mini));
  const Model typed = model_from_proto(mini_model, op.id() + " function body", ".");
  DiagSink ignored;
  InferResult body_types;
  try {
    body_types = infer_model(typed, {}, ignored);
  } catch (const Error&) {
    body_types = {};
  }
  ir::ModelGraph sub = ir::ModelGraph::from_proto(*mini_model);
  Options sub_options = options_;
  sub_options.targets = {{op.domain, next}};
  sub_options.type_of = [&body_types](const std::string& name) -> const Type* {
    const ValueRecord* r = body_types.find(name);
    return r ? &r->type : nullptr;
  };
  const Report r = convert_opsets(sub, registry_, sub_options);
  if (!r.ok()) {
    std::string first;
    for (const auto& o : r.nodes)
      if (o.action == Action::refused) {
        first = o.from + ": " + o.why;
        break;
      }
    refuse(n, "convert.no-equivalent",
           "no equivalent at opset " + std::to_string(next) + ": " + why_not +
               ", and its function body cannot be expressed there (" + first + ")");
    return;
  }
  // Names: the body's inputs and outputs are the node's; the rest fresh.
  const onnx::ModelProto converted = sub.to_proto();
  std::unordered_map<std::string, std::string> rename;
  for (int i = 0; i < body->input_size(); ++i) {
    const auto k = static_cast<std::size_t>(i);
    if (k < n.inputs().size() && !n.inputs()[k].empty()) rename[body->input(i)] = n.inputs()[k];
  }
  for (const auto& [name, stand_in] : omitted)
    if (!stand_in.empty()) rename[stand_in] = stand_in;
  for (int i = 0; i < body->output_size(); ++i)
    rename[body->output(i)] = static_cast<std::size_t>(i) < n.outputs().size()
                                  ? n.outputs()[static_cast<std::size_t>(i)]
                                  : model_.fresh_name(body->output(i));
  std::function<std::string(const std::string&)> renamed = [&](const std::string& name) {
    if (name.empty()) return name;
    auto it = rename.find(name);
    if (it != rename.end()) return it->second;
    return rename[name] = model_.fresh_name(n.name().empty() ? name : n.name() + "_" + name);
  };
  NodeOutcome* o = outcome(n);
  const std::size_t body_nodes = static_cast<std::size_t>(converted.graph().node_size());
  std::vector<onnx::NodeProto> nodes;
  for (const auto& bn : converted.graph().node()) {
    onnx::NodeProto p = bn;
    rename_values(p, renamed);
    if (!p.name().empty())
      p.set_name(model_.fresh_name((n.name().empty() ? op.name : n.name()) + "/" + p.name()));
    nodes.push_back(std::move(p));
  }
  // The body takes the node's place: the node goes (its outputs then have no producer for a
  // moment), and the body's nodes go in before what followed it.
  const std::vector<ir::Node*> order = g.node_list();
  const auto at = std::find(order.begin(), order.end(), &n);
  ir::Node* after = at != order.end() && at + 1 != order.end() ? *(at + 1) : nullptr;
  const auto found = index_.find(&n);
  const bool has_outcome = found != index_.end();
  const std::size_t index = has_outcome ? found->second : 0;
  index_.erase(&n);
  (void)g.remove_node(n, ir::Graph::Removal::force);
  for (auto& p : nodes) {
    ir::Node* added =
        after ? g.insert_node_before(*after, std::move(p)) : g.append_node(std::move(p));
    if (added && has_outcome) claim(*added, index);
  }
  // The body's values, as inference on the converted body types them, for the steps still
  // to come.
  try {
    DiagSink quiet;
    const Model typed_converted =
        model_from_proto(std::make_shared<onnx::ModelProto>(converted), op.id(), ".");
    const InferResult converted_types = infer_model(typed_converted, {}, quiet);
    for (const auto& [from_name, to_name] : rename) {
      const ValueRecord* record = converted_types.find(from_name);
      if (record && !to_name.empty()) extra_types_[to_name] = record->type;
    }
  } catch (const Error&) {
    // Untyped: a later step that needs a type refuses the node, saying so.
  }
  if (o) {
    o->action = Action::expanded;
    o->steps.push_back(step_text(cur, next) + ": expanded into its function body (" +
                       std::to_string(body_nodes) + " nodes)");
    o->to.clear();
  }
  // Other domains the body imports become imports of the model.
  for (const auto& imp : converted.opset_import())
    if (normalize_domain(imp.domain()) != op.domain &&
        !model_opsets(model_.header()).count(normalize_domain(imp.domain())))
      set_opset(normalize_domain(imp.domain()), imp.version());
}

void Converter::convert_domain(const std::string& domain, int64_t from, int64_t to) {
  for (int64_t cur = from; cur != to;) {
    const int64_t next = to > cur ? cur + 1 : cur - 1;
    std::vector<GraphAt> graphs;
    if (model_.graph()) collect_graphs(*model_.graph(), kMainGraphPrefix, graphs);
    for (const auto& [graph, prefix] : graphs) {
      for (ir::Node* n : graph->node_list()) {
        if (normalize_domain(n->domain()) != domain) continue;
        if (const NodeOutcome* o = outcome(*n); o && o->action == Action::refused) continue;
        step(*graph, *n, domain, cur, next);
      }
    }
    cur = next;
  }
  set_opset(domain, to);
}

// Converts a graph that lives outside the main graph (a function body, a training graph) as a
// model of its own, reporting its nodes under `where`. Returns the converted model, or nullopt
// when a node was refused.
std::optional<onnx::ModelProto> Converter::convert_detached(
    onnx::ModelProto mini, const std::map<std::string, int64_t>& targets, const std::string& where,
    std::function<const Type*(const std::string&)> type_of) {
  ir::ModelGraph body = ir::ModelGraph::from_proto(std::move(mini));
  Options sub = options_;
  sub.targets = targets;
  sub.type_of = std::move(type_of);
  sub.constants_as_nodes = true;
  const Report r = convert_opsets(body, registry_, sub);
  for (NodeOutcome o : r.nodes) {
    o.location = where + o.location;
    report_.nodes.push_back(std::move(o));
  }
  for (Diagnostic d : r.diagnostics) {
    d.location = where + d.location;
    report_.diagnostics.push_back(std::move(d));
  }
  if (!r.ok()) return std::nullopt;
  return body.to_proto();
}

// Model-local functions import opsets of their own: each body that imports a converted domain
// is converted as a graph of its own (its values untyped: a step that needs a type refuses) and
// its imports follow.
void Converter::convert_functions() {
  auto* functions = model_.mutable_header().mutable_functions();
  for (int f = 0; f < functions->size(); ++f) {
    onnx::FunctionProto& fn = *functions->Mutable(f);
    const OpsetMap own = opsets_from(fn.opset_import());
    std::map<std::string, int64_t> targets;
    for (const auto& [domain, version] : options_.targets)
      if (own.count(domain) && own.at(domain) != version) targets[domain] = version;
    if (targets.empty()) continue;
    onnx::ModelProto mini;
    mini.set_ir_version(model_.header().ir_version());
    *mini.mutable_opset_import() = fn.opset_import();
    onnx::GraphProto& g = *mini.mutable_graph();
    g.set_name(fn.name());
    for (const auto& in : fn.input()) g.add_input()->set_name(in);
    for (const auto& out : fn.output()) g.add_output()->set_name(out);
    *g.mutable_node() = fn.node();
    const auto converted = convert_detached(std::move(mini), targets,
                                            "function " + quoted_name(fn.name()) + ": ", nullptr);
    if (!converted) continue;
    *fn.mutable_node() = converted->graph().node();
    *fn.mutable_opset_import() = converted->opset_import();
  }
}

// Training graphs (TrainingInfoProto.initialization and .algorithm) use the model's imports and
// read the main graph's initializers (the state variables). Each is converted as a model of its
// own, those initializers declared as typed inputs so that inference types what reads them.
void Converter::convert_training_graphs(const onnx::ModelProto& original_header) {
  auto* infos = model_.mutable_header().mutable_training_info();
  if (infos->empty()) return;
  std::vector<onnx::ValueInfoProto> state;
  if (const ir::Graph* main = model_.graph())
    for (const ir::Initializer& init : main->initializers()) {
      onnx::ValueInfoProto vi;
      vi.set_name(init.name);
      auto* t = vi.mutable_type()->mutable_tensor_type();
      auto* shape = t->mutable_shape();
      if (init.tensor) {
        t->set_elem_type(static_cast<int32_t>(init.tensor->dtype()));
        for (int64_t d : init.tensor->shape()) shape->add_dim()->set_dim_value(d);
      } else if (init.proto) {
        t->set_elem_type(init.proto->data_type());
        for (int64_t d : init.proto->dims()) shape->add_dim()->set_dim_value(d);
      }
      state.push_back(std::move(vi));
    }
  for (int i = 0; i < infos->size(); ++i) {
    onnx::TrainingInfoProto& info = *infos->Mutable(i);
    for (const bool algorithm : {false, true}) {
      if (algorithm ? !info.has_algorithm() : !info.has_initialization()) continue;
      onnx::GraphProto& graph =
          algorithm ? *info.mutable_algorithm() : *info.mutable_initialization();
      onnx::ModelProto mini;
      mini.set_ir_version(original_header.ir_version());
      *mini.mutable_opset_import() = original_header.opset_import();
      onnx::GraphProto& g = *mini.mutable_graph();
      g = graph;
      std::set<std::string> own;
      for (const auto& v : g.input()) own.insert(v.name());
      for (const auto& t : g.initializer()) own.insert(t.name());
      for (const auto& vi : state)
        if (!own.count(vi.name())) *g.add_input() = vi;
      // Inferred on the graph itself, which then moves on to be converted (types are found by
      // name, so nothing keeps the proto).
      auto shared = std::make_shared<onnx::ModelProto>(std::move(mini));
      auto types = std::make_shared<InferResult>();
      try {
        DiagSink quiet;
        *types = infer_model(model_from_proto(shared, "", "."), {}, quiet);
      } catch (const Error&) {
        // Untyped: a step that needs a type refuses the node, saying so.
      }
      auto type_of = [types](const std::string& name) -> const Type* {
        const ValueRecord* r = types->find(name);
        return r ? &r->type : nullptr;
      };
      const std::string where = "training_info[" + std::to_string(i) + "]." +
                                (algorithm ? "algorithm" : "initialization") + ": ";
      const auto converted = convert_detached(std::move(*shared), options_.targets, where, type_of);
      if (!converted) continue;
      *graph.mutable_node() = converted->graph().node();
    }
  }
}

Report Converter::run() {
  for (const auto& [domain, version] : options_.targets) {
    const OpsetDomainRange* range = find_opset_domain(domain);
    if (!range)
      throw_usage("--opset: " + domain_display_name(domain) +
                  " is not a standard domain (ai.onnx, ai.onnx.ml, ...)");
    if (version < range->min_version || version > range->max_version)
      throw_usage("--opset: " + domain_display_name(domain) + " has versions " +
                  std::to_string(range->min_version) + " to " + std::to_string(range->max_version) +
                  ", not " + std::to_string(version));
  }
  record_nodes();
  // The imports as they were, for the training graphs (which follow the model's).
  onnx::ModelProto original_header;
  original_header.set_ir_version(model_.header().ir_version());
  *original_header.mutable_opset_import() = model_.header().opset_import();
  for (const auto& [domain, version] : options_.targets) {
    const int64_t from = current_opset(domain);
    report_.domains.push_back({domain, from, version});
    if (from == 0) {
      // Not imported yet: nothing uses it, so importing it at the target is all there is.
      set_opset(domain, version);
      continue;
    }
    convert_domain(domain, from, version);
  }
  drop_orphaned_constants();
  convert_functions();
  convert_training_graphs(original_header);
  // What each kept or adapted node became.
  if (model_.graph()) {
    const OpsetMap opsets = model_opsets(model_.header());
    std::vector<GraphAt> graphs;
    collect_graphs(*model_.graph(), kMainGraphPrefix, graphs);
    for (const auto& [graph, prefix] : graphs)
      for (ir::Node& n : graph->nodes()) {
        NodeOutcome* o = outcome(n);
        if (!o || o->action == Action::refused || o->action == Action::expanded) continue;
        const std::string domain = normalize_domain(n.domain());
        auto it = opsets.find(domain);
        const OpVersion* v =
            it == opsets.end() ? nullptr : registry_.lookup(domain, n.op_type(), it->second);
        o->to = v ? v->id() : n.op_type();
      }
  }
  return std::move(report_);
}

}  // namespace

Report convert_opsets(ir::ModelGraph& model, const Registry& registry, const Options& options) {
  Converter c(model, registry, options);
  return c.run();
}

PassReport ConvertOpsets::run(ir::ModelGraph& model, const PassContext& ctx) {
  report_ = convert_opsets(model, ctx.registry ? *ctx.registry : Registry::standard(), options_);
  PassReport r;
  r.changes =
      report_.count(NodeOutcome::Action::adapted) + report_.count(NodeOutcome::Action::expanded);
  r.summary = std::to_string(report_.count(NodeOutcome::Action::adapted)) + " nodes adapted, " +
              std::to_string(report_.count(NodeOutcome::Action::expanded)) + " expanded, " +
              std::to_string(report_.count(NodeOutcome::Action::refused)) + " refused";
  return r;
}

}  // namespace onnxtool::convert
