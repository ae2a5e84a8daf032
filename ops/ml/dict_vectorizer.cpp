// SPDX-License-Identifier: Apache-2.0
// DictVectorizer: the ai.onnx.ml operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ml_DictVectorizer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("int64_vocabulary", AttrType::ints)
      .attr_optional("string_vocabulary", AttrType::strings)
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"map(string, int64)", "map(int64, string)", "map(int64, float)",
                         "map(int64, double)", "map(string, float)", "map(string, double)"})
      .constraint("T2", {"tensor(int64)", "tensor(float)", "tensor(double)", "tensor(string)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
