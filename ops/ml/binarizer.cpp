// SPDX-License-Identifier: Apache-2.0
// Binarizer: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_Binarizer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("threshold", AttrType::f, 0.0f)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
