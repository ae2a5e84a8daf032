// SPDX-License-Identifier: Apache-2.0
// MaxUnpool: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_MaxUnpool(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T1")
      .input("I", "T2")
      .input_optional("output_shape", "T2")
      .output("output", "T1")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  op.since(11)
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T1", D::differentiable)
      .input("I", "T2", D::non_differentiable)
      .input_optional("output_shape", "T2", D::non_differentiable)
      .output("output", "T1", D::differentiable)
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  op.since(22)
      .attr_required("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T1", D::differentiable)
      .input("I", "T2", D::non_differentiable)
      .input_optional("output_shape", "T2", D::non_differentiable)
      .output("output", "T1", D::differentiable)
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
