// SPDX-License-Identifier: Apache-2.0
// Trilu: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Trilu(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(14)
      .attr("upper", AttrType::i, int64_t{1})
      .input("input", "T", D::differentiable)
      .input_optional("k", "tensor(int64)", D::non_differentiable)
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
