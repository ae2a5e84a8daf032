// SPDX-License-Identifier: Apache-2.0
// The executor's fusion of a residual Add into the kernel of the node that makes one of its
// summands (a Conv before the Add of a ResNet block): see core/registry/fusion.h.
//
// A node Q with two summands a and b of one shape and element type folds into the producer P
// of a (or of b) when Q's operator says it is y = a + b, P's operator can add a tensor to its
// output, P has no epilogue yet, and nothing but Q reads P's output. P then reads the other
// summand as an extra input and writes Q's output; Q is gone. P adds the summand to each block
// of its output while that is in cache, the one rounding the Add did, so the results keep their
// bits. P may now run later than it did (where Q was), when the other summand is made after it.
#pragma once

#include "core/passes/pass.h"

namespace onnxtool::exec_detail {

struct PlanContext;

class FuseResidual final : public Pass {
 public:
  explicit FuseResidual(PlanContext& ctx) : ctx_(ctx) {}
  static constexpr const char* kName = "fuse-residual";
  std::string name() const override { return kName; }
  PassReport run(ir::ModelGraph& model, const PassContext& pass_ctx) override;

 private:
  PlanContext& ctx_;
};

}  // namespace onnxtool::exec_detail
