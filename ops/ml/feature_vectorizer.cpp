// SPDX-License-Identifier: Apache-2.0
// FeatureVectorizer: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_FeatureVectorizer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("inputdimensions", AttrType::ints)
      .input_variadic("X", "T1", 1)
      .output("Y", "tensor(float)")
      .constraint("T1", {"tensor(int32)", "tensor(int64)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
