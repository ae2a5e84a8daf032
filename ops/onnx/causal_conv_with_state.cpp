// SPDX-License-Identifier: Apache-2.0
// CausalConvWithState: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_CausalConvWithState(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(27)
      .is_function({27})
      .attr("activation", AttrType::s, "none")
      .input("input", "T", D::differentiable)
      .input("weight", "T", D::differentiable)
      .input_optional("bias", "T", D::differentiable)
      .input_optional("past_state", "T", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .output("present_state", "T", D::non_differentiable)
      .constraint("T", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
