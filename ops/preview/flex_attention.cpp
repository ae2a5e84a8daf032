// SPDX-License-Identifier: Apache-2.0
// FlexAttention: the ai.onnx.preview operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_preview_FlexAttention(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .experimental()
      .is_function({1})
      .attr_optional("prob_mod", AttrType::g)
      .attr_optional("scale", AttrType::f)
      .attr_optional("score_mod", AttrType::g)
      .attr_optional("softmax_precision", AttrType::i)
      .input("Q", "T1")
      .input("K", "T1")
      .input("V", "T1")
      .output("Y", "T1")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
