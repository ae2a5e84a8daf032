// SPDX-License-Identifier: Apache-2.0
// An element-wise region: a connected set of element-wise nodes the fuse-elementwise pass
// (core/exec/passes/fuse_elementwise.h) replaced by one node, which runs every node's step
// (core/registry/fusion.h) on one block of the output at a time, so that the values between
// the nodes never leave the cache: one pass over memory instead of one per node.
//
// The node reads the region's inputs (float32 tensors that broadcast, as numpy does, to the
// shape of every member's output) and writes the members' outputs that something outside the
// region reads. It is the executor's own node: the pass makes it and the planner binds it to
// region_version() with its program as the prepared state; no model can name it.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "core/registry/fusion.h"
#include "core/registry/schema.h"

namespace onnxtool::exec_detail {

struct ElementwiseProgram {
  struct Step {
    ElementwiseStep::Fn fn = nullptr;
    // Per operand: >= 0, the region's input of that index; < 0, the result of step ~value
    // (an earlier step).
    std::vector<int> operands;
    std::vector<float> params;
    int output = -1;  // the region's output this result is, -1: none (kept in cache only)
  };
  std::vector<Step> steps;  // in the order of the data
  std::size_t num_inputs = 0, num_outputs = 0;
};

// The program as the prepared state of a region node (what region_version()'s kernel reads).
std::shared_ptr<const KernelState> region_state(ElementwiseProgram program);

// The operator version region nodes run as (domain kExecutorDomain, type kRegionOpType).
const OpVersion& region_version();
inline constexpr const char* kExecutorDomain = "onnxtool";
inline constexpr const char* kRegionOpType = "ElementwiseRegion";

// A step that applies an epilogue (its kind, lo, hi, alpha as params) to operand 0: how nodes
// that give an epilogue take part in a region.
void epilogue_step(const float* const* operands, float* out, int64_t n, const float* params);
std::vector<float> epilogue_params(const kernels::Epilogue& e);

}  // namespace onnxtool::exec_detail
