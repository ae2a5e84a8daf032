// SPDX-License-Identifier: Apache-2.0
// Graphs: names, inputs, initializers, value_info and outputs; single static assignment,
// topological order and cycles, and the scoping of subgraphs (outer names visible, never
// shadowed).
#include <algorithm>
#include <deque>
#include <set>

#include "core/check/context.h"
#include "core/ir/location.h"
#include "core/ir/type_text.h"
#include "core/types/dtype.h"

namespace onnxtool {

namespace {

// "graph." -> "graph"; "... attribute body: " -> "... attribute body"
std::string graph_location(const std::string& prefix) {
  std::string s = prefix;
  while (!s.empty() && (s.back() == ' ' || s.back() == ':' || s.back() == '.')) s.pop_back();
  return s;
}

TypeRequirements io_requirements(GraphKind kind) {
  if (kind == GraphKind::main) return {true, true, true};
  return {};  // subgraphs MAY type their inputs and outputs (IR.md)
}

// A name a subgraph (or this graph) defines must not hide one from an enclosing graph.
bool shadows(CheckContext& ctx, const Scope& scope, const std::string& name, const std::string& loc,
             const char* what) {
  if (!scope.check_shadowing || !scope.visible_outside(name)) return false;
  ctx.report("graph.shadows-outer", loc,
             std::string(what) + " " + quoted_name(name) +
                 " reuses a name visible from an enclosing graph; expected a new name (shadowing "
                 "is not allowed)");
  return true;
}

void declare_inputs(CheckContext& ctx, const onnx::GraphProto& g, const std::string& prefix,
                    GraphKind kind, Scope& scope) {
  for (int i = 0; i < g.input_size(); ++i) {
    const auto& v = g.input(i);
    const std::string loc = item_location(prefix, "input", i, v.name());
    check_value_type(ctx, v.has_type() ? &v.type() : nullptr, v.has_type(), loc,
                     io_requirements(kind));
    if (v.name().empty()) {
      ctx.report("value.missing-name", loc, "graph input has no name");
      continue;
    }
    check_name(ctx, v.name(), loc, "input");
    if (scope.defined.count(v.name())) {
      ctx.report("graph.duplicate-input", loc,
                 "input " + quoted_name(v.name()) + " is declared more than once");
      continue;
    }
    shadows(ctx, scope, v.name(), loc, "input");
    scope.defined.insert(v.name());
    if (v.has_type()) scope.types.emplace(v.name(), &v.type());
  }
}

// The rules that tie an initializer to the inputs (IR.md, "Names Within a Graph").
void relate_to_inputs(CheckContext& ctx, const std::string& name, const onnx::TypeProto& type,
                      const std::string& loc, GraphKind kind, Scope& scope,
                      const std::set<std::string>& input_names) {
  const bool is_input = input_names.count(name) > 0;
  const int64_t ir = ctx.ir_version();
  if (ir > 0 && ir <= 3 && !is_input)
    ctx.report("graph.initializer-not-input", loc,
               "initializer " + quoted_name(name) + " is not a graph input; ir_version " +
                   std::to_string(ir) + " requires every initializer to be one");
  if (ir >= 4 && kind == GraphKind::subgraph && is_input)
    ctx.report("graph.subgraph-initializer-is-input", loc,
               "subgraph initializer " + quoted_name(name) +
                   " is also a subgraph input; from ir_version 4 a subgraph's inputs come from "
                   "its operator, so they cannot have initializers");
  if (is_input) {
    const onnx::TypeProto* declared = scope.type_of(name);
    if (!declared) return;
    const std::string why = type_conflict(*declared, type);
    if (!why.empty())
      ctx.report("graph.initializer-type-mismatch", loc,
                 "initializer is " + type_to_string(type) + " but input " + quoted_name(name) +
                     " is declared " + type_to_string(*declared) + " (" + why + ")");
    return;
  }
  if (!shadows(ctx, scope, name, loc, "initializer")) scope.defined.insert(name);
  if (type.value_case() == onnx::TypeProto::VALUE_NOT_SET) return;
  scope.owned_types.push_back(type);
  scope.types.emplace(name, &scope.owned_types.back());
}

// The type a stored tensor gives its value; unset (no constraint) when its data type or dims
// are themselves invalid, which the tensor checks report.
onnx::TypeProto evident_type(int32_t data_type,
                             const google::protobuf::RepeatedField<int64_t>& dims,
                             int64_t min_dim) {
  onnx::TypeProto type;
  if (!find_type_info(data_type) || (min_dim > 0 && dims.empty())) return type;
  for (int64_t d : dims)
    if (d < min_dim) return type;
  type.mutable_tensor_type()->set_elem_type(data_type);
  auto* shape = type.mutable_tensor_type()->mutable_shape();
  for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
  return type;
}

void declare_initializers(CheckContext& ctx, const onnx::GraphProto& g, const std::string& prefix,
                          GraphKind kind, Scope& scope) {
  std::set<std::string> input_names;
  for (const auto& v : g.input()) input_names.insert(v.name());
  std::set<std::string> seen;
  auto declare = [&](const std::string& name, const onnx::TypeProto& type, const std::string& loc) {
    if (name.empty()) {
      ctx.report("graph.initializer-missing-name", loc, "initializer has no name");
      return;
    }
    check_name(ctx, name, loc, "initializer");
    if (!seen.insert(name).second) {
      ctx.report("graph.duplicate-initializer", loc,
                 "initializer " + quoted_name(name) +
                     " is defined more than once (dense and sparse initializers share names)");
      return;
    }
    relate_to_inputs(ctx, name, type, loc, kind, scope, input_names);
  };
  for (int i = 0; i < g.initializer_size(); ++i) {
    const auto& t = g.initializer(i);
    const std::string loc = item_location(prefix, "initializer", i, t.name());
    check_tensor(ctx, t, loc);
    declare(t.name(), evident_type(t.data_type(), t.dims(), 0), loc);
  }
  for (int i = 0; i < g.sparse_initializer_size(); ++i) {
    const auto& s = g.sparse_initializer(i);
    const std::string loc = item_location(prefix, "sparse_initializer", i, s.values().name());
    check_sparse_tensor(ctx, s, loc);
    // A sparse initializer stands for a dense tensor of shape `dims`.
    declare(s.values().name(), evident_type(s.values().data_type(), s.dims(), 1), loc);
  }
}

// value_info and the declared output types: each must agree with what else is known.
void declare_types(CheckContext& ctx,
                   const google::protobuf::RepeatedPtrField<onnx::ValueInfoProto>& vs,
                   const std::string& prefix, const char* kind, TypeRequirements req, Scope& scope,
                   std::set<std::string>& seen) {
  for (int i = 0; i < vs.size(); ++i) {
    const auto& v = vs.Get(i);
    const std::string loc = item_location(prefix, kind, i, v.name());
    check_value_type(ctx, v.has_type() ? &v.type() : nullptr, v.has_type(), loc, req);
    if (v.metadata_props_size()) {
      ctx.require_ir(10, "metadata_props on a value", loc);
      check_metadata(ctx, v.metadata_props(), loc + " ");
    }
    if (v.name().empty()) {
      ctx.report("value.missing-name", loc, std::string("graph ") + kind + " has no name");
      continue;
    }
    const bool is_value_info = std::string(kind) == "value_info";
    if (is_value_info && !seen.insert(v.name()).second)
      ctx.report("graph.duplicate-value-info", loc,
                 "value " + quoted_name(v.name()) + " already has a value_info entry");
    if (!v.has_type()) continue;
    auto it = scope.types.find(v.name());
    if (it == scope.types.end()) {
      scope.types.emplace(v.name(), &v.type());
      continue;
    }
    const std::string why = type_conflict(*it->second, v.type());
    if (!why.empty())
      ctx.report("graph.value-info-mismatch", loc,
                 quoted_name(v.name()) + " is declared " + type_to_string(v.type()) + " here but " +
                     type_to_string(*it->second) + " elsewhere (" + why + ")");
  }
}

void check_outputs_produced(CheckContext& ctx, const onnx::GraphProto& g, const std::string& prefix,
                            const Scope& scope) {
  for (int i = 0; i < g.output_size(); ++i) {
    const std::string& name = g.output(i).name();
    if (name.empty() || scope.visible(name)) continue;
    ctx.report("graph.output-not-produced", item_location(prefix, "output", i, name),
               "output " + quoted_name(name) +
                   " is not produced by any node, nor a graph input or initializer");
  }
}

void check_value_info_known(CheckContext& ctx, const onnx::GraphProto& g, const std::string& prefix,
                            const Scope& scope) {
  for (int i = 0; i < g.value_info_size(); ++i) {
    const std::string& name = g.value_info(i).name();
    if (name.empty() || scope.visible(name)) continue;
    ctx.report("graph.value-info-unknown", item_location(prefix, "value_info", i, name),
               "value_info describes " + quoted_name(name) + ", which the graph does not have");
  }
}

// ---- uses, definitions, order ------------------------------------------------------------

// The scope (this one or an enclosing one) whose graph defines or will define `name`, and the
// node producing it there (-1 for inputs and initializers).
struct Definition {
  Scope* scope = nullptr;
  int producer = -1;
  bool defined_yet = false;
};

Definition find_definition(Scope& scope, const std::string& name) {
  // A value already defined (here or outside) is what the name means; only when there is none
  // does a later producer explain it (a use out of order).
  for (Scope* s = &scope; s; s = s->parent)
    if (s->defined.count(name)) {
      auto p = s->producer.find(name);
      return {s, p == s->producer.end() ? -1 : p->second, true};
    }
  for (Scope* s = &scope; s; s = s->parent)
    if (auto p = s->producer.find(name); p != s->producer.end()) return {s, p->second, false};
  return {};
}

// Records that the node being walked in `owner` depends on `producer` there; a use before the
// producer is remembered, to be judged once the whole graph is known (a cycle or just order).
void record_use(Scope& owner, const Definition& d, const std::string& name,
                const std::string& loc) {
  if (!owner.walking || owner.current_node < 0 || d.producer < 0) return;
  owner.deps[static_cast<std::size_t>(owner.current_node)].insert(d.producer);
  if (!d.defined_yet) owner.late_uses.push_back({owner.current_node, d.producer, name, loc});
}

void resolve_inputs(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                    Scope& scope) {
  for (int k = 0; k < node.input_size(); ++k) {
    const std::string& name = node.input(k);
    if (name.empty()) continue;  // an omitted optional input
    const Definition d = find_definition(scope, name);
    if (!d.scope) {
      ctx.report("graph.undefined-input", loc,
                 "input " + quoted_name(name) +
                     " is not defined; expected a graph input, an initializer, a value of an "
                     "enclosing graph or an output of an earlier node");
      continue;
    }
    record_use(*d.scope, d, name, loc);
  }
}

void define_outputs(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                    Scope& scope) {
  for (int k = 0; k < node.output_size(); ++k) {
    const std::string& name = node.output(k);
    if (name.empty()) continue;  // an unused optional output
    check_name(ctx, name, loc, "output");
    if (scope.defined.count(name)) {
      ctx.report("graph.ssa", loc,
                 "output " + quoted_name(name) +
                     " is already defined in this graph; every value must be assigned once");
      continue;
    }
    shadows(ctx, scope, name, loc, "output");
    scope.defined.insert(name);
  }
}

std::string node_label(int index, const onnx::NodeProto& node) {
  return node_location("", index, node);
}

// Nodes on a dependency cycle (or between two cycles): what remains after peeling off, from
// both ends, every node that has no unresolved dependency.
std::set<int> cyclic_nodes(const std::vector<std::set<int>>& deps) {
  const std::size_t n = deps.size();
  std::vector<std::vector<int>> users(n);
  std::vector<std::size_t> indegree(n), outdegree(n);
  for (std::size_t u = 0; u < n; ++u)
    for (int p : deps[u]) {
      users[static_cast<std::size_t>(p)].push_back(static_cast<int>(u));
      ++indegree[u];
      ++outdegree[static_cast<std::size_t>(p)];
    }
  std::vector<bool> removed(n, false);
  std::deque<std::size_t> ready;
  for (std::size_t u = 0; u < n; ++u)
    if (indegree[u] == 0) ready.push_back(u);
  while (!ready.empty()) {
    const std::size_t u = ready.front();
    ready.pop_front();
    removed[u] = true;
    for (int v : users[u])
      if (--indegree[static_cast<std::size_t>(v)] == 0)
        ready.push_back(static_cast<std::size_t>(v));
  }
  // Backwards: drop nodes whose every user is gone (they only hang off a cycle).
  for (std::size_t u = 0; u < n; ++u)
    if (!removed[u])
      for (int v : users[u])
        if (removed[static_cast<std::size_t>(v)]) --outdegree[u];
  for (std::size_t u = 0; u < n; ++u)
    if (!removed[u] && outdegree[u] == 0) ready.push_back(u);
  while (!ready.empty()) {
    const std::size_t u = ready.front();
    ready.pop_front();
    removed[u] = true;
    for (int p : deps[u]) {
      const auto pp = static_cast<std::size_t>(p);
      if (!removed[pp] && --outdegree[pp] == 0) ready.push_back(pp);
    }
  }
  std::set<int> out;
  for (std::size_t u = 0; u < n; ++u)
    if (!removed[u]) out.insert(static_cast<int>(u));
  return out;
}

void report_order(CheckContext& ctx,
                  const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                  const std::string& prefix, const Scope& scope) {
  if (scope.late_uses.empty()) return;
  const std::set<int> cycle = cyclic_nodes(scope.deps);
  if (!cycle.empty()) {
    std::string list;
    int shown = 0;
    for (int i : cycle) {
      if (shown++ == 6) {
        list += ", ... (" + std::to_string(cycle.size()) + " nodes)";
        break;
      }
      list += (list.empty() ? "" : ", ") + node_label(i, nodes.Get(i));
    }
    ctx.report("graph.cycle", graph_location(prefix),
               "nodes depend on each other in a cycle: " + list + "; expected an acyclic graph");
  }
  std::set<std::pair<std::string, std::string>> reported;  // (location, value): one line each
  for (const auto& use : scope.late_uses) {
    if (cycle.count(use.user) && cycle.count(use.producer)) continue;
    if (!reported.emplace(use.location, use.name).second) continue;  // Add (w, w)
    ctx.report("graph.not-topological", use.location,
               "input " + quoted_name(use.name) + " is produced later, by " +
                   node_location(scope.prefix, use.producer, nodes.Get(use.producer)) +
                   "; nodes must be in topological order");
  }
}

void check_node_names(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                      std::set<std::string>& names) {
  if (node.name().empty()) return;
  check_name(ctx, node.name(), loc, "node name");
  if (!names.insert(node.name()).second)
    ctx.report("graph.duplicate-node-name", loc,
               "another node of this graph is also named " + quoted_name(node.name()) +
                   "; node names must be unique within a graph");
}

}  // namespace

void walk_nodes(CheckContext& ctx, const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                const std::string& prefix, Scope& scope, const NodeEnv& env) {
  scope.prefix = prefix;
  scope.deps.assign(static_cast<std::size_t>(nodes.size()), {});
  for (int i = 0; i < nodes.size(); ++i)
    for (const auto& out : nodes.Get(i).output())
      if (!out.empty()) scope.producer.emplace(out, i);
  std::set<std::string> node_names;
  scope.walking = true;
  for (int i = 0; i < nodes.size(); ++i) {
    const auto& node = nodes.Get(i);
    const std::string loc = node_location(prefix, i, node);
    scope.current_node = i;
    check_node_names(ctx, node, loc, node_names);
    resolve_inputs(ctx, node, loc, scope);
    check_node(ctx, node, loc, scope, env);
    define_outputs(ctx, node, loc, scope);
  }
  scope.walking = false;
  report_order(ctx, nodes, prefix, scope);
}

void check_graph(CheckContext& ctx, const onnx::GraphProto& g, const std::string& prefix,
                 GraphKind kind, Scope& scope, const NodeEnv& env) {
  const std::string loc = graph_location(prefix);
  if (g.name().empty())
    ctx.report("graph.missing-name", loc, "the graph has no name; every graph must have one");
  check_name(ctx, g.name(), loc, "graph name");
  if (g.metadata_props_size()) {
    ctx.require_ir(10, "metadata_props on a graph", loc);
    check_metadata(ctx, g.metadata_props(), prefix);
  }
  if (g.sparse_initializer_size())
    ctx.require_ir(6, "sparse_initializer", item_location(prefix, "sparse_initializer", 0, ""));
  declare_inputs(ctx, g, prefix, kind, scope);
  declare_initializers(ctx, g, prefix, kind, scope);
  std::set<std::string> seen;
  declare_types(ctx, g.value_info(), prefix, "value_info", {}, scope, seen);
  declare_types(ctx, g.output(), prefix, "output", io_requirements(kind), scope, seen);
  walk_nodes(ctx, g.node(), prefix, scope, env);
  check_outputs_produced(ctx, g, prefix, scope);
  check_value_info_known(ctx, g, prefix, scope);
}

}  // namespace onnxtool
