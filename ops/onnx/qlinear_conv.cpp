// SPDX-License-Identifier: Apache-2.0
// QLinearConv: the ai.onnx operator. The int32 convolution of (x - x_zero_point) and
// (w - w_zero_point), plus the int32 bias B, requantized:
//   y = saturate(round_half_even(acc * (x_scale * w_scale / y_scale)) + y_zero_point).
// w's scale and zero point are per tensor or per output channel ([M]); the others per tensor.
#include "ops/onnx/integer_common.h"
#include "ops/onnx/misc_common.h"
#include "ops/onnx/nn_common.h"

namespace onnxtool::ops {

namespace {

using integer::ParamAxis;

void infer_qlinear_conv(InferContext& ctx) {
  const auto y = integer::infer_conv_shape(ctx, 0, 3);
  if (ctx.num_inputs() > 8 && ctx.has_input(8)) {
    const Type& b = ctx.input_type(8);
    if (b.has_shape() && b.rank() != 1) infer_fail("B must be 1-D");
    if (b.has_shape() && y) unify_dim((*b.shape)[0], (*y)[1], "B's length and w's output channels");
  }
  set_output_tensor(ctx, 0, ctx.input_elem_type(7), y);
}

void require_scalar(const KernelContext& ctx, const Tensor& t, const char* what) {
  if (t.numel() != 1)
    ctx.fail(std::string(what) + " must be a scalar, not " + shape_to_string(t.shape()));
}

// W as the prepare step packed it (integer::prepare_conv_weights).
void qlinear_conv_kernel(KernelContext& ctx, const integer::PackedConvWeights& packed) {
  const Tensor& x = ctx.input(0);
  const Tensor& x_scale = ctx.input(1);
  const Tensor& w = ctx.input(3);
  const Tensor& w_scale = ctx.input(4);
  const Tensor& y_scale = ctx.input(6);
  const Tensor& y_zero = ctx.input(7);
  const Tensor* b = ctx.num_inputs() > 8 && ctx.has_input(8) ? &ctx.input(8) : nullptr;
  require_scalar(ctx, x_scale, "x_scale");
  require_scalar(ctx, ctx.input(2), "x_zero_point");
  require_scalar(ctx, y_scale, "y_scale");
  require_scalar(ctx, y_zero, "y_zero_point");
  const nn::ConvGeometry g = integer::conv_geometry(ctx, x.shape(), w.shape());
  if (b && (b->dtype() != DataType::int32 || b->rank() != 1 || b->numel() != g.out_channels))
    ctx.fail("B must be int32 of shape [" + std::to_string(g.out_channels) + "], not " +
             std::string(type_name(b->dtype())) + shape_to_string(b->shape()));
  const Shape out = integer::conv_output_shape(g);
  std::vector<int32_t> acc(static_cast<std::size_t>(nn::product(out, 0, out.size())));
  integer::conv_int32(ctx, g, x, &ctx.input(2), w, &ctx.input(5), acc.data(), packed);
  const int64_t plane = g.window.out_size();
  // The bias joins the int32 sum, wrapping as the sum does.
  if (b)
    for (std::size_t i = 0; i < acc.size(); ++i) {
      const int64_t m = static_cast<int64_t>(i) / plane % g.out_channels;
      acc[i] = static_cast<int32_t>(static_cast<uint32_t>(acc[i]) +
                                    static_cast<uint32_t>(b->data<int32_t>()[m]));
    }
  const Shape channel_shape{g.out_channels};
  const integer::ParamIndex wi(ctx, channel_shape, w_scale.shape(), ParamAxis::channel, "w_scale");
  const auto xv = integer::scale_values(ctx, x_scale, "x_scale");
  const auto wv = integer::scale_values(ctx, w_scale, "w_scale");
  const auto yv = integer::scale_values(ctx, y_scale, "y_scale");
  const double zero = misc::values_as<double>(ctx, y_zero, "y_zero_point")[0];
  std::vector<double> multiplier(static_cast<std::size_t>(g.out_channels));
  for (int64_t m = 0; m < g.out_channels; ++m)
    multiplier[static_cast<std::size_t>(m)] =
        integer::scale_product(xv[0], wv[static_cast<std::size_t>(wi(m))], yv[0], x_scale.dtype());
  Tensor& y = ctx.output(0, y_zero.dtype(), out);
  integer::requantize(
      ctx, acc,
      [&](int64_t i) { return multiplier[static_cast<std::size_t>(i / plane % g.out_channels)]; },
      [&](int64_t) { return zero; }, y);
}

}  // namespace

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
  op.all()
      .infer(infer_qlinear_conv)
      .kernel(prepared_kernel(integer::prepare_conv_weights<3, 5>, qlinear_conv_kernel))
      .macs([](const WorkShapes& s, const AttrView&) { return nn::filter_macs(s, 0, 3); });
}

}  // namespace onnxtool::ops
