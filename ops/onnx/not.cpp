// SPDX-License-Identifier: Apache-2.0
// Not: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Not(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("X", "T", D::non_differentiable)
      .output("Y", "T", D::non_differentiable)
      .constraint("T", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
