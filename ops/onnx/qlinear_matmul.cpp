// SPDX-License-Identifier: Apache-2.0
// QLinearMatMul: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_QLinearMatMul(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .input("a", "T1", D::non_differentiable)
      .input("a_scale", "tensor(float)", D::non_differentiable)
      .input("a_zero_point", "T1", D::non_differentiable)
      .input("b", "T2", D::non_differentiable)
      .input("b_scale", "tensor(float)", D::non_differentiable)
      .input("b_zero_point", "T2", D::non_differentiable)
      .input("y_scale", "tensor(float)", D::non_differentiable)
      .input("y_zero_point", "T3", D::non_differentiable)
      .output("y", "T3", D::non_differentiable)
      .constraint("T1", {"tensor(int8)", "tensor(uint8)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)"})
      .constraint("T3", {"tensor(int8)", "tensor(uint8)"});
  op.since(21)
      .input("a", "T1", D::non_differentiable)
      .input("a_scale", "TS", D::non_differentiable)
      .input("a_zero_point", "T1", D::non_differentiable)
      .input("b", "T2", D::non_differentiable)
      .input("b_scale", "TS", D::non_differentiable)
      .input("b_zero_point", "T2", D::non_differentiable)
      .input("y_scale", "TS", D::non_differentiable)
      .input("y_zero_point", "T3", D::non_differentiable)
      .output("y", "T3", D::non_differentiable)
      .constraint("TS", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"})
      .constraint("T1", {"tensor(int8)", "tensor(uint8)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"})
      .constraint("T3", {"tensor(int8)", "tensor(uint8)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
