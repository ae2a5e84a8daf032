// SPDX-License-Identifier: Apache-2.0
// CastMap: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_CastMap(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("cast_to", AttrType::s, "TO_FLOAT")
      .attr("map_form", AttrType::s, "DENSE")
      .attr("max_map", AttrType::i, int64_t{1})
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"map(int64, string)", "map(int64, float)"})
      .constraint("T2", {"tensor(string)", "tensor(float)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
