// SPDX-License-Identifier: Apache-2.0
// Cutting a piece out of a model: the subgraph of the main graph that computes chosen values
// from other chosen values, as a model of its own (onnxtool extract).
//
// The piece holds the nodes the outputs depend on back to the given inputs, the initializers
// and sparse initializers those nodes read, the model-local functions they (and the functions
// they call) use, and the value_info of the values it keeps. Subgraphs (If, Loop, Scan bodies)
// come whole; what they read from the main graph counts as read by their node. The header
// (IR version, opsets, producer, metadata) stays; training information, which names the
// original graph, is dropped. Nodes keep their order, sorted by their data only when the
// original was not.
//
// Weights are moved, not copied: the source model is consumed. Externally stored tensors keep
// their references (the caller's save decides whether they stay, move or are embedded).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/model/model.h"

namespace onnxtool {

struct InferResult;

struct ExtractRequest {
  // The cut's inputs: values of the main graph the piece takes as graph inputs (graph inputs,
  // initializers or node outputs). Empty: the model's own inputs, those the outputs need.
  std::vector<std::string> inputs;
  // The values the piece computes, its graph outputs. Empty: the model's own outputs.
  std::vector<std::string> outputs;
};

struct ExtractSummary {
  std::size_t nodes = 0, nodes_before = 0;
  std::size_t initializers = 0, initializers_before = 0;
  uint64_t initializer_bytes = 0;  // of those kept, as stored (external ones included)
  std::size_t functions = 0, functions_before = 0;
  // The piece's interface, in order; inputs without those that have an initializer (listed
  // as inputs too, counted in initializer_inputs).
  std::vector<std::string> inputs, outputs;
  std::size_t initializer_inputs = 0;
  // Requested inputs no output depends on (kept as inputs all the same, as asked).
  std::vector<std::string> unused_inputs;
  bool reordered = false;  // the nodes were sorted by their data
};

// Replaces model's proto by the piece. `types` (shape inference of the whole model) types the
// values that become graph inputs and outputs where the model does not declare them.
// Throws Error(usage, rule extract.*) naming the value and the file: a name the main graph does
// not have, an input or output given twice, a value the outputs need that is neither computed in
// the piece nor given (a graph input left out of `inputs`), a value whose type nothing knows.
ExtractSummary extract_model(Model& model, const ExtractRequest& request, const InferResult& types);

}  // namespace onnxtool
