// SPDX-License-Identifier: Apache-2.0
// AffineGrid: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_AffineGrid(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(20)
      .is_function({20})
      .attr("align_corners", AttrType::i, int64_t{0})
      .input("theta", "T1", D::non_differentiable)
      .input("size", "T2", D::non_differentiable)
      .output("grid", "T1", D::differentiable)
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
