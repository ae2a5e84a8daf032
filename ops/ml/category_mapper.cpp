// SPDX-License-Identifier: Apache-2.0
// CategoryMapper: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_CategoryMapper(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("cats_int64s", AttrType::ints)
      .attr_optional("cats_strings", AttrType::strings)
      .attr("default_int64", AttrType::i, int64_t{-1})
      .attr("default_string", AttrType::s, "_Unused")
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"tensor(string)", "tensor(int64)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
