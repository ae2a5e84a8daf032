// SPDX-License-Identifier: Apache-2.0
// LinearClassifier: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_LinearClassifier(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("classlabels_ints", AttrType::ints)
      .attr_optional("classlabels_strings", AttrType::strings)
      .attr_required("coefficients", AttrType::floats)
      .attr_optional("intercepts", AttrType::floats)
      .attr("multi_class", AttrType::i, int64_t{0})
      .attr("post_transform", AttrType::s, "NONE")
      .input("X", "T1")
      .output("Y", "T2")
      .output("Z", "tensor(float)")
      .constraint("T1", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
