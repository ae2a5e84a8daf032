// SPDX-License-Identifier: Apache-2.0
// MatMulInteger: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_MatMulInteger(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .input("A", "T1", D::non_differentiable)
      .input("B", "T2", D::non_differentiable)
      .input_optional("a_zero_point", "T1", D::non_differentiable)
      .input_optional("b_zero_point", "T2", D::non_differentiable)
      .output("Y", "T3", D::non_differentiable)
      .constraint("T1", {"tensor(int8)", "tensor(uint8)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)"})
      .constraint("T3", {"tensor(int32)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
