// SPDX-License-Identifier: Apache-2.0
// Adagrad: the ai.onnx.preview.training operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_training_Adagrad(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("decay_factor", AttrType::f, 0.0f)
      .attr("epsilon", AttrType::f, 0.0f)
      .attr("norm_coefficient", AttrType::f, 0.0f)
      .input("R", "T1")
      .input("T", "T2")
      .input_variadic("inputs", "T3", 1, false)
      .output_variadic("outputs", "T3", 1, false)
      .constraint("T1", {"tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"})
      .constraint("T3", {"tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
