// SPDX-License-Identifier: Apache-2.0
// BitwiseOr: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_BitwiseOr(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(18)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
