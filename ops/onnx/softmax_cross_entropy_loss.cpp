// SPDX-License-Identifier: Apache-2.0
// SoftmaxCrossEntropyLoss: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_SoftmaxCrossEntropyLoss(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(12)
      .attr_optional("ignore_index", AttrType::i)
      .attr("reduction", AttrType::s, "mean")
      .input("scores", "T")
      .input("labels", "Tind")
      .input_optional("weights", "T")
      .output("output", "T")
      .output_optional("log_prob", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(13)
      .is_function({13})
      .attr_optional("ignore_index", AttrType::i)
      .attr("reduction", AttrType::s, "mean")
      .input("scores", "T", D::differentiable)
      .input("labels", "Tind", D::non_differentiable)
      .input_optional("weights", "T", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .output_optional("log_prob", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
