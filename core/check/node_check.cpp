// SPDX-License-Identifier: Apache-2.0
// One node: its own fields, its attributes (and their subgraphs), then what its operator's
// schema, or the model-local function it calls, requires of it.
#include <algorithm>
#include <map>
#include <optional>
#include <set>

#include "core/check/context.h"
#include "core/ir/location.h"
#include "core/ir/type_text.h"
#include "core/registry/binding.h"
#include "core/registry/registry.h"
#include "core/types/dtype.h"
#include "core/version.h"

namespace onnxtool {

namespace {

using onnx::AttributeProto;

// ---- attributes, on their own ----------------------------------------------------------------

struct ValueField {
  const char* name;
  AttributeProto::AttributeType type;
};

// The value fields an attribute sets (a list counts when it is non-empty, as in ONNX's checker:
// an empty list is indistinguishable from an absent one on the wire).
std::vector<ValueField> fields_set(const AttributeProto& a) {
  std::vector<ValueField> out;
  auto add = [&](bool set, const char* name, AttributeProto::AttributeType t) {
    if (set) out.push_back({name, t});
  };
  add(a.has_f(), "f", AttributeProto::FLOAT);
  add(a.has_i(), "i", AttributeProto::INT);
  add(a.has_s(), "s", AttributeProto::STRING);
  add(a.has_t(), "t", AttributeProto::TENSOR);
  add(a.has_g(), "g", AttributeProto::GRAPH);
  add(a.has_sparse_tensor(), "sparse_tensor", AttributeProto::SPARSE_TENSOR);
  add(a.has_tp(), "tp", AttributeProto::TYPE_PROTO);
  add(a.floats_size() > 0, "floats", AttributeProto::FLOATS);
  add(a.ints_size() > 0, "ints", AttributeProto::INTS);
  add(a.strings_size() > 0, "strings", AttributeProto::STRINGS);
  add(a.tensors_size() > 0, "tensors", AttributeProto::TENSORS);
  add(a.graphs_size() > 0, "graphs", AttributeProto::GRAPHS);
  add(a.sparse_tensors_size() > 0, "sparse_tensors", AttributeProto::SPARSE_TENSORS);
  add(a.type_protos_size() > 0, "type_protos", AttributeProto::TYPE_PROTOS);
  return out;
}

bool is_list_type(AttributeProto::AttributeType t) {
  switch (t) {
    case AttributeProto::FLOATS:
    case AttributeProto::INTS:
    case AttributeProto::STRINGS:
    case AttributeProto::TENSORS:
    case AttributeProto::GRAPHS:
    case AttributeProto::SPARSE_TENSORS:
    case AttributeProto::TYPE_PROTOS:
      return true;
    default:
      return false;
  }
}

std::string type_text(int t) {
  return attr_type_name(static_cast<AttrType>(t));
}

bool function_declares(const onnx::FunctionProto& fn, const std::string& name) {
  if (std::find(fn.attribute().begin(), fn.attribute().end(), name) != fn.attribute().end())
    return true;
  return std::any_of(fn.attribute_proto().begin(), fn.attribute_proto().end(),
                     [&](const AttributeProto& a) { return a.name() == name; });
}

void check_reference(CheckContext& ctx, const AttributeProto& a, const std::string& loc,
                     const onnx::FunctionProto* function, std::size_t values) {
  if (!function) {
    ctx.report("attr.ref-outside-function", loc,
               "refers to attribute " + quoted_name(a.ref_attr_name()) +
                   " of an enclosing function, but this node is not in a function body");
    return;
  }
  if (values > 0)
    ctx.report("attr.ref-with-value", loc,
               "has both ref_attr_name and a value; expected one or the other");
  if (!function_declares(*function, a.ref_attr_name()))
    ctx.report("attr.ref-unknown", loc,
               "refers to " + quoted_name(a.ref_attr_name()) + ", which function " +
                   quoted_name(function->name()) + " does not declare as an attribute");
}

void check_value_fields(CheckContext& ctx, const AttributeProto& a, const std::string& loc,
                        const std::vector<ValueField>& fields) {
  const bool typed = a.has_type() && a.type() != AttributeProto::UNDEFINED;
  if (fields.size() > 1) {
    std::string names;
    for (const auto& f : fields) names += (names.empty() ? "" : ", ") + std::string(f.name);
    ctx.report("attr.multiple-values", loc, "sets " + names + "; expected exactly one value field");
    return;
  }
  if (fields.size() == 1) {
    if (typed && fields[0].type != a.type())
      ctx.report("attr.value-type-mismatch", loc,
                 "type is " + type_text(a.type()) + " but the value is in field " + fields[0].name +
                     " (" + type_text(fields[0].type) + ")");
    return;
  }
  if (!a.ref_attr_name().empty() || (typed && is_list_type(a.type()))) return;  // empty list
  ctx.report("attr.no-value", loc,
             "has no value" + (typed ? " (type " + type_text(a.type()) + ")" : std::string()) +
                 "; expected exactly one value field");
}

void check_attribute_contents(CheckContext& ctx, const AttributeProto& a, const std::string& loc) {
  check_utf8(ctx, a.s(), loc, "string");
  for (int k = 0; k < a.strings_size(); ++k) check_utf8(ctx, a.strings(k), loc, "string");
  if (a.has_t()) check_tensor(ctx, a.t(), loc);
  for (int k = 0; k < a.tensors_size(); ++k)
    check_tensor(ctx, a.tensors(k), loc + "[" + std::to_string(k) + "]");
  if (a.has_sparse_tensor()) check_sparse_tensor(ctx, a.sparse_tensor(), loc);
  for (int k = 0; k < a.sparse_tensors_size(); ++k)
    check_sparse_tensor(ctx, a.sparse_tensors(k), loc + "[" + std::to_string(k) + "]");
  if (a.has_tp()) check_type(ctx, a.tp(), loc, {});
  for (int k = 0; k < a.type_protos_size(); ++k)
    check_type(ctx, a.type_protos(k), loc + "[" + std::to_string(k) + "]", {});
}

// Subgraph attributes: each graph is checked in a scope nested in the node's graph.
void check_subgraphs(CheckContext& ctx, const AttributeProto& a, const std::string& node_loc,
                     Scope& scope, const NodeEnv& env) {
  if (!a.has_g() && a.graphs_size() == 0) return;
  if (env.depth + 1 > kMaxCheckDepth) {
    ctx.too_deep(subgraph_prefix(node_loc, a.name()));
    return;
  }
  const NodeEnv inner{env.opsets, env.function, env.depth + 1};
  auto one = [&](const onnx::GraphProto& g, const std::string& prefix) {
    Scope child;
    child.parent = &scope;
    check_graph(ctx, g, prefix, GraphKind::subgraph, child, inner);
  };
  if (a.has_g()) one(a.g(), subgraph_prefix(node_loc, a.name()));
  for (int k = 0; k < a.graphs_size(); ++k)
    one(a.graphs(k), subgraph_prefix(node_loc, a.name(), k));
}

void check_attributes(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                      Scope& scope, const NodeEnv& env) {
  std::set<std::string> names;
  for (int i = 0; i < node.attribute_size(); ++i) {
    const auto& a = node.attribute(i);
    const std::string aloc = a.name().empty() ? loc + " attribute[" + std::to_string(i) + "]"
                                              : loc + " attribute " + a.name();
    if (!a.name().empty() && !names.insert(a.name()).second)
      ctx.report("attr.duplicate", aloc,
                 "attribute " + quoted_name(a.name()) + " is given more than once");
    check_attribute_value(ctx, a, aloc, env.function);
    check_subgraphs(ctx, a, loc, scope, env);
  }
}

// ---- arity -----------------------------------------------------------------------------------

std::string count_text(int n, const char* what) {
  return std::to_string(n) + " " + what + (n == 1 ? "" : "s");
}

std::string range_text(int lo, int hi) {
  if (hi == kUnbounded) return "at least " + std::to_string(lo);
  if (lo == hi) return std::to_string(lo);
  return std::to_string(lo) + " to " + std::to_string(hi);
}

// Empty names stand for omitted optional parameters; a single (required) one cannot be.
void check_required_names(CheckContext& ctx,
                          const google::protobuf::RepeatedPtrField<std::string>& actual,
                          const std::vector<FormalParam>& formal, const std::string& loc,
                          const char* what, const char* rule) {
  const int n = std::min(actual.size(), static_cast<int>(formal.size()));
  for (int i = 0; i < n; ++i)
    if (actual.Get(i).empty() && formal[static_cast<std::size_t>(i)].option == ParamOption::single)
      ctx.report(rule, loc,
                 std::string(what) + " " + std::to_string(i) + " (" +
                     formal[static_cast<std::size_t>(i)].name +
                     ") is required but given as an empty name");
}

void check_arity(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                 const OpVersion& op) {
  const int in = node.input_size(), out = node.output_size();
  if (in < op.min_inputs || in > op.max_inputs)
    ctx.report("node.input-arity", loc,
               "has " + count_text(in, "input") + ", " + op.id() + " takes " +
                   range_text(op.min_inputs, op.max_inputs));
  if (out < op.min_outputs || out > op.max_outputs)
    ctx.report("node.output-arity", loc,
               "has " + count_text(out, "output") + ", " + op.id() + " produces " +
                   range_text(op.min_outputs, op.max_outputs));
  check_required_names(ctx, node.input(), op.inputs, loc, "input", "node.missing-input");
  check_required_names(ctx, node.output(), op.outputs, loc, "output", "node.missing-output");
}

// ---- attributes against the schema -----------------------------------------------------------

std::string attribute_names(const OpVersion& op) {
  if (op.attributes.empty()) return "it has none";
  std::string s = "expected one of ";
  for (std::size_t i = 0; i < op.attributes.size(); ++i)
    s += (i ? ", " : "") + op.attributes[i].name;
  return s;
}

void check_schema_attributes(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                             const OpVersion& op) {
  std::set<std::string> present;
  for (const auto& a : node.attribute()) {
    present.insert(a.name());
    // Names starting with "__" are implementation details that ONNX's checker skips too.
    if (a.name().empty() || a.name().rfind("__", 0) == 0) continue;
    const std::string aloc = loc + " attribute " + a.name();
    const AttrDef* def = op.find_attribute(a.name());
    if (!def) {
      ctx.report(
          "attr.unknown", aloc,
          op.id() + " has no attribute " + quoted_name(a.name()) + "; " + attribute_names(op));
      continue;
    }
    if (a.has_type() && a.type() != AttributeProto::UNDEFINED &&
        static_cast<int>(a.type()) != static_cast<int>(def->type))
      ctx.report(
          "attr.type-mismatch", aloc,
          "is " + type_text(a.type()) + ", " + op.id() + " expects " + attr_type_name(def->type));
  }
  for (const auto& def : op.attributes)
    if (def.required && !present.count(def.name))
      ctx.report(
          "attr.missing-required", loc,
          "required attribute " + def.name + " (" + attr_type_name(def.type) + ") is missing");
}

// ---- type constraints where types are known -------------------------------------------------

std::string allowed_text(const std::vector<std::string>& allowed) {
  std::string s;
  for (std::size_t i = 0; i < allowed.size(); ++i) {
    if (i == 8) return s + ", ... (" + std::to_string(allowed.size()) + " in all)";
    s += (i ? ", " : "") + allowed[i];
  }
  return s;
}

void report_binding(CheckContext& ctx, const OpVersion& op, const std::string& loc,
                    const TypeBinder::Result& r, const std::string& label,
                    const std::string& type) {
  using Outcome = TypeBinder::Outcome;
  if (r.outcome == Outcome::not_allowed) {
    if (r.formal->is_literal_type())
      ctx.report("node.type-not-allowed", loc,
                 label + " is " + type + ", " + op.id() + " expects " + r.formal->type);
    else
      ctx.report("node.type-not-allowed", loc,
                 label + " is " + type + ", which " + op.id() + " does not allow for " +
                     r.formal->type + "; expected " + allowed_text(r.allowed->names()));
  } else if (r.outcome == Outcome::inconsistent) {
    ctx.report("node.type-inconsistent", loc,
               label + " is " + type + " but " + r.formal->type + " is " + r.bound_type + " from " +
                   r.bound_by + "; expected the same type");
  }
}

// Binds the declared types of a node's inputs (outputs when `outputs`) to the constraints.
void bind_values(CheckContext& ctx, TypeBinder& binder, const OpVersion& op, const std::string& loc,
                 const google::protobuf::RepeatedPtrField<std::string>& names, const Scope& scope,
                 bool outputs) {
  const std::vector<FormalParam>& formals = outputs ? op.outputs : op.inputs;
  for (int i = 0; i < names.size(); ++i) {
    const std::string& name = names.Get(i);
    const FormalParam* p = formal_for(formals, static_cast<std::size_t>(i));
    if (name.empty() || !p) continue;
    const onnx::TypeProto* t = scope.type_of(name);
    if (!t) continue;
    const std::string type = constraint_type_string(*t);
    if (type.empty()) continue;
    const std::string label = std::string(outputs ? "output " : "input ") + std::to_string(i) +
                              " " + quoted_name(name) + " (" + p->name + ")";
    const auto position = static_cast<std::size_t>(i);
    const auto r = outputs ? binder.bind_output(position, type, label)
                           : binder.bind_input(position, type, label);
    report_binding(ctx, op, loc, r, label, type);
  }
}

void check_types(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                 const OpVersion& op, const Scope& scope) {
  TypeBinder binder(op);
  bind_values(ctx, binder, op, loc, node.input(), scope, false);
  bind_values(ctx, binder, op, loc, node.output(), scope, true);
}

// ---- Constant: the one operator whose result type is plain from its attribute -------------
// (full inference, issue 6, subsumes this; until then it lets the type constraints of the
// many nodes that consume constants be checked)

std::optional<onnx::TypeProto> constant_type(const onnx::NodeProto& node) {
  for (const auto& a : node.attribute()) {
    onnx::TypeProto t;
    auto* tensor = t.mutable_tensor_type();
    auto vector_of = [&](int32_t elem, int n) {
      tensor->set_elem_type(elem);
      tensor->mutable_shape()->add_dim()->set_dim_value(n);
      return t;
    };
    auto scalar_of = [&](int32_t elem) {
      tensor->set_elem_type(elem);
      tensor->mutable_shape();
      return t;
    };
    const std::string& n = a.name();
    if (n == "value" && a.has_t()) return tensor_type_of(a.t());
    if (n == "value_float") return scalar_of(onnx::TensorProto::FLOAT);
    if (n == "value_int") return scalar_of(onnx::TensorProto::INT64);
    if (n == "value_string") return scalar_of(onnx::TensorProto::STRING);
    if (n == "value_floats") return vector_of(onnx::TensorProto::FLOAT, a.floats_size());
    if (n == "value_ints") return vector_of(onnx::TensorProto::INT64, a.ints_size());
    if (n == "value_strings") return vector_of(onnx::TensorProto::STRING, a.strings_size());
  }
  return std::nullopt;
}

void record_constant_type(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                          Scope& scope) {
  if (node.output_size() < 1 || node.output(0).empty()) return;
  auto t = constant_type(node);
  if (!t) return;
  const std::string& name = node.output(0);
  auto it = scope.types.find(name);
  if (it != scope.types.end()) {
    const std::string why = type_conflict(*it->second, *t);
    if (!why.empty())
      ctx.report("graph.value-info-mismatch", loc,
                 node.op_type() + " produces " + type_to_string(*t) + " but " + quoted_name(name) +
                     " is declared " + type_to_string(*it->second) + " (" + why + ")");
    return;
  }
  scope.owned_types.push_back(std::move(*t));
  scope.types.emplace(name, &scope.owned_types.back());
}

// ---- resolving the operator ------------------------------------------------------------------

void check_function_call(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                         const onnx::FunctionProto& fn) {
  const std::string id = quoted_name(fn.domain() + "." + fn.name());
  if (node.input_size() > fn.input_size())
    ctx.report("node.input-arity", loc,
               "has " + count_text(node.input_size(), "input") + ", function " + id + " takes " +
                   range_text(0, fn.input_size()));
  if (node.output_size() > fn.output_size())
    ctx.report("node.output-arity", loc,
               "has " + count_text(node.output_size(), "output") + ", function " + id +
                   " produces " + range_text(1, fn.output_size()));
  for (const auto& a : node.attribute())
    if (!a.name().empty() && !function_declares(fn, a.name()))
      ctx.report("attr.unknown", loc + " attribute " + a.name(),
                 "function " + id + " has no attribute " + quoted_name(a.name()));
}

void report_unknown_op(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                       const std::string& domain, int64_t version) {
  const std::string op = quoted_name(node.op_type());
  if (!node.overload().empty() || ctx.has_function_named(domain, node.op_type())) {
    ctx.report("node.unknown-op", loc,
               "no model-local function " +
                   quoted_name(domain_display_name(domain) + "." + node.op_type()) +
                   " with overload " + quoted_name(node.overload()));
    return;
  }
  std::string msg = "operator " + op + " does not exist in " + domain_display_name(domain) +
                    " version " + std::to_string(version);
  if (const OpDef* def = ctx.registry().find(domain, node.op_type());
      def && !def->versions().empty())
    msg += "; it first appears in version " + std::to_string(def->versions().front().since);
  ctx.report("node.unknown-op", loc, msg);
}

void check_against_schema(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                          const OpVersion& op, int64_t version, Scope& scope) {
  if (op.deprecated) {
    ctx.report("node.deprecated-op", loc,
               op.id() + " is deprecated in " + domain_display_name(op.domain) + " version " +
                   std::to_string(version) + "; expected a replacement operator");
    return;
  }
  if (op.experimental) ctx.report("node.experimental-op", loc, op.id() + " is experimental");
  check_arity(ctx, node, loc, op);
  check_schema_attributes(ctx, node, loc, op);
  check_types(ctx, node, loc, op, scope);
}

// Returns the operator version the node was checked against (nullptr for a function call, an
// unknown operator or a custom domain).
const OpVersion* check_operator(CheckContext& ctx, const onnx::NodeProto& node,
                                const std::string& loc, Scope& scope, const NodeEnv& env) {
  // Without any opset_import (reported once, model.opset-missing) nothing can be resolved.
  if (env.opsets->empty() && !env.function) return nullptr;
  const OpResolution r = resolve_operator(ctx.registry(), *env.opsets, &ctx.functions(), node);
  const std::string& domain = r.domain;
  if (!r.imported) {
    ctx.report("node.domain-not-imported", loc,
               "domain " + domain_display_name(domain) +
                   " is not in opset_import; expected it imported " +
                   (env.function ? "by the function" : "by the model"));
    return nullptr;
  }
  const int64_t version = r.opset;
  // A standard domain at a version that does not exist is reported once, at the import.
  if (const OpsetDomainRange* range = find_opset_domain(domain);
      range && (version < range->min_version || version > range->max_version))
    return nullptr;
  if (r.schema) {
    check_against_schema(ctx, node, loc, *r.schema, version, scope);
    return r.schema;
  }
  if (r.function) {
    check_function_call(ctx, node, loc, *r.function);
    return nullptr;
  }
  if (r.domain_known || find_opset_domain(domain) || !node.overload().empty() ||
      ctx.has_function_named(domain, node.op_type())) {
    report_unknown_op(ctx, node, loc, domain, version);
    return nullptr;
  }
  ctx.note_custom_domain(domain, loc);
  return nullptr;
}

void check_node_fields(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc) {
  if (node.op_type().empty())
    ctx.report("node.missing-op-type", loc, "the node has no op_type; expected an operator name");
  check_utf8(ctx, node.op_type(), loc, "op_type");
  check_utf8(ctx, node.domain(), loc, "domain");
  if (node.output_size() == 0)
    ctx.report("node.no-outputs", loc, "the node has no outputs; expected at least one");
  if (!node.overload().empty()) ctx.require_ir(10, "a node overload", loc);
  if (node.metadata_props_size()) {
    ctx.require_ir(10, "metadata_props on a node", loc);
    check_metadata(ctx, node.metadata_props(), loc + " ");
  }
}

}  // namespace

void check_attribute_value(CheckContext& ctx, const AttributeProto& a, const std::string& loc,
                           const onnx::FunctionProto* function) {
  if (a.name().empty()) ctx.report("attr.missing-name", loc, "the attribute has no name");
  check_utf8(ctx, a.name(), loc, "attribute name");
  if ((!a.has_type() || a.type() == AttributeProto::UNDEFINED) && ctx.ir_version() >= 2)
    ctx.report("attr.missing-type", loc,
               "the attribute has no type; ir_version >= 2 requires the type field");
  const auto fields = fields_set(a);
  if (!a.ref_attr_name().empty()) check_reference(ctx, a, loc, function, fields.size());
  check_value_fields(ctx, a, loc, fields);
  check_attribute_contents(ctx, a, loc);
}

void check_node(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                Scope& scope, const NodeEnv& env) {
  check_node_fields(ctx, node, loc);
  check_attributes(ctx, node, loc, scope, env);
  const OpVersion* op =
      node.op_type().empty() ? nullptr : check_operator(ctx, node, loc, scope, env);
  if (op && op->has(Trait::attribute_value)) record_constant_type(ctx, node, loc, scope);
  if (op && op->check_structure)
    op->check_structure(
        StructureContext{node, loc, [&](const std::string& rule, const std::string& message) {
                           ctx.report(rule, loc, message);
                         }});
  check_node_devices(ctx, node, loc, scope);
}

}  // namespace onnxtool
