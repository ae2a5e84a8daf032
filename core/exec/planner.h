// SPDX-License-Identifier: Apache-2.0
// Planning (private to core/exec): turns the model's main graph, its subgraphs and the function
// bodies its nodes call into GraphPlans, folding constant subgraphs on the way.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "core/diag/diagnostic.h"
#include "core/exec/plan.h"
#include "core/exec/runner.h"
#include "core/exec/session.h"

namespace onnx {
class FunctionProto;
}

namespace onnxtool {

struct Model;
class Registry;
struct InferResult;

namespace exec_detail {

struct PlanContext {
  const Model& model;
  const Registry& registry;
  const SessionOptions& options;
  const Runner& runner;  // runs the kernels of folded nodes
  SessionStats& stats;
  std::vector<Diagnostic> problems;
  // Model-local functions by (domain, name, overload).
  std::map<std::tuple<std::string, std::string, std::string>, const onnx::FunctionProto*> functions;
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

  void problem(const std::string& rule, const std::string& location, const std::string& message);
};

// Plans the main graph. Every problem found is collected; throws PlanError if there are any.
std::unique_ptr<GraphPlan> plan_model(PlanContext& ctx);

}  // namespace exec_detail
}  // namespace onnxtool
