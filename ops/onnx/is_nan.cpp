// SPDX-License-Identifier: Apache-2.0
// IsNaN: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_IsNaN(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(bool)"});
  op.since(13)
      .input("X", "T1", D::non_differentiable)
      .output("Y", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T2", {"tensor(bool)"});
  op.since(20)
      .input("X", "T1", D::non_differentiable)
      .output("Y", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)"})
      .constraint("T2", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
