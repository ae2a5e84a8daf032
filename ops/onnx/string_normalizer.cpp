// SPDX-License-Identifier: Apache-2.0
// StringNormalizer: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_StringNormalizer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("case_change_action", AttrType::s, "NONE")
      .attr("is_case_sensitive", AttrType::i, int64_t{0})
      .attr_optional("locale", AttrType::s)
      .attr_optional("stopwords", AttrType::strings)
      .input("X", "tensor(string)")
      .output("Y", "tensor(string)");
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
