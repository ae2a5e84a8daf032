// SPDX-License-Identifier: Apache-2.0
// The executor's choice of channels-last values (see core/registry/fusion.h): a value between a
// node P and its only reader Q is held with each position's channels together when P's kernel
// can write it so, Q's can read it so, and one of them gains from it (a depthwise convolution
// between two 1x1 convolutions, as in MobileNet's blocks: its vectors then run along the
// channels, with no transposes in or out). P and Q get an attribute each; nothing else changes
// and every element keeps its bits.
#pragma once

#include "core/passes/pass.h"

namespace onnxtool::exec_detail {

struct PlanContext;

class ChannelsLastValues final : public Pass {
 public:
  explicit ChannelsLastValues(PlanContext& ctx) : ctx_(ctx) {}
  static constexpr const char* kName = "channels-last";
  std::string name() const override { return kName; }
  PassReport run(ir::ModelGraph& model, const PassContext& pass_ctx) override;

 private:
  PlanContext& ctx_;
};

}  // namespace onnxtool::exec_detail
