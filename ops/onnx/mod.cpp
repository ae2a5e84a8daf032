// SPDX-License-Identifier: Apache-2.0
// Mod: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Mod(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("fmod", AttrType::i, int64_t{0})
      .input("A", "T")
      .input("B", "T")
      .output("C", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .attr("fmod", AttrType::i, int64_t{0})
      .input("A", "T", D::differentiable)
      .input("B", "T", D::non_differentiable)
      .output("C", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
