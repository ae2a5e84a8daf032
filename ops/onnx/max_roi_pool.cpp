// SPDX-License-Identifier: Apache-2.0
// MaxRoiPool: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_MaxRoiPool(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("pooled_shape", AttrType::ints)
      .attr("spatial_scale", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .input("rois", "T", D::non_differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr_required("pooled_shape", AttrType::ints)
      .attr("spatial_scale", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .input("rois", "T", D::non_differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
