// SPDX-License-Identifier: Apache-2.0
// What an operator tells the executor's fusion passes about itself (core/exec/passes/), so that
// those passes rewrite a graph without naming an operator.
//
// Channel-affine folding: a node Q that computes y[:, c, ...] = scale[c] * x[:, c, ...] +
// shift[c] from its input 0 (inference-mode BatchNormalization, with constant statistics) folds
// into the node P producing x when P's output channel c is linear in P's constant weights (Conv):
// P's weights and bias are rewritten once, at planning, and Q disappears.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "core/types/tensor.h"

namespace onnxtool {

struct OpVersion;
class AttrView;

// y[:, c, ...] = scale[c] * x[:, c, ...] + shift[c], in double (the folding rounds once).
struct ChannelAffine {
  std::vector<double> scale, shift;
};

// A node as a fusion hook sees it: its attributes (with the schema's defaults), which inputs it
// lists and names, the values of those that are constants (nullptr for an input that is not, or
// is omitted; one entry per listed input), and whether it writes more than its first output.
struct FusionNode {
  const OpVersion& schema;
  const AttrView& attrs;
  std::vector<bool> input_named;
  std::vector<const Tensor*> constants;
  bool writes_other_outputs = false;
};

// Constants for some of a node's inputs, by input index (an index past the listed inputs adds
// the input, and the ones between are left omitted).
struct ReplacedInputs {
  std::vector<std::pair<std::size_t, Tensor>> inputs;
};

}  // namespace onnxtool
