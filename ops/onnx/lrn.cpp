// SPDX-License-Identifier: Apache-2.0
// LRN: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_LRN(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 0.0001f)
      .attr("beta", AttrType::f, 0.75f)
      .attr("bias", AttrType::f, 1.0f)
      .attr_required("size", AttrType::i)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .attr("alpha", AttrType::f, 0.0001f)
      .attr("beta", AttrType::f, 0.75f)
      .attr("bias", AttrType::f, 1.0f)
      .attr_required("size", AttrType::i)
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
