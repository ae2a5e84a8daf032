// SPDX-License-Identifier: Apache-2.0
// Two sets of values (core/exec/value_dump.h) held against each other in the model's execution
// order: per value the errors, and the first value that diverges, with how its producing node's
// inputs compared, so that one sees whether the node or what it was given went wrong. B is the
// reference: relative errors are against B's elements.
#pragma once

#include <string>
#include <vector>

#include "core/exec/compare.h"
#include "core/exec/value_dump.h"

namespace onnx {
class ModelProto;
}  // namespace onnx

namespace onnxtool {

struct ValueDiff {
  std::string key;  // SetValue::key()
  std::string node, op;
  std::vector<std::string> inputs;  // the producing node's, when known
  Comparison cmp;                   // A as actual, B as expected
};

struct SetComparison {
  std::vector<ValueDiff> values;  // those in both sets, in execution order
  std::vector<std::string> only_a, only_b;
  std::vector<std::string> skipped;  // in both, but not compared (a dump's non-tensors)
  int first_divergent = -1;          // into values; -1 when none
  int divergent = 0;

  const ValueDiff* find(const std::string& key) const;
};

struct SetCompareOptions {
  Tolerance tolerance;
  // Gives the execution order (the main graph's nodes by their data) and each value's node;
  // without it, the order and nodes a dump lists, else A's order.
  const onnx::ModelProto* model = nullptr;
};

SetComparison compare_sets(const ValueSet& a, const ValueSet& b, const SetCompareOptions& o);

}  // namespace onnxtool
