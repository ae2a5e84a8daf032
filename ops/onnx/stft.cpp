// SPDX-License-Identifier: Apache-2.0
// STFT: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_STFT(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(17)
      .attr("onesided", AttrType::i, int64_t{1})
      .input("signal", "T1", D::non_differentiable)
      .input("frame_step", "T2", D::non_differentiable)
      .input_optional("window", "T1", D::non_differentiable)
      .input_optional("frame_length", "T2", D::non_differentiable)
      .output("output", "T1", D::non_differentiable)
      .constraint("T1", {"tensor(float)", "tensor(float16)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("T2", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
