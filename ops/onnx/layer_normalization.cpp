// SPDX-License-Identifier: Apache-2.0
// LayerNormalization: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_LayerNormalization(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(17)
      .is_function({17, 18})
      .attr("axis", AttrType::i, int64_t{-1})
      .attr("epsilon", AttrType::f, 1e-05f)
      .attr("stash_type", AttrType::i, int64_t{1})
      .input("X", "T")
      .input("Scale", "T")
      .input_optional("B", "T")
      .output("Y", "T")
      .output_optional("Mean", "U")
      .output_optional("InvStdDev", "U")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("U", {"tensor(float)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
