// SPDX-License-Identifier: Apache-2.0
// SVMClassifier: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_SVMClassifier(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("classlabels_ints", AttrType::ints)
      .attr_optional("classlabels_strings", AttrType::strings)
      .attr_optional("coefficients", AttrType::floats)
      .attr_optional("kernel_params", AttrType::floats)
      .attr("kernel_type", AttrType::s, "LINEAR")
      .attr("post_transform", AttrType::s, "NONE")
      .attr_optional("prob_a", AttrType::floats)
      .attr_optional("prob_b", AttrType::floats)
      .attr_optional("rho", AttrType::floats)
      .attr_optional("support_vectors", AttrType::floats)
      .attr_optional("vectors_per_class", AttrType::ints)
      .input("X", "T1")
      .output("Y", "T2")
      .output("Z", "tensor(float)")
      .constraint("T1", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
