// SPDX-License-Identifier: Apache-2.0
// The executor's first pass: computes, once at load, every node whose result cannot change
// between runs, and replaces it with initializers holding its outputs.
//
// A node folds when it runs through a kernel, is deterministic (Trait::nondeterministic says
// otherwise), has no subgraph, and reads only constants: initializers (and sparse ones) of its
// graph or an enclosing one, outputs of nodes folded before it, and, when the pass is told so,
// main-graph inputs through their initializer defaults. A node whose kernel fails, or whose
// outputs are not all tensors (an initializer holds a tensor), stays: the same error then
// surfaces when it runs. Subgraphs are folded inside, seeing their enclosing constants.
#pragma once

#include "core/passes/pass.h"

namespace onnxtool::exec_detail {

struct PlanContext;

class FoldConstants final : public Pass {
 public:
  // ctx gives the model, registry, options, runner and inference results, and counts what is
  // folded in ctx.stats (folded_nodes, constant_bytes).
  explicit FoldConstants(PlanContext& ctx) : ctx_(ctx) {}
  static constexpr const char* kName = "fold-constants";
  std::string name() const override { return kName; }
  PassReport run(ir::ModelGraph& model, const PassContext& pass_ctx) override;

 private:
  PlanContext& ctx_;
};

}  // namespace onnxtool::exec_detail
