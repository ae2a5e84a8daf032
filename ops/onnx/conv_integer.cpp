// SPDX-License-Identifier: Apache-2.0
// ConvInteger: the ai.onnx operator. Conv of (x - x_zero_point) and (w - w_zero_point) summed in
// int32; the padding reads 0 after the shift (the zero point before it). x_zero_point is per
// tensor, w_zero_point per tensor or per output channel ([M]).
#include "ops/onnx/integer_common.h"
#include "ops/onnx/nn_common.h"

namespace onnxtool::ops {

namespace {

void infer_conv_integer(InferContext& ctx) {
  set_output_tensor(ctx, 0, static_cast<int32_t>(DataType::int32),
                    integer::infer_conv_shape(ctx, 0, 1));
}

// W as the prepare step packed it (integer::prepare_conv_weights).
void conv_integer_kernel(KernelContext& ctx, const integer::PackedConvWeights& packed) {
  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(1);
  const Tensor* x_zero = ctx.num_inputs() > 2 && ctx.has_input(2) ? &ctx.input(2) : nullptr;
  const Tensor* w_zero = ctx.num_inputs() > 3 && ctx.has_input(3) ? &ctx.input(3) : nullptr;
  if (x_zero && x_zero->numel() > 1)
    ctx.fail("x_zero_point must be a scalar, not " + shape_to_string(x_zero->shape()));
  const nn::ConvGeometry g = integer::conv_geometry(ctx, x.shape(), w.shape());
  Tensor& out = ctx.output_uninitialized(0, DataType::int32, integer::conv_output_shape(g));
  integer::conv_int32(ctx, g, x, x_zero, w, w_zero, out.mutable_data<int32_t>(), packed);
}

}  // namespace

void define_ConvInteger(OpDef& op) {
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
      .input("w", "T2")
      .input_optional("x_zero_point", "T1")
      .input_optional("w_zero_point", "T2")
      .output("y", "T3")
      .constraint("T1", {"tensor(int8)", "tensor(uint8)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)"})
      .constraint("T3", {"tensor(int32)"});
  // END SIGNATURES
  // clang-format on
  op.all()
      .infer(infer_conv_integer)
      .kernel(prepared_kernel(integer::prepare_conv_weights<1, 3>, conv_integer_kernel))
      .macs([](const WorkShapes& s, const AttrView&) { return nn::filter_macs(s, 0, 1); });
}

}  // namespace onnxtool::ops
