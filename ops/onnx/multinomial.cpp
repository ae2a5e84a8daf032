// SPDX-License-Identifier: Apache-2.0
// Multinomial: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Multinomial(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(7)
      .attr("dtype", AttrType::i, int64_t{6})
      .attr("sample_size", AttrType::i, int64_t{1})
      .attr_optional("seed", AttrType::f)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int32)", "tensor(int64)"});
  op.since(22)
      .attr("dtype", AttrType::i, int64_t{6})
      .attr("sample_size", AttrType::i, int64_t{1})
      .attr_optional("seed", AttrType::f)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
