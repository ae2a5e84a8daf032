// SPDX-License-Identifier: Apache-2.0
// Planning (private to core/exec): turns the model's main graph (as the executor's passes left
// it, core/exec/passes/), its subgraphs and the function bodies its nodes call into GraphPlans.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/exec/plan.h"
#include "core/exec/runner.h"
#include "core/exec/session.h"
#include "core/registry/binding.h"

namespace onnx {
class FunctionProto;
class SparseTensorProto;
}  // namespace onnx

namespace onnxtool {

struct Model;
class Registry;
struct InferResult;
struct GraphResult;

namespace ir {
class Graph;
class ModelGraph;
class Node;
struct Initializer;
}  // namespace ir

namespace exec_detail {

struct PlanContext {
  const Model& model;
  const Registry& registry;
  const SessionOptions& options;
  const Runner& runner;  // runs the kernels of folded nodes
  SessionStats& stats;
  std::vector<Diagnostic> problems;
  LocalFunctions functions;  // the model's
  // Parsed spec function bodies, by operator version.
  std::map<const OpVersion*, std::shared_ptr<const onnx::FunctionProto>> parsed_bodies;
  int function_depth = 0;
  // Main-graph inputs that have an initializer take its value as a constant, so that what is
  // computed from such defaults alone (IR < 4 models list every weight, and the shapes light
  // models build weights from, as inputs) folds at load. A run that feeds one of these inputs
  // needs the plan built without this.
  bool defaults_as_constants = false;
  // What shape inference found for the model, for the kernels' prepare steps; nullptr: nothing.
  const InferResult* inferred = nullptr;
  int threads = 1;  // the runs' worker threads, for prepare steps
  // Folding leaves a node whose outputs would take more than this and more than its inputs
  // (simplify's --max-folded-bytes: an Expand of a constant must not blow a model up). The
  // executor folds whatever it can: its constants live in memory either way.
  uint64_t max_folded_bytes = UINT64_MAX;
  // Folding leaves dequantizations (OpVersion::dequantize) as they are: a model written back
  // keeps its QDQ form, which int8 runtimes read (a float weight is a different model to them).
  bool keep_dequantizations = false;
  // Values a pass made float32 under a new name (widen-float16), by the graph holding them:
  // the narrower value inference knew, whose dims they keep.
  std::map<std::pair<const ir::Graph*, std::string>, std::string> widened{};
  // Findings that do not stop planning (exec.not-topological, exec.unknown-attribute).
  std::vector<Diagnostic> warnings{};
  // Attributes the bound operator version does not define (ignored by its kernel), by
  // (operator version, attribute): how many nodes, and the first one's location.
  std::map<std::pair<std::string, std::string>, std::pair<int, std::string>> unknown_attributes{};

  // The element-wise regions fuse-elementwise made, by their nodes: the planner binds each to
  // region_version() with its program (core/exec/elementwise_region.h).
  // (The program travels as the node's prepared state.)
  std::map<const ir::Node*, std::shared_ptr<const KernelState>> elementwise_regions{};

  void problem(const std::string& rule, const std::string& location, const std::string& message);
};

// Puts the nodes of `graph` and of its subgraphs in the order of their data, keeping the stored
// order where it is valid. IR.md requires producers first, but real exports do not always keep
// it: one warning exec.not-topological for the model, and a problem exec.cycle naming the nodes
// of a cycle where there is one.
void order_by_data(PlanContext& ctx, ir::Graph& graph);

// Removes the attributes of `graph`'s nodes (and its subgraphs') that a model spells with the
// names the executor's passes give theirs (kExecutorAttributePrefix): the kernels would take
// them for a rewrite that never happened (a channels-last input, a residual). One warning
// exec.reserved-attribute.
void drop_reserved_attributes(PlanContext& ctx, ir::Graph& graph);

// Plans the main graph of `model` (a view of ctx.model that the passes may have rewritten).
// Every problem found is collected; throws PlanError if there are any.
std::unique_ptr<GraphPlan> plan_model(PlanContext& ctx, const ir::ModelGraph& model);

// ---- what planning and the executor's passes share --------------------------------------------

// Whether a node resolved as `r` runs through its kernel (rather than a function body).
bool runs_kernel(const PlanContext& ctx, const OpResolution& r);
// Binds pn to the kernel of r.schema: node, opset, schema, attributes, allowed input types.
void bind_kernel(PlanNode& pn, const onnx::NodeProto& node, const OpResolution& r);
// Runs the operator's prepare step, if any, with the constant inputs given (nullptr: not
// constant) and what inference found for the node's graph (may be nullptr; `widened` maps the
// values a pass made float32 to the ones inference knew, see PlanContext::widened).
void prepare_node(PlanNode& pn, const std::vector<const Value*>& constants,
                  const GraphResult* inferred, int threads,
                  const std::map<std::string, std::string>* widened = nullptr);
// A graph's initializer, or sparse initializer made dense, as the value every run sees.
Value initializer_value(const Model& model, const ir::Initializer& init, const std::string& loc);
Value sparse_initializer_value(const Model& model, const onnx::SparseTensorProto& sp,
                               const std::string& loc);

}  // namespace exec_detail
}  // namespace onnxtool
