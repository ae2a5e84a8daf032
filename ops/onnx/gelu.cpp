// SPDX-License-Identifier: Apache-2.0
// Gelu: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Gelu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(20)
      .is_function({20})
      .attr("approximate", AttrType::s, "none")
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
