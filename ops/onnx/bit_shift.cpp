// SPDX-License-Identifier: Apache-2.0
// BitShift: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_BitShift(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .attr_required("direction", AttrType::s)
      .input("X", "T", D::non_differentiable)
      .input("Y", "T", D::non_differentiable)
      .output("Z", "T", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
