// SPDX-License-Identifier: Apache-2.0
// Col2Im: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Col2Im(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(18)
      .attr_optional("dilations", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("input", "T", D::differentiable)
      .input("image_shape", "tensor(int64)", D::non_differentiable)
      .input("block_shape", "tensor(int64)", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
