// SPDX-License-Identifier: Apache-2.0
// Pow: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_Pow(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .attr("broadcast", AttrType::i, int64_t{0})
      .input("X", "T")
      .input("Y", "T")
      .output("Z", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(7)
      .input("X", "T")
      .input("Y", "T")
      .output("Z", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(12)
      .input("X", "T")
      .input("Y", "T1")
      .output("Z", "T")
      .constraint("T", {"tensor(int32)", "tensor(int64)", "tensor(float16)", "tensor(float)",
                        "tensor(double)"})
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .input("X", "T", D::differentiable)
      .input("Y", "T1", D::differentiable)
      .output("Z", "T", D::differentiable)
      .constraint("T", {"tensor(int32)", "tensor(int64)", "tensor(float16)", "tensor(float)",
                        "tensor(double)", "tensor(bfloat16)"})
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(15)
      .input("X", "T", D::differentiable)
      .input("Y", "T1", D::differentiable)
      .output("Z", "T", D::differentiable)
      .constraint("T", {"tensor(int32)", "tensor(int64)", "tensor(float16)", "tensor(float)",
                        "tensor(double)", "tensor(bfloat16)"})
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
