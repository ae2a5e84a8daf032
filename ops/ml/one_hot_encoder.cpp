// SPDX-License-Identifier: Apache-2.0
// OneHotEncoder: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_OneHotEncoder(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("cats_int64s", AttrType::ints)
      .attr_optional("cats_strings", AttrType::strings)
      .attr("zeros", AttrType::i, int64_t{1})
      .input("X", "T")
      .output("Y", "tensor(float)")
      .constraint("T", {"tensor(string)", "tensor(int64)", "tensor(int32)", "tensor(float)",
                        "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
