// SPDX-License-Identifier: Apache-2.0
// What the checker passes share while they walk one model: options, the registry, the model's
// IR version and opset imports, the model-local functions, the scopes of the graphs being
// walked, and the one place findings are reported (with the rule table's severity).
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "core/check/check.h"
#include "core/diag/diagnostic.h"
#include "core/registry/binding.h"
#include "onnx.pb.h"

namespace onnxtool {

class Registry;

// How deep subgraphs (and nested types) are followed: far beyond any real model, and below what
// protobuf's parse limit of 100 nested messages allows (about 32 graph levels, three messages
// each), so that the limit is reachable from a file, and a proto built in memory, nested
// without bound, still cannot exhaust the stack.
inline constexpr int kMaxCheckDepth = 30;

// The values one graph (or function body) can see while its nodes are walked in order.
struct Scope {
  Scope* parent = nullptr;
  std::string prefix;  // location prefix of the graph, for messages
  // Names defined so far in this graph: inputs, initializers, outputs of nodes already walked.
  std::unordered_set<std::string> defined;
  // Every node output of this graph, with the first node producing it.
  std::unordered_map<std::string, int> producer;
  // Declared or evident types of this graph's values (inputs, initializers, value_info,
  // outputs, Constant results).
  std::unordered_map<std::string, const onnx::TypeProto*> types;
  std::deque<onnx::TypeProto> owned_types;  // types synthesized here (stable addresses)
  int current_node = -1;                    // the node being walked
  // Node dependencies on producers of this graph: deps[user] holds producer indices, from
  // direct inputs and from values that the user's subgraphs capture.
  std::vector<std::set<int>> deps;
  // Uses of a value whose producer comes later in this graph.
  struct LateUse {
    int user, producer;
    std::string name, location;
  };
  std::vector<LateUse> late_uses;
  bool check_shadowing = true;  // off for training graphs, which share the inference scope
  bool walking = false;         // nodes are being walked (dependencies are still recorded)

  // Is `name` defined here or in an enclosing graph?
  bool visible(const std::string& name) const;
  bool visible_outside(const std::string& name) const { return parent && parent->visible(name); }
  const onnx::TypeProto* type_of(const std::string& name) const;
};

class CheckContext {
 public:
  CheckContext(const onnx::ModelProto& model, const CheckOptions& options, DiagSink& sink);

  // Reports with the severity the rule table gives (strict rules become errors under --strict).
  void report(std::string_view rule, const std::string& location, std::string message);
  // Reports model.ir-version-too-old once per feature when the model's IR is below `min_ir`.
  void require_ir(int64_t min_ir, const std::string& feature, const std::string& location);
  // Notes once per domain that a custom domain is checked structurally only.
  void note_custom_domain(const std::string& domain, const std::string& location);

  const onnx::ModelProto& model() const { return *model_; }
  const CheckOptions& options() const { return *options_; }
  const Registry& registry() const { return *registry_; }
  int64_t ir_version() const { return ir_version_; }
  const OpsetMap& model_opsets() const { return model_opsets_; }
  void set_model_opsets(OpsetMap m) { model_opsets_ = std::move(m); }

  // The model-local functions (see core/registry/binding.h).
  const LocalFunctions& functions() const { return functions_; }
  // The model-local function a node calls, or nullptr.
  const onnx::FunctionProto* find_function(const std::string& domain, const std::string& name,
                                           const std::string& overload) const {
    return functions_.find(domain, name, overload);
  }
  bool has_function_named(const std::string& domain, const std::string& name) const {
    return functions_.has_name(domain, name);
  }
  void add_function(const onnx::FunctionProto& fn) { functions_.add(fn); }

  // Device configurations by name, with num_devices (IR 11).
  std::map<std::string, int64_t>& device_configs() { return device_configs_; }
  // Reports model.too-deep once.
  void too_deep(const std::string& location);
  // Reports a rule from another module (the tensor codec) that is not in the rule table.
  void report_foreign(const std::string& rule, const std::string& location, std::string message);
  // Dimension variables already checked for the C-identifier rule.
  bool first_dim_param(const std::string& name) { return dim_params_.insert(name).second; }

 private:
  const onnx::ModelProto* model_;
  const CheckOptions* options_;
  const Registry* registry_;
  DiagSink* sink_;
  int64_t ir_version_;
  OpsetMap model_opsets_;
  LocalFunctions functions_;
  std::set<std::string> ir_features_reported_;
  std::set<std::string> custom_domains_noted_;
  std::set<std::string> dim_params_;
  std::map<std::string, int64_t> device_configs_;
  bool too_deep_reported_ = false;
};

// Where a graph sits and what it may do.
enum class GraphKind { main, subgraph, training };

// The environment of the nodes being walked: which opsets resolve their domains, and the
// function whose body they are in (for ref_attr_name).
struct NodeEnv {
  const OpsetMap* opsets;
  const onnx::FunctionProto* function = nullptr;
  int depth = 0;
};

// ---- the passes (one file each) -----------------------------------------------------------

// model_check.cpp: ir_version, opset_import (sets ctx.model_opsets), metadata.
void check_model_header(CheckContext& ctx);
// Reads an opset_import list: duplicates, versions of standard domains, IR they need.
OpsetMap read_opsets(CheckContext& ctx,
                     const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports,
                     const std::string& prefix);

// device_check.cpp
void check_device_configurations(CheckContext& ctx);
void check_node_devices(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                        const Scope& scope);

// graph_check.cpp. `scope` is the graph's own, its parent already set; `prefix` locates the
// graph's contents ("graph." or subgraph_prefix(...)).
void check_graph(CheckContext& ctx, const onnx::GraphProto& graph, const std::string& prefix,
                 GraphKind kind, Scope& scope, const NodeEnv& env);
// Walks nodes in order (graphs and function bodies alike): uses resolved against the scope,
// each node checked, outputs defined (SSA, shadowing); then cycles and out-of-order uses.
void walk_nodes(CheckContext& ctx, const google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes,
                const std::string& prefix, Scope& scope, const NodeEnv& env);

// node_check.cpp: one node against its operator or function, its attributes and subgraphs.
void check_node(CheckContext& ctx, const onnx::NodeProto& node, const std::string& loc,
                Scope& scope, const NodeEnv& env);
// One attribute's own well-formedness (name, type, exactly one value, strings, tensors);
// `function` is the enclosing function body, for ref_attr_name.
void check_attribute_value(CheckContext& ctx, const onnx::AttributeProto& a, const std::string& loc,
                           const onnx::FunctionProto* function);

void check_functions(CheckContext& ctx);                   // function_check.cpp
void check_training_info(CheckContext& ctx, Scope& main);  // training_check.cpp

// Tensors (tensor_check.cpp).
void check_tensor(CheckContext& ctx, const onnx::TensorProto& t, const std::string& loc);
void check_sparse_tensor(CheckContext& ctx, const onnx::SparseTensorProto& s,
                         const std::string& loc);

// Types (type_check.cpp).
struct TypeRequirements {
  bool type = false;       // the value must have a type (main-graph inputs and outputs)
  bool elem_type = false;  // ... with its element types given
  bool shape = false;      // ... and tensors with a shape
};
void check_type(CheckContext& ctx, const onnx::TypeProto& type, const std::string& loc,
                TypeRequirements req);
void check_value_type(CheckContext& ctx, const onnx::TypeProto* type, bool has_type,
                      const std::string& loc, TypeRequirements req);
// The type of a stored tensor, as a value of that type would be declared.
onnx::TypeProto tensor_type_of(const onnx::TensorProto& t);
// "tensor(float)", "seq(tensor(int64))", ... as type constraints list them; empty when the type
// is not fully known (no element type, opaque, unset).
std::string constraint_type_string(const onnx::TypeProto& type);
// Empty when the two declarations can describe the same value; otherwise why not.
std::string type_conflict(const onnx::TypeProto& a, const onnx::TypeProto& b);

// Strings and names (names.cpp).
bool is_valid_utf8(std::string_view s);
bool is_c_identifier(std::string_view s);
// Reports string.not-utf8 and, for names, name.not-c-identifier.
void check_name(CheckContext& ctx, const std::string& name, const std::string& loc,
                const char* what);
void check_utf8(CheckContext& ctx, std::string_view s, const std::string& loc, const char* what);
using MetadataProps = google::protobuf::RepeatedPtrField<onnx::StringStringEntryProto>;
// Keys unique (metadata.duplicate-key), keys and values UTF-8.
void check_metadata(CheckContext& ctx, const MetadataProps& props, const std::string& loc);

}  // namespace onnxtool
