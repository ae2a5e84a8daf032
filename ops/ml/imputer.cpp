// SPDX-License-Identifier: Apache-2.0
// Imputer: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_Imputer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("imputed_value_floats", AttrType::floats)
      .attr_optional("imputed_value_int64s", AttrType::ints)
      .attr("replaced_value_float", AttrType::f, 0.0f)
      .attr("replaced_value_int64", AttrType::i, int64_t{0})
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
