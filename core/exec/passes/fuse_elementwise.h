// SPDX-License-Identifier: Apache-2.0
// The executor's element-wise regions (core/registry/fusion.h, core/exec/elementwise_region.h):
// connected element-wise nodes whose outputs have one shape run as one node, one pass over
// memory. GELU written out (Div, Erf, Add, Mul, Mul), HardSwish written out (Add, Clip, Div,
// Mul), the scale-and-shift tails of a normalisation written out: five passes over a large
// tensor become one, and the values between the nodes stay in cache.
//
// A node takes part when its operator gives a step for it (or an epilogue), its output and
// every operand are float32, and shape inference knows the output's dims (symbols are fine). It
// joins the region of an operand's producer when its output has that region's dims and every
// other operand exists before the region's first node (so the region, placed there, reads only
// values made before it and nothing it makes comes back into it). Members' outputs that
// something outside reads are the region's outputs; the others never reach memory. Each step is
// the node's own arithmetic: the results keep their bits. Runs last, after the fusions into
// Conv and MatMul kernels, which take their activations first.
#pragma once

#include "core/passes/pass.h"

namespace onnxtool::exec_detail {

struct PlanContext;

class FuseElementwise final : public Pass {
 public:
  explicit FuseElementwise(PlanContext& ctx) : ctx_(ctx) {}
  static constexpr const char* kName = "fuse-elementwise";
  std::string name() const override { return kName; }
  PassReport run(ir::ModelGraph& model, const PassContext& pass_ctx) override;

 private:
  PlanContext& ctx_;
};

}  // namespace onnxtool::exec_detail
