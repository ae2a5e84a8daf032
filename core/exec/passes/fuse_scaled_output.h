// SPDX-License-Identifier: Apache-2.0
// The executor's fusion of the float finish of an integer product into its kernel (a
// dynamically quantized model's ConvInteger, then Cast to float, Mul by the scale, Add of the
// bias): see core/registry/fusion.h.
//
// Three single-node steps, each folding the node it visits into the producer P of its input:
// the conversion of P's int32 sums to float32, then a product by one value, then a per-channel
// constant shift. P then writes float32 and reads the scale and the bias as extra inputs; the
// residual Add and the activation after them can then fold into P too. Each step is the node's
// own float arithmetic in the nodes' order: the results keep their bits.
#pragma once

#include "core/passes/pass.h"

namespace onnxtool::exec_detail {

struct PlanContext;

class FuseScaledOutput final : public Pass {
 public:
  explicit FuseScaledOutput(PlanContext& ctx) : ctx_(ctx) {}
  static constexpr const char* kName = "fuse-scaled-output";
  std::string name() const override { return kName; }
  PassReport run(ir::ModelGraph& model, const PassContext& pass_ctx) override;

 private:
  PlanContext& ctx_;
};

}  // namespace onnxtool::exec_detail
