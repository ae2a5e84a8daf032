// SPDX-License-Identifier: Apache-2.0
// RMSNormalization: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_RMSNormalization(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(23)
      .is_function({23})
      .attr("axis", AttrType::i, int64_t{-1})
      .attr("epsilon", AttrType::f, 1e-05f)
      .attr("stash_type", AttrType::i, int64_t{1})
      .input("X", "T")
      .input("scale", "V")
      .output("Y", "V")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("V", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
