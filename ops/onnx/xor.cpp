// SPDX-License-Identifier: Apache-2.0
// Xor: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Xor(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .output("C", "T1")
      .constraint("T", {"tensor(bool)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(7)
      .input("A", "T", D::non_differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T1", D::non_differentiable)
      .constraint("T", {"tensor(bool)"})
      .constraint("T1", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
