// SPDX-License-Identifier: Apache-2.0
#include "core/convert/signature.h"

#include "core/registry/binding.h"

namespace onnxtool::convert {

namespace {

const char* option_name(ParamOption o) {
  switch (o) {
    case ParamOption::single:
      return "required";
    case ParamOption::optional:
      return "optional";
    case ParamOption::variadic:
      return "variadic";
  }
  return "?";
}

// Empty when a formal parameter keeps its place and form; otherwise what changed.
std::string param_change(const FormalParam& a, const FormalParam& b, const char* what,
                         std::size_t i) {
  const std::string label = std::string(what) + " " + std::to_string(i) + " (" + b.name + ")";
  if (a.option != b.option)
    return label + " went from " + option_name(a.option) + " to " + option_name(b.option);
  if (a.option == ParamOption::variadic &&
      (a.min_arity != b.min_arity || a.homogeneous != b.homogeneous))
    return label + " changed its arity or homogeneity";
  return "";
}

bool same_types(const OpVersion& va, const FormalParam& a, const OpVersion& vb,
                const FormalParam& b) {
  const TypeSet* ta = allowed_types(va, a);
  const TypeSet* tb = allowed_types(vb, b);
  if (!ta || !tb) return ta == tb;
  return ta->names() == tb->names();
}

// Compares the formal parameters both versions have, and lists what the newer adds.
std::string compare_params(const OpVersion& older, const OpVersion& newer,
                           const std::vector<FormalParam>& a, const std::vector<FormalParam>& b,
                           const char* what, std::vector<std::size_t>& added, bool& types_differ) {
  if (b.size() < a.size())
    return std::string(what) + " " + std::to_string(b.size()) + " (" + a[b.size()].name +
           ") was removed";
  for (std::size_t i = 0; i < a.size(); ++i) {
    std::string change = param_change(a[i], b[i], what, i);
    if (!change.empty()) return change;
    if (!same_types(older, a[i], newer, b[i])) types_differ = true;
  }
  for (std::size_t i = a.size(); i < b.size(); ++i) {
    if (!a.empty() && a.back().option == ParamOption::variadic)
      return std::string(what) + " " + std::to_string(i) + " (" + b[i].name +
             ") was added after a variadic one";
    if (b[i].option != ParamOption::optional)
      return std::string(what) + " " + std::to_string(i) + " (" + b[i].name +
             ") was added, and it is required";
    added.push_back(i);
  }
  return "";
}

std::string attribute_change(const AttrDef& a, const AttrDef& b) {
  if (a.type != b.type)
    return std::string("attribute ") + a.name + " went from " + attr_type_name(a.type) + " to " +
           attr_type_name(b.type);
  if (a.required != b.required)
    return "attribute " + a.name + (b.required ? " became required" : " is no longer required");
  if (!(a.default_value == b.default_value))
    return "the default of attribute " + a.name + " changed";
  return "";
}

}  // namespace

SignatureChange compare_signatures(const OpVersion& older, const OpVersion& newer) {
  SignatureChange c;
  auto different = [&](std::string why) {
    c.kind = SignatureChange::Kind::different;
    c.why = std::move(why);
    return c;
  };
  std::string why = compare_params(older, newer, older.inputs, newer.inputs, "input",
                                   c.added_inputs, c.types_differ);
  if (!why.empty()) return different(why);
  why = compare_params(older, newer, older.outputs, newer.outputs, "output", c.added_outputs,
                       c.types_differ);
  if (!why.empty()) return different(why);
  if (newer.min_inputs > older.min_inputs || newer.min_outputs > older.min_outputs)
    return different("more inputs or outputs are required");
  for (const auto& a : older.attributes) {
    const AttrDef* b = newer.find_attribute(a.name);
    if (!b) return different("attribute " + a.name + " was removed");
    why = attribute_change(a, *b);
    if (!why.empty()) return different(why);
  }
  for (const auto& b : newer.attributes) {
    if (older.find_attribute(b.name)) continue;
    if (b.required) return different("attribute " + b.name + " was added, and it is required");
    c.added_attributes.push_back(&b);
  }
  const bool extended =
      !c.added_inputs.empty() || !c.added_outputs.empty() || !c.added_attributes.empty();
  c.kind =
      extended || c.types_differ ? SignatureChange::Kind::compatible : SignatureChange::Kind::same;
  return c;
}

bool types_include(const OpVersion& wider, const OpVersion& narrower) {
  auto covers = [&](const std::vector<FormalParam>& w, const std::vector<FormalParam>& n) {
    for (std::size_t i = 0; i < w.size() && i < n.size(); ++i) {
      const TypeSet* tw = allowed_types(wider, w[i]);
      const TypeSet* tn = allowed_types(narrower, n[i]);
      if (!tw || !tn) continue;
      for (const auto& t : tn->names())
        if (!tw->allows(t)) return false;
    }
    return true;
  };
  return covers(wider.inputs, narrower.inputs) && covers(wider.outputs, narrower.outputs);
}

}  // namespace onnxtool::convert
