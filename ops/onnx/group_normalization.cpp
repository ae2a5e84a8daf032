// SPDX-License-Identifier: Apache-2.0
// GroupNormalization: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_GroupNormalization(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(18).deprecated();
  op.since(21)
      .is_function({21})
      .attr("epsilon", AttrType::f, 1e-05f)
      .attr_required("num_groups", AttrType::i)
      .attr("stash_type", AttrType::i, int64_t{1})
      .input("X", "T", D::differentiable)
      .input("scale", "T", D::differentiable)
      .input("bias", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
