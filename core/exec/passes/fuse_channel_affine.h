// SPDX-License-Identifier: Apache-2.0
// The executor's fusion of per-channel affine nodes into the weights of the node before them
// (BatchNormalization after Conv, in inference): see core/registry/fusion.h.
//
// A node Q folds into the producer P of its input 0 when Q's operator gives a ChannelAffine
// for it (its parameters constant), P's operator absorbs it into P's constant weights, and
// nothing but Q reads P's output. P then reads new initializers (its weights rewritten once,
// rounded to their type once) and writes Q's output; Q is gone, and so are the constants only
// they read. Results change by float rounding only; `run --no-fuse` (or --disable-pass
// fuse-channel-affine) leaves the graph as it is.
#pragma once

#include "core/passes/pass.h"

namespace onnxtool::exec_detail {

struct PlanContext;

class FuseChannelAffine final : public Pass {
 public:
  explicit FuseChannelAffine(PlanContext& ctx) : ctx_(ctx) {}
  static constexpr const char* kName = "fuse-channel-affine";
  std::string name() const override { return kName; }
  PassReport run(ir::ModelGraph& model, const PassContext& pass_ctx) override;

 private:
  PlanContext& ctx_;
};

}  // namespace onnxtool::exec_detail
