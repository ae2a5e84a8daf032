// SPDX-License-Identifier: Apache-2.0
// TopK: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_TopK(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("axis", AttrType::i, int64_t{-1})
      .attr_required("k", AttrType::i)
      .input("X", "T")
      .output("Values", "T")
      .output("Indices", "I")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("I", {"tensor(int64)"});
  op.since(10)
      .attr("axis", AttrType::i, int64_t{-1})
      .input("X", "T")
      .input("K", "tensor(int64)")
      .output("Values", "T")
      .output("Indices", "I")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("I", {"tensor(int64)"});
  op.since(11)
      .attr("axis", AttrType::i, int64_t{-1})
      .attr("largest", AttrType::i, int64_t{1})
      .attr("sorted", AttrType::i, int64_t{1})
      .input("X", "T", D::differentiable)
      .input("K", "tensor(int64)", D::non_differentiable)
      .output("Values", "T", D::differentiable)
      .output("Indices", "I", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("I", {"tensor(int64)"});
  op.since(24)
      .attr("axis", AttrType::i, int64_t{-1})
      .attr("largest", AttrType::i, int64_t{1})
      .attr("sorted", AttrType::i, int64_t{1})
      .input("X", "T", D::differentiable)
      .input("K", "tensor(int64)", D::non_differentiable)
      .output("Values", "T", D::differentiable)
      .output("Indices", "I", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("I", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
