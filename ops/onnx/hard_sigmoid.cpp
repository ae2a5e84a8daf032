// SPDX-License-Identifier: Apache-2.0
// HardSigmoid: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_HardSigmoid(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 0.2f)
      .attr("beta", AttrType::f, 0.5f)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("alpha", AttrType::f, 0.2f)
      .attr("beta", AttrType::f, 0.5f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .is_function({18})
      .attr("alpha", AttrType::f, 0.2f)
      .attr("beta", AttrType::f, 0.5f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
