// SPDX-License-Identifier: Apache-2.0
// The executor's fusion of a per-channel scale, shift and activation into the kernel of the node
// that reads it (a BatchNormalization and its Relu before a 1x1 Conv, as in DenseNet's
// pre-activation layers): see core/registry/fusion.h.
//
// A node P folds into the node Q reading its output when P's operator describes itself as
// act(scale[c] * x + shift[c]) of its input 0, Q's operator applies such a transform to its
// input 0 as it reads it (and Q has none yet), and nothing but Q reads P's output. Q then reads
// P's input and carries the transform; P is gone, and with it a pass over its output. The
// transform is P's own arithmetic: the results have the same bits.
#pragma once

#include "core/passes/pass.h"

namespace onnxtool::exec_detail {

struct PlanContext;

class FuseInputTransform final : public Pass {
 public:
  explicit FuseInputTransform(PlanContext& ctx) : ctx_(ctx) {}
  static constexpr const char* kName = "fuse-input-transform";
  std::string name() const override { return kName; }
  PassReport run(ir::ModelGraph& model, const PassContext& pass_ctx) override;

 private:
  PlanContext& ctx_;
};

}  // namespace onnxtool::exec_detail
