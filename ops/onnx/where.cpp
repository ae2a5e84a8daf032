// SPDX-License-Identifier: Apache-2.0
// Where: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Where(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .input("condition", "B", D::non_differentiable)
      .input("X", "T", D::differentiable)
      .input("Y", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("B", {"tensor(bool)"})
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(16)
      .input("condition", "B", D::non_differentiable)
      .input("X", "T", D::differentiable)
      .input("Y", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("B", {"tensor(bool)"})
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
