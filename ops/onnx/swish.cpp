// SPDX-License-Identifier: Apache-2.0
// Swish: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Swish(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(24)
      .is_function({24})
      .attr("alpha", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(bfloat16)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
