// SPDX-License-Identifier: Apache-2.0
// DeformConv: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_DeformConv(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(19)
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr("offset_group", AttrType::i, int64_t{1})
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .input("W", "T")
      .input("offset", "T")
      .input_optional("B", "T")
      .input_optional("mask", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr("offset_group", AttrType::i, int64_t{1})
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .input("W", "T")
      .input("offset", "T")
      .input_optional("B", "T")
      .input_optional("mask", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
