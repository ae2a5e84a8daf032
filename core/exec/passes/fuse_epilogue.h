// SPDX-License-Identifier: Apache-2.0
// The executor's fusion of an element-wise activation into the kernel of the node before it
// (Relu, LeakyRelu or a constant Clip after a Conv): see core/registry/fusion.h.
//
// A node Q folds into the producer P of its input 0 when Q's operator gives an epilogue for it,
// P's operator applies epilogues (and has none yet), and nothing but Q reads P's output. P then
// writes Q's output, its kernel applying the epilogue to each block of output while it is in
// cache; Q is gone. The epilogue is Q's own arithmetic: the results have the same bits.
#pragma once

#include "core/passes/pass.h"

namespace onnxtool::exec_detail {

struct PlanContext;

class FuseEpilogue final : public Pass {
 public:
  explicit FuseEpilogue(PlanContext& ctx) : ctx_(ctx) {}
  static constexpr const char* kName = "fuse-epilogue";
  std::string name() const override { return kName; }
  PassReport run(ir::ModelGraph& model, const PassContext& pass_ctx) override;

 private:
  PlanContext& ctx_;
};

}  // namespace onnxtool::exec_detail
