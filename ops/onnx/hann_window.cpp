// SPDX-License-Identifier: Apache-2.0
// HannWindow: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_HannWindow(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(17)
      .is_function({17})
      .attr("output_datatype", AttrType::i, int64_t{1})
      .attr("periodic", AttrType::i, int64_t{1})
      .input("size", "T1", D::non_differentiable)
      .output("output", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(int32)", "tensor(int64)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
