// SPDX-License-Identifier: Apache-2.0
// DFT: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_DFT(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(17)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("inverse", AttrType::i, int64_t{0})
      .attr("onesided", AttrType::i, int64_t{0})
      .input("input", "T1", D::non_differentiable)
      .input_optional("dft_length", "T2", D::non_differentiable)
      .output("output", "T1")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T2", {"tensor(int32)", "tensor(int64)"});
  op.since(20)
      .attr("inverse", AttrType::i, int64_t{0})
      .attr("onesided", AttrType::i, int64_t{0})
      .input("input", "T1", D::non_differentiable)
      .input_optional("dft_length", "T2", D::non_differentiable)
      .input_optional("axis", "tensor(int64)", D::non_differentiable)
      .output("output", "T1")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
