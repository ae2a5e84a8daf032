// SPDX-License-Identifier: Apache-2.0
// Constant folding for tools that write the model back (simplify): the executor's own
// fold-constants pass (core/exec/passes/fold_constants.h), run by itself on an editable graph,
// with the executor's kernels, so what is folded is computed exactly as a run would compute it.
#pragma once

#include <cstdint>

#include "core/model/model.h"

namespace onnxtool {

struct InferResult;
class Registry;

namespace ir {
class ModelGraph;
}

struct FoldOptions {
  // A node whose outputs would take more than this and more than its inputs stays a node.
  uint64_t max_folded_bytes = UINT64_MAX;
  const InferResult* inferred = nullptr;  // shape inference of `model`, for the prepare steps
  const Registry* registry = nullptr;     // nullptr: Registry::standard()
  // Main-graph inputs with an initializer count as constants (before IR 4 every initializer
  // had to be listed as an input: such a model's weights are inputs).
  bool defaults_as_constants = false;
  // Dequantizations stay nodes (PlanContext::keep_dequantizations).
  bool keep_dequantizations = true;
};

struct FoldReport {
  int64_t nodes = 0;      // folded into initializers
  int64_t bytes = 0;      // the initializers they became
  int64_t too_large = 0;  // left as they were by max_folded_bytes
};

// Folds every node of `graph` (and of its subgraphs) that reads only constants into
// initializers. `model` is the model the graph was built from: its external data is where the
// graph's initializers are read from.
FoldReport fold_constants(const Model& model, ir::ModelGraph& graph, const FoldOptions& options);

}  // namespace onnxtool
