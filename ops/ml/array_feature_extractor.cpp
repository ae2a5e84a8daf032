// SPDX-License-Identifier: Apache-2.0
// ArrayFeatureExtractor: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_ArrayFeatureExtractor(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("X", "T")
      .input("Y", "tensor(int64)")
      .output("Z", "T")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)",
                        "tensor(string)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
