// SPDX-License-Identifier: Apache-2.0
// DynamicQuantizeLinear: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_DynamicQuantizeLinear(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .is_function({11})
      .input("x", "T1")
      .output("y", "T2")
      .output("y_scale", "tensor(float)")
      .output("y_zero_point", "T2")
      .constraint("T1", {"tensor(float)"})
      .constraint("T2", {"tensor(uint8)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
