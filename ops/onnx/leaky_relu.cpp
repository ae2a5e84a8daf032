// SPDX-License-Identifier: Apache-2.0
// LeakyRelu: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_LeakyRelu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 0.01f)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("alpha", AttrType::f, 0.01f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(16)
      .is_function({16})
      .attr("alpha", AttrType::f, 0.01f)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
