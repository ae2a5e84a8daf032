// SPDX-License-Identifier: Apache-2.0
// ConvTranspose: the ai.onnx operator.
#include "ops/op.h"

namespace onnxtool::ops {

void define_ConvTranspose(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr_optional("output_padding", AttrType::ints)
      .attr_optional("output_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .input("W", "T")
      .input_optional("B", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr_optional("output_padding", AttrType::ints)
      .attr_optional("output_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .input("W", "T", D::differentiable)
      .input_optional("B", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr_optional("output_padding", AttrType::ints)
      .attr_optional("output_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .input("W", "T", D::differentiable)
      .input_optional("B", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
}

}  // namespace onnxtool::ops
