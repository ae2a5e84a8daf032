// SPDX-License-Identifier: Apache-2.0
// SwiGLU: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_SwiGLU(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(28)
      .is_function({28})
      .attr("alpha", AttrType::f, 1.0f)
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
