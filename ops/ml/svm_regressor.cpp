// SPDX-License-Identifier: Apache-2.0
// SVMRegressor: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_SVMRegressor(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("coefficients", AttrType::floats)
      .attr_optional("kernel_params", AttrType::floats)
      .attr("kernel_type", AttrType::s, "LINEAR")
      .attr("n_supports", AttrType::i, int64_t{0})
      .attr("one_class", AttrType::i, int64_t{0})
      .attr("post_transform", AttrType::s, "NONE")
      .attr_optional("rho", AttrType::floats)
      .attr_optional("support_vectors", AttrType::floats)
      .input("X", "T")
      .output("Y", "tensor(float)")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
