// SPDX-License-Identifier: Apache-2.0
// NegativeLogLikelihoodLoss: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_NegativeLogLikelihoodLoss(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(12)
      .attr_optional("ignore_index", AttrType::i)
      .attr("reduction", AttrType::s, "mean")
      .input("input", "T")
      .input("target", "Tind")
      .input_optional("weight", "T")
      .output("loss", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(13)
      .attr_optional("ignore_index", AttrType::i)
      .attr("reduction", AttrType::s, "mean")
      .input("input", "T", D::differentiable)
      .input("target", "Tind", D::non_differentiable)
      .input_optional("weight", "T", D::non_differentiable)
      .output("loss", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  op.since(22)
      .is_function({22})
      .attr_optional("ignore_index", AttrType::i)
      .attr("reduction", AttrType::s, "mean")
      .input("input", "T", D::differentiable)
      .input("target", "Tind", D::non_differentiable)
      .input_optional("weight", "T", D::non_differentiable)
      .output("loss", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
