// SPDX-License-Identifier: Apache-2.0
// The type and shape inference engine: runs every node's inference (the operator's InferFn,
// else its function body, else a generic fallback from its signature) over a whole model —
// main graph, subgraphs with their outer scope, training graphs, model-local functions — and
// collects every finding with its location instead of stopping at the first.
//
//   DiagSink sink;
//   InferResult r = infer_model(model, InferOptions{}, sink);
//   annotate_model(*model.proto, r);        // value_info for every intermediate value
//   for (auto& line : explain_value(r, "y")) ...  // why y's dims are not known
//
// Rule ids: infer.failed (an operator's inference found a contradiction), infer.type-not-allowed,
// infer.type-mismatch (inputs bound to one type constraint disagree), infer.declared-conflict
// (inferred vs declared value_info or graph output), infer.symbol-conflict (a dim_param bound
// to two values), infer.undefined-input, infer.unknown-op, infer.function (a function body
// could not be inferred), infer.internal. Conflicts with declarations and between symbols are
// warnings, errors under `strict`.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/infer/type.h"

namespace onnx {
class ModelProto;
class GraphProto;
class FunctionProto;
}  // namespace onnx

namespace onnxtool {

struct Model;
struct OpVersion;
class Registry;

struct InferOptions {
  // Conflicts between inferred and declared types, and symbols bound to two values: errors
  // rather than warnings.
  bool strict = false;
  // Fixes dim_params before inference: --dim N=1.
  std::map<std::string, int64_t> dims;
  // Replaces main-graph inputs' shapes before inference: --input-shape x=1,3,224,224 (binding
  // the dim_params they declared). An unknown name or another rank throws Error(usage).
  std::map<std::string, std::vector<int64_t>> input_shapes;
  // The operators; nullptr means Registry::standard().
  const Registry* registry = nullptr;
  // Turns a spec operator's function body (OpVersion::function_body, ONNX textual syntax) into
  // a FunctionProto. Operators without inference of their own are inferred through it when
  // set; otherwise (and when it returns nullopt) they get the generic fallback.
  std::function<std::optional<onnx::FunctionProto>(const OpVersion&)> function_body;
};

// Where a value came from and, when its type is not fully known, why (for --explain).
struct Provenance {
  enum class Origin { input, initializer, node };
  Origin origin = Origin::node;
  std::string node;                 // the producing node's location ("" for inputs/initializers)
  std::string op;                   // its operator id, "Reshape-14"
  std::vector<std::string> inputs;  // the node's input names ("" for omitted ones)
  std::string reason;               // where information was lost here and why, when known
  std::vector<std::size_t> missing_values;  // inputs whose values inference asked for in vain
  std::string declared;  // the declared type, when it added to what inference found
};

struct ValueRecord {
  std::string name;
  Type type;                   // inferred, merged with what was declared
  std::optional<Dims> values;  // data propagation: known or symbolic integer values
  bool is_output = false;      // a graph output
  Provenance provenance;
};

struct GraphResult {
  const onnx::GraphProto* graph = nullptr;
  std::string prefix;  // location prefix of its contents ("graph." for the main graph)
  int parent = -1;     // index of the enclosing graph in InferResult::graphs, -1 for top level
  std::vector<ValueRecord> values;  // inputs, initializers, then node outputs in node order
  std::unordered_map<std::string, std::size_t> index;
  std::vector<Type> output_types;  // the graph outputs' types, merged with their declarations

  const ValueRecord* find(const std::string& name) const;
};

struct InferResult {
  std::vector<GraphResult> graphs;  // the main graph first, then subgraphs and training graphs
  // dim_params bound to values (by --dim, --input-shape, or meeting a known dim).
  std::map<std::string, int64_t> bindings;

  const GraphResult* graph_of(const onnx::GraphProto* g) const;
  // A value of the main graph, else of the first graph that defines the name.
  const ValueRecord* find(const std::string& name) const;
  // A value as graph g sees it: g's own, else its enclosing graphs' (nearest first); with the
  // graph that defines it. {nullptr, nullptr} when no scope does.
  std::pair<const GraphResult*, const ValueRecord*> find_in_scope(const GraphResult& g,
                                                                  const std::string& name) const;
};

// Infers the whole model. Findings go to sink; throws Error(usage) for bad input_shapes.
InferResult infer_model(const Model& model, const InferOptions& options, DiagSink& sink);

// Writes the result into the model: a value_info (updated in place when one exists) for every
// intermediate value of every graph whose type is known, and refined graph output types; with
// refine_inputs (after --dim or --input-shape) the main graph's input types too.
void annotate_model(onnx::ModelProto& model, const InferResult& result, bool refine_inputs = false);

// Why `value`'s type is not fully known: the chain of nodes back to where information was lost,
// one line per step, e.g.
//   y: float[?,?]
//     graph.node[4] "r" (Reshape): input 1 "shape" has no known values
//     shape: int64[2]
//       graph.node[3] (Concat): ...
// Returns lines without a trailing newline; an unknown name gives one line saying so.
std::vector<std::string> explain_value(const InferResult& result, const std::string& value);

}  // namespace onnxtool
