// SPDX-License-Identifier: Apache-2.0
// ZipMap: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_ZipMap(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("classlabels_int64s", AttrType::ints)
      .attr_optional("classlabels_strings", AttrType::strings)
      .input("X", "tensor(float)")
      .output("Z", "T")
      .constraint("T", {"seq(map(string, float))", "seq(map(int64, float))"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
