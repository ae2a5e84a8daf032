// SPDX-License-Identifier: Apache-2.0
// RegexFullMatch: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_RegexFullMatch(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(20)
      .attr_optional("pattern", AttrType::s)
      .input("X", "T1", D::non_differentiable)
      .output("Y", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(string)"})
      .constraint("T2", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
