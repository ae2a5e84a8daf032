// SPDX-License-Identifier: Apache-2.0
#include "core/exec/fold.h"

#include "core/exec/passes/fold_constants.h"
#include "core/exec/planner.h"
#include "core/exec/thread_pool.h"
#include "core/ir/graph.h"
#include "core/registry/registry.h"

namespace onnxtool {

FoldReport fold_constants(const Model& model, ir::ModelGraph& graph, const FoldOptions& options) {
  const Registry& registry = options.registry ? *options.registry : Registry::standard();
  ThreadPool pool(1);
  exec_detail::Runner runner(pool, model.name);
  const SessionOptions session_options;
  SessionStats stats;
  exec_detail::PlanContext ctx{model,
                               registry,
                               session_options,
                               runner,
                               stats,
                               {},
                               {},
                               {},
                               0,
                               options.defaults_as_constants};
  ctx.inferred = options.inferred;
  ctx.functions = LocalFunctions(*model.proto);
  ctx.max_folded_bytes = options.max_folded_bytes;
  ctx.keep_dequantizations = options.keep_dequantizations;
  if (graph.graph()) exec_detail::order_by_data(ctx, *graph.graph());
  if (!ctx.problems.empty()) return {};  // a cycle: nothing has an order to fold in
  exec_detail::FoldConstants(ctx).run(graph, PassContext{&registry, options.inferred});
  return {stats.folded_nodes, stats.constant_bytes, stats.fold_too_large};
}

}  // namespace onnxtool
