// SPDX-License-Identifier: Apache-2.0
#include "core/registry/binding.h"

#include "core/registry/registry.h"
#include "onnx.pb.h"

namespace onnxtool {

// ---- opsets ------------------------------------------------------------------------------

OpsetMap opsets_from(const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports) {
  OpsetMap out;
  for (const auto& o : imports) out.emplace(normalize_domain(o.domain()), o.version());
  return out;
}

OpsetMap model_opsets(const onnx::ModelProto& model) {
  OpsetMap out = opsets_from(model.opset_import());
  if (model.ir_version() > 0 && model.ir_version() < 3 && model.opset_import_size() == 0)
    out.emplace("", 1);
  return out;
}

OpsetMap function_opsets(const onnx::FunctionProto& fn, const OpsetMap& caller) {
  OpsetMap out = opsets_from(fn.opset_import());
  for (const auto& [domain, version] : caller) out.emplace(domain, version);
  return out;
}

// ---- model-local functions -----------------------------------------------------------------

LocalFunctions::LocalFunctions(const onnx::ModelProto& model) {
  for (const auto& fn : model.functions()) add(fn);
}

void LocalFunctions::add(const onnx::FunctionProto& fn) {
  functions_.emplace(std::make_tuple(normalize_domain(fn.domain()), fn.name(), fn.overload()), &fn);
}

const onnx::FunctionProto* LocalFunctions::find(const std::string& domain, const std::string& name,
                                                const std::string& overload) const {
  auto it = functions_.find({normalize_domain(domain), name, overload});
  return it == functions_.end() ? nullptr : it->second;
}

bool LocalFunctions::has_name(const std::string& domain, const std::string& name) const {
  const std::string d = normalize_domain(domain);
  auto it = functions_.lower_bound({d, name, ""});
  return it != functions_.end() && std::get<0>(it->first) == d && std::get<1>(it->first) == name;
}

// ---- operators -----------------------------------------------------------------------------

OpResolution resolve_operator(const Registry& registry, const OpsetMap& opsets,
                              const LocalFunctions* functions, const onnx::NodeProto& node) {
  OpResolution r;
  r.domain = normalize_domain(node.domain());
  if (functions) r.function = functions->find(r.domain, node.op_type(), node.overload());
  const OpDef* def = registry.find(r.domain, node.op_type());
  r.op_known = def != nullptr;
  r.domain_known = r.op_known || registry.knows_domain(r.domain);
  auto it = opsets.find(r.domain);
  if (it == opsets.end()) return r;
  r.imported = true;
  r.opset = it->second;
  if (!def) return r;
  r.schema = def->lookup(r.opset);
  if (!r.schema && !def->versions().empty()) r.first_version = def->versions().front().since;
  return r;
}

// ---- parameters ----------------------------------------------------------------------------

const FormalParam* formal_for(const std::vector<FormalParam>& formals, std::size_t position) {
  if (position < formals.size()) return &formals[position];
  if (!formals.empty() && formals.back().option == ParamOption::variadic) return &formals.back();
  return nullptr;
}

const TypeSet* allowed_types(const OpVersion& op, const FormalParam& formal) {
  if (formal.is_literal_type()) return &formal.literal;
  const TypeConstraint* c = op.find_constraint(formal.type);
  return c ? &c->types : nullptr;
}

// ---- calls of functions -------------------------------------------------------------------

namespace {

void substitute_in_graph(onnx::GraphProto& graph, const AttributeSource& actual) {
  for (auto& node : *graph.mutable_node()) substitute_attribute_refs(node, actual);
}

// Resolves a reference in place; false when the attribute must be dropped (a reference to an
// attribute the caller did not give and that has no default).
bool substitute_attribute(onnx::AttributeProto& a, const AttributeSource& actual) {
  if (!a.ref_attr_name().empty()) {
    const onnx::AttributeProto* value = actual(a.ref_attr_name());
    if (!value) return false;
    const std::string name = a.name();
    a = *value;
    a.set_name(name);
    a.clear_ref_attr_name();
    return true;
  }
  if (a.has_g()) substitute_in_graph(*a.mutable_g(), actual);
  for (auto& g : *a.mutable_graphs()) substitute_in_graph(g, actual);
  return true;
}

}  // namespace

void substitute_attribute_refs(onnx::NodeProto& node, const AttributeSource& actual) {
  auto* attrs = node.mutable_attribute();
  for (int i = attrs->size() - 1; i >= 0; --i)
    if (!substitute_attribute(*attrs->Mutable(i), actual)) attrs->DeleteSubrange(i, 1);
}

onnx::AttributeProto default_attribute(const std::string& name, const AttrValue& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  if (auto* i = std::get_if<int64_t>(&v)) {
    a.set_type(onnx::AttributeProto::INT);
    a.set_i(*i);
  } else if (auto* f = std::get_if<float>(&v)) {
    a.set_type(onnx::AttributeProto::FLOAT);
    a.set_f(*f);
  } else if (auto* s = std::get_if<std::string>(&v)) {
    a.set_type(onnx::AttributeProto::STRING);
    a.set_s(*s);
  } else if (auto* is = std::get_if<std::vector<int64_t>>(&v)) {
    a.set_type(onnx::AttributeProto::INTS);
    for (auto x : *is) a.add_ints(x);
  } else if (auto* fs = std::get_if<std::vector<float>>(&v)) {
    a.set_type(onnx::AttributeProto::FLOATS);
    for (auto x : *fs) a.add_floats(x);
  } else if (auto* ss = std::get_if<std::vector<std::string>>(&v)) {
    a.set_type(onnx::AttributeProto::STRINGS);
    for (const auto& x : *ss) a.add_strings(x);
  }
  return a;
}

// ---- type constraints ----------------------------------------------------------------------

TypeBinder::Result TypeBinder::bind_input(std::size_t position, const std::string& canonical,
                                          const std::string& label) {
  return bind(formal_input(*op_, position), canonical, label);
}

TypeBinder::Result TypeBinder::bind_output(std::size_t position, const std::string& canonical,
                                           const std::string& label) {
  return bind(formal_output(*op_, position), canonical, label);
}

TypeBinder::Result TypeBinder::bind(const FormalParam* formal, const std::string& canonical,
                                    const std::string& label) {
  Result r;
  r.formal = formal;
  if (!formal) return r;
  r.allowed = allowed_types(*op_, *formal);
  if (!r.allowed) return r;
  // A constraint that lists no type constrains nothing (none in the spec; kept for safety).
  if (!r.allowed->empty() && !r.allowed->allows(canonical)) {
    r.outcome = Outcome::not_allowed;
    return r;
  }
  r.outcome = Outcome::ok;
  // A literal type binds nothing; the actuals of a heterogeneous variadic may differ.
  if (formal->is_literal_type() ||
      (formal->option == ParamOption::variadic && !formal->homogeneous))
    return r;
  auto [it, fresh] = bound_.try_emplace(formal->type, canonical, label);
  if (!fresh && it->second.first != canonical) {
    r.outcome = Outcome::inconsistent;
    r.bound_type = it->second.first;
    r.bound_by = it->second.second;
  }
  return r;
}

}  // namespace onnxtool
