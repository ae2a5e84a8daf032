// SPDX-License-Identifier: Apache-2.0
// QLinearConv: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_QLinearConv(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("x", "T1")
      .input("x_scale", "tensor(float)")
      .input("x_zero_point", "T1")
      .input("w", "T2")
      .input("w_scale", "tensor(float)")
      .input("w_zero_point", "T2")
      .input("y_scale", "tensor(float)")
      .input("y_zero_point", "T3")
      .input_optional("B", "T4")
      .output("y", "T3")
      .constraint("T1", {"tensor(int8)", "tensor(uint8)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)"})
      .constraint("T3", {"tensor(int8)", "tensor(uint8)"})
      .constraint("T4", {"tensor(int32)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
