// SPDX-License-Identifier: Apache-2.0
// Shrink: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Shrink(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .is_function({18})
      .attr("bias", AttrType::f, 0.0f)
      .attr("lambd", AttrType::f, 0.5f)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
