// SPDX-License-Identifier: Apache-2.0
// MeanVarianceNormalization: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_MeanVarianceNormalization(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .attr("axes", AttrType::ints, std::vector<int64_t>{0, 2, 3})
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .is_function({13, 18})
      .attr("axes", AttrType::ints, std::vector<int64_t>{0, 2, 3})
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
