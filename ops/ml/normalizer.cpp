// SPDX-License-Identifier: Apache-2.0
// Normalizer: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_Normalizer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("norm", AttrType::s, "MAX")
      .input("X", "T")
      .output("Y", "tensor(float)")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
