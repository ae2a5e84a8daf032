// SPDX-License-Identifier: Apache-2.0
// StringConcat: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_StringConcat(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(20)
      .input("X", "T", D::non_differentiable)
      .input("Y", "T", D::non_differentiable)
      .output("Z", "T", D::non_differentiable)
      .constraint("T", {"tensor(string)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
