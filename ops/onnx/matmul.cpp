// SPDX-License-Identifier: Apache-2.0
// MatMul: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_MatMul(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("A", "T")
      .input("B", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(9)
      .input("A", "T")
      .input("B", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int32)", "tensor(int64)"});
  op.since(13)
      .input("A", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int32)", "tensor(int64)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
