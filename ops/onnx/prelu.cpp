// SPDX-License-Identifier: Apache-2.0
// PRelu: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_PRelu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .input("X", "T")
      .input("slope", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .input("X", "T")
      .input("slope", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .input("X", "T")
      .input("slope", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(9)
      .input("X", "T", D::differentiable)
      .input("slope", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(uint32)",
                        "tensor(uint64)", "tensor(int32)", "tensor(int64)"});
  op.since(16)
      .is_function({16})
      .input("X", "T", D::differentiable)
      .input("slope", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(uint32)", "tensor(uint64)", "tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
