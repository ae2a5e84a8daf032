// SPDX-License-Identifier: Apache-2.0
// StringSplit: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_StringSplit(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(20)
      .attr_optional("delimiter", AttrType::s)
      .attr_optional("maxsplit", AttrType::i)
      .input("X", "T1", D::non_differentiable)
      .output("Y", "T2", D::non_differentiable)
      .output("Z", "T3", D::non_differentiable)
      .constraint("T1", {"tensor(string)"})
      .constraint("T2", {"tensor(string)"})
      .constraint("T3", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
