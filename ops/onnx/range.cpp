// SPDX-License-Identifier: Apache-2.0
// Range: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Range(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .input("start", "T")
      .input("limit", "T")
      .input("delta", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int16)", "tensor(int32)",
                        "tensor(int64)"});
  op.since(27)
      .is_function({27})
      .attr("stash_type", AttrType::i, int64_t{1})
      .input("start", "T")
      .input("limit", "T")
      .input("delta", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int16)", "tensor(int32)",
                        "tensor(int64)", "tensor(float16)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
