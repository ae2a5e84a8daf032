// SPDX-License-Identifier: Apache-2.0
// What a version adapter sees and does: one node of the editable graph, stepped from one
// version of its operator to the adjacent one (OpVersion::upgrade / downgrade, written in the
// operator's own file). The converter (core/convert/opset_convert.h) calls it once per node and
// step, and walks the steps one at a time.
//
//   // Squeeze-13 takes axes as an input; Squeeze-11 as an attribute.
//   op.at(13).upgrade(convert::axes_attribute_to_input()).downgrade(convert::axes_input_to_attribute());
//
// An adapter edits the node (attributes, inputs, op type), may add small constants and nodes
// before it, says in a few words what it did (describe), and refuses a node it cannot convert
// exactly (refuse: no equivalent; approximate: only with --allow-approximate).
//
// DESIGN: an adapter goes in the operator's file, beside the signatures of the two versions it
// bridges; what many operators share (attribute <-> input, dropped attributes) is a helper in
// core/convert/adapters.h.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/registry/schema.h"
#include "core/types/tensor.h"

namespace onnx {
class AttributeProto;
class NodeProto;
}  // namespace onnx

namespace onnxtool {

class Registry;
struct Type;

namespace ir {
class Graph;
class Node;
class ModelGraph;
}  // namespace ir

// Whether the node's operator outputs the value of its attribute (Constant, asked by trait: core/
// names no operator).
bool declares_attribute_value(const Registry& registry, const ir::Node& node);

// Thrown by AdapterContext::refuse: the node cannot take this step.
struct AdapterRefusal {
  std::string why;
  bool approximate = false;  // it could, but not exactly (refused unless allowed)
};

class AdapterContext {
 public:
  struct Environment {
    ir::ModelGraph* model = nullptr;
    const Registry* registry = nullptr;
    // The type a value had in the model before conversion (shape inference), or nullptr.
    std::function<const Type*(const std::string&)> type_of;
    bool allow_approximate = false;
    // New constants become Constant nodes rather than initializers (a function body has none).
    bool constants_as_nodes = false;
    // New initializers are also graph inputs (a model that stays at IR 3 needs that).
    bool initializers_as_inputs = false;
  };

  AdapterContext(const Environment& env, ir::Graph& graph, ir::Node& node, const OpVersion& from,
                 const OpVersion& to, int64_t from_opset, int64_t to_opset);

  ir::Graph& graph() const { return *graph_; }
  ir::Node& node() const { return *node_; }
  const Registry& registry() const { return *env_.registry; }
  // The node's operator version before and after this step, and the opsets of the step.
  const OpVersion& from() const { return *from_; }
  const OpVersion& to() const { return *to_; }
  int64_t from_opset() const { return from_opset_; }
  int64_t to_opset() const { return to_opset_; }
  bool upgrading() const { return to_opset_ > from_opset_; }
  // The version of another domain the model imports now (0 when it does not): nodes an adapter
  // inserts from another domain must exist at that version.
  int64_t model_opset(const std::string& domain) const;
  // Makes the model import `domain` (at `version`) when it does not yet, for the nodes of that
  // domain an adapter inserts; returns the version the model imports.
  int64_t import_opset(const std::string& domain, int64_t version);

  // ---- attributes ------------------------------------------------------------------------
  const onnx::AttributeProto* attribute(std::string_view name) const;
  bool has_attribute(std::string_view name) const { return attribute(name) != nullptr; }
  std::optional<int64_t> int_attribute(std::string_view name) const;
  std::optional<float> float_attribute(std::string_view name) const;
  std::optional<std::string> string_attribute(std::string_view name) const;
  std::optional<std::vector<int64_t>> ints_attribute(std::string_view name) const;
  std::optional<std::vector<float>> floats_attribute(std::string_view name) const;
  void remove_attribute(std::string_view name);
  void set_attribute(std::string_view name, int64_t value);
  void set_attribute(std::string_view name, float value);
  void set_attribute(std::string_view name, const std::string& value);
  void set_attribute(std::string_view name, const std::vector<int64_t>& value);
  void set_attribute(std::string_view name, const std::vector<float>& value);
  void set_attribute(std::string_view name, const std::vector<std::string>& value);
  void set_attribute(std::string_view name, const Tensor& value);
  void rename_attribute(std::string_view from, std::string_view to);

  // ---- inputs and outputs ----------------------------------------------------------------
  std::size_t num_inputs() const;
  // Named in the node (an omitted optional input has an empty name, or none).
  bool has_input(std::size_t i) const;
  const std::string& input(std::size_t i) const;
  // Makes input i read `value`, padding omitted inputs before it with empty names.
  void set_input(std::size_t i, const std::string& value);
  // Drops inputs from position n on.
  void truncate_inputs(std::size_t n);
  std::size_t num_outputs() const;
  bool has_output(std::size_t i) const;
  const std::string& output(std::size_t i) const;
  // Whether anything reads output i (a node, a subgraph, a graph output).
  bool output_used(std::size_t i) const;
  // Leaves output i unnamed (an optional output nothing reads).
  void drop_output(std::size_t i);
  // The node's name, else its op type: a base for the names of values it adds.
  std::string name_base() const;
  void truncate_outputs(std::size_t n);
  // Names output i (appending unnamed outputs before it as needed).
  void set_output(std::size_t i, const std::string& name);
  // The value an input holds on every run (an initializer that no feed can replace, or a
  // Constant's value), if the model stores it inline; nullopt otherwise.
  std::optional<Tensor> constant_input(std::size_t i) const;
  // What shape inference found for an input or output before conversion; nullptr when nothing.
  const Type* input_type(std::size_t i) const;
  const Type* output_type(std::size_t i) const;

  // ---- new values and nodes --------------------------------------------------------------
  // A constant the node can read (a small tensor: an attribute turned into an input); returns
  // its name. Stored inline as an initializer of the main graph (visible from subgraphs too),
  // also declared as a graph input when the model's IR version asks that of initializers.
  std::string add_constant(const std::string& base, const Tensor& value);
  // Inserts a node before (after) this one and returns it; new values are named with
  // fresh_name.
  ir::Node* insert_before(onnx::NodeProto proto);
  ir::Node* insert_after(onnx::NodeProto proto);
  // Gives output i a new name (fresh_name): the old one is then free for a node inserted after
  // this one, which its readers keep reading.
  void rename_output(std::size_t i, const std::string& name);
  std::string fresh_name(const std::string& base);
  void set_op_type(const std::string& op_type);

  // ---- outcome ---------------------------------------------------------------------------
  // What the step did to this node, in a few words ("axes: attribute -> input").
  void describe(std::string how);
  const std::vector<std::string>& descriptions() const { return descriptions_; }
  // The node cannot take this step: no equivalent exists.
  [[noreturn]] void refuse(std::string why) const;
  // The step can only approximate the node (a type narrowed, a mode changed): refused unless
  // --allow-approximate, then reported as a warning.
  void approximate(std::string what);
  const std::vector<std::string>& approximations() const { return approximations_; }
  // The nodes this step inserted (the converter steps them on with the node they came from).
  const std::vector<ir::Node*>& inserted() const { return inserted_; }

 private:
  const Environment& env_;
  ir::Graph* graph_;
  ir::Node* node_;
  const OpVersion* from_;
  const OpVersion* to_;
  int64_t from_opset_, to_opset_;
  std::vector<std::string> descriptions_, approximations_;
  std::vector<ir::Node*> inserted_;
};

}  // namespace onnxtool
