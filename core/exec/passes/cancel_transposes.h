// SPDX-License-Identifier: Apache-2.0
// The executor's cancelling of transposes (core/registry/schema.h: PermutesFn): a node that
// permutes the axes of what another permutation made reads that one's input instead, with the
// two permutations composed; where they compose to no change at all (NHWC -> NCHW -> NHWC
// pairs of converted TensorFlow models), its readers read that input and both nodes go. A
// permutation that changes nothing (perm = [0, 1, 2]) goes too. The first node stays while
// anything else reads it. Only data moves, so the results keep their bits.
#pragma once

#include "core/passes/pass.h"

namespace onnxtool::exec_detail {

struct PlanContext;

class CancelTransposes final : public Pass {
 public:
  explicit CancelTransposes(PlanContext& ctx) : ctx_(ctx) {}
  static constexpr const char* kName = "cancel-transposes";
  std::string name() const override { return kName; }
  PassReport run(ir::ModelGraph& model, const PassContext& pass_ctx) override;

 private:
  PlanContext& ctx_;
};

}  // namespace onnxtool::exec_detail
