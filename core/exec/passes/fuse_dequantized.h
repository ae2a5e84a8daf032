// SPDX-License-Identifier: Apache-2.0
// The executor's fusion of dequantized operands into an integer kernel (a Conv of a model
// quantized in QDQ form: DequantizeLinear before its X and its W): see core/registry/fusion.h.
//
// A node P whose inputs 0 and 1 are made by dequantizations D (their scales and zero points
// constants), when P's operator says its kernel can take those integers, reads the integers in
// place of the dequantized values and the scales and zero points as four extra inputs. A D that
// nothing else reads is gone. It runs before constant folding, which would otherwise turn the
// dequantization of a constant W into a float W and lose its integers. The integer sums are
// exact: the results change by the rounding of the float sums they replace.
#pragma once

#include "core/passes/pass.h"

namespace onnxtool::exec_detail {

struct PlanContext;

class FuseDequantized final : public Pass {
 public:
  explicit FuseDequantized(PlanContext& ctx) : ctx_(ctx) {}
  static constexpr const char* kName = "fuse-dequantized";
  std::string name() const override { return kName; }
  PassReport run(ir::ModelGraph& model, const PassContext& pass_ctx) override;

 private:
  PlanContext& ctx_;
};

}  // namespace onnxtool::exec_detail
