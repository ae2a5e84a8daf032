// SPDX-License-Identifier: Apache-2.0
// Binding a node to what it calls: the one place that says which opset a domain resolves to,
// which operator version or model-local function a node names, which formal parameter each of
// its inputs and outputs binds to (optional and variadic ones included), and whether the types
// it is given fit the operator's type constraints. The checker, shape inference, the executor
// and the opset converter all bind nodes through here, so they cannot disagree about a node.
//
// DESIGN: a rule about how a node binds goes here, not in one of the walkers; a walker only
// decides what to report and how (each has its own rule ids and wording).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "core/registry/schema.h"

namespace google::protobuf {
template <typename T>
class RepeatedPtrField;
}  // namespace google::protobuf

namespace onnx {
class AttributeProto;
class NodeProto;
class FunctionProto;
class ModelProto;
class OperatorSetIdProto;
}  // namespace onnx

namespace onnxtool {

class Registry;

// Imported opset versions by domain ("" for the default domain, never "ai.onnx").
using OpsetMap = std::map<std::string, int64_t>;

// An opset_import list as a map; a domain imported twice keeps its first version (a model that
// does this is invalid, and the checker reports it).
OpsetMap opsets_from(const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports);
// The model's imports; before IR 3 (no opset_import) every model used version 1 of the default
// domain.
OpsetMap model_opsets(const onnx::ModelProto& model);
// The opsets a function body resolves against: its own imports, the caller's for the rest.
OpsetMap function_opsets(const onnx::FunctionProto& fn, const OpsetMap& caller);

// The model-local functions of a model, by (domain, name, overload).
class LocalFunctions {
 public:
  LocalFunctions() = default;
  explicit LocalFunctions(const onnx::ModelProto& model);
  // A later function with the same key as an earlier one is ignored (the checker reports it).
  void add(const onnx::FunctionProto& fn);
  const onnx::FunctionProto* find(const std::string& domain, const std::string& name,
                                  const std::string& overload) const;
  // Is there a function of this name in this domain, whatever its overload?
  bool has_name(const std::string& domain, const std::string& name) const;
  bool empty() const { return functions_.empty(); }

 private:
  std::map<std::tuple<std::string, std::string, std::string>, const onnx::FunctionProto*>
      functions_;
};

// What a node's (domain, op_type, overload) names under a set of opset imports. Both the
// registry's operator and a model-local function are given when both exist: which one wins is
// the caller's policy (the executor prefers a kernel, inference a local function).
struct OpResolution {
  std::string domain;  // normalised: "" for ai.onnx
  bool imported = false;
  int64_t opset = 0;                              // the imported version (0 when not imported)
  const OpVersion* schema = nullptr;              // in effect at that opset
  const onnx::FunctionProto* function = nullptr;  // model-local function of the same key
  bool op_known = false;                          // the registry has the operator at some version
  bool domain_known = false;                      // the registry has operators in this domain

  // The first version of the operator when it exists only after `opset`; 0 otherwise.
  int first_version = 0;
};

OpResolution resolve_operator(const Registry& registry, const OpsetMap& opsets,
                              const LocalFunctions* functions, const onnx::NodeProto& node);

// ---- parameters --------------------------------------------------------------------------

// The formal parameter the actual at `position` binds to: the formal at that position, or the
// last formal when it is variadic and takes every remaining position; nullptr past the end.
const FormalParam* formal_for(const std::vector<FormalParam>& formals, std::size_t position);
inline const FormalParam* formal_input(const OpVersion& op, std::size_t position) {
  return formal_for(op.inputs, position);
}
inline const FormalParam* formal_output(const OpVersion& op, std::size_t position) {
  return formal_for(op.outputs, position);
}

// The types a formal parameter accepts (its constraint's, or the one literal type it names);
// nullptr when it names a constraint the version does not declare.
const TypeSet* allowed_types(const OpVersion& op, const FormalParam& formal);

// ---- calls of functions -------------------------------------------------------------------

// The value an attribute reference (@name, ref_attr_name) stands for at a call site: the
// caller's attribute, else the function's default; nullptr when neither exists.
using AttributeSource = std::function<const onnx::AttributeProto*(const std::string& name)>;
// Resolves every attribute reference of a function body's node (inside its subgraphs too)
// against `actual`; a reference to nothing is dropped, as the spec says.
void substitute_attribute_refs(onnx::NodeProto& node, const AttributeSource& actual);
// An attribute holding a default the registry gives (OpVersion::attributes).
onnx::AttributeProto default_attribute(const std::string& name, const AttrValue& value);

// ---- type constraints --------------------------------------------------------------------

// Binds the types of one node's actuals to the operator's constraints, one actual at a time,
// and says for each whether it fits: allowed by its formal's constraint, and the same as what
// the constraint was bound to before (for homogeneous parameters).
class TypeBinder {
 public:
  explicit TypeBinder(const OpVersion& op) : op_(&op) {}

  enum class Outcome {
    ok,
    not_allowed,   // the type is outside the formal's constraint (or its literal type)
    inconsistent,  // the constraint was bound to another type by an earlier actual
    unchecked,     // no formal, or a constraint the version does not declare
  };
  struct Result {
    Outcome outcome = Outcome::unchecked;
    const FormalParam* formal = nullptr;
    const TypeSet* allowed = nullptr;  // what the formal accepts (for messages)
    std::string bound_type;            // inconsistent: what the constraint holds
    std::string bound_by;              // inconsistent: the label of the actual that bound it
  };

  // `canonical` is the actual's type as constraints write it ("tensor(float)"), `label` how
  // the caller names the actual in messages. Outputs bind after inputs, through bind_output.
  Result bind_input(std::size_t position, const std::string& canonical, const std::string& label);
  Result bind_output(std::size_t position, const std::string& canonical, const std::string& label);

 private:
  Result bind(const FormalParam* formal, const std::string& canonical, const std::string& label);

  const OpVersion* op_;
  std::map<std::string, std::pair<std::string, std::string>> bound_;  // constraint -> type, by
};

}  // namespace onnxtool
