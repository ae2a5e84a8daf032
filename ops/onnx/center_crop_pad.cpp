// SPDX-License-Identifier: Apache-2.0
// CenterCropPad: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_CenterCropPad(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(18)
      .is_function({18})
      .attr_optional("axes", AttrType::ints)
      .input("input_data", "T", D::differentiable)
      .input("shape", "Tind", D::non_differentiable)
      .output("output_data", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("Tind", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
