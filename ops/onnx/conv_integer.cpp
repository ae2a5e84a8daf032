// SPDX-License-Identifier: Apache-2.0
// ConvInteger: the ai.onnx operator. Conv of (x - x_zero_point) and (w - w_zero_point) summed in
// int32; the padding reads 0 after the shift (the zero point before it). x_zero_point is per
// tensor, w_zero_point per tensor or per output channel ([M]).
#include "core/registry/fusion.h"
#include "ops/onnx/integer_common.h"
#include "ops/onnx/nn_common.h"

namespace onnxtool::ops {

namespace {

void infer_conv_integer(InferContext& ctx) {
  set_output_tensor(ctx, 0, static_cast<int32_t>(DataType::int32),
                    integer::infer_conv_shape(ctx, 0, 1));
}

// W packed at planning (integer::pack_conv_weights), and what fusions gave the node: a float
// finish (core/exec/passes/fuse_scaled_output.h), then a residual and an epilogue.
struct ConvIntegerState {
  integer::PackedConvWeights packed;
  int64_t scaled_output = -1;
  int64_t residual_input = -1;
  kernels::Epilogue epilogue;
};

ConvIntegerState prepare_conv_integer(PrepareContext& ctx) {
  ConvIntegerState s;
  s.packed = integer::pack_conv_weights(ctx, 1, 3);
  s.scaled_output = scaled_output_of(ctx.attrs());
  s.residual_input = residual_input_of(ctx.attrs());
  s.epilogue = epilogue_of(ctx.attrs());
  return s;
}

// A fused input that must be float32 with `count` values (or one).
const float* fused_floats(const KernelContext& ctx, const Tensor* t, int64_t count,
                          const char* what) {
  if (!t) return nullptr;
  if (t->dtype() != DataType::float32 || (t->numel() != count && t->numel() != 1))
    ctx.fail(std::string("the fused ") + what + " must be float with " + std::to_string(count) +
             " values or one, not " + std::string(type_name(t->dtype())) + " " +
             shape_to_string(t->shape()));
  return t->data<float>();
}

// The sums finished in float: sum * scale + bias, + the residual, then the epilogue.
void conv_integer_float(KernelContext& ctx, const ConvIntegerState& s, const nn::ConvGeometry& g,
                        const Tensor* x_zero, const Tensor* w_zero) {
  const auto at = static_cast<std::size_t>(s.scaled_output);
  const int64_t m = g.out_channels;
  const Tensor* scale_t = integer::optional_input(ctx, at);
  const Tensor* bias_t = integer::optional_input(ctx, at + 1);
  const float* scale = fused_floats(ctx, scale_t, 1, "scale");
  const float* bias = fused_floats(ctx, bias_t, m, "bias");
  std::vector<float> scales(static_cast<std::size_t>(m), scale ? scale[0] : 1.0f);
  std::vector<float> biases;
  if (bias && bias_t->numel() == 1) biases.assign(static_cast<std::size_t>(m), bias[0]);
  Tensor& y = ctx.output_uninitialized(0, DataType::float32, integer::conv_output_shape(g));
  if (y.numel() == 0) return;
  const Tensor* r =
      s.residual_input >= 0 ? &ctx.input(static_cast<std::size_t>(s.residual_input)) : nullptr;
  if (r && (r->dtype() != DataType::float32 || r->shape() != y.shape()))
    ctx.fail("the fused residual summand has type " + std::string(type_name(r->dtype())) +
             " and shape " + shape_to_string(r->shape()) + ", expected float " +
             shape_to_string(y.shape()));
  integer::FloatOutput out;
  out.scales = scales.data();
  out.bias = biases.empty() ? bias : biases.data();
  out.residual = r ? r->data<float>() : nullptr;
  out.epilogue = s.epilogue;
  integer::conv_int32_to_float(ctx, g, ctx.input(0), x_zero, ctx.input(1), w_zero, s.packed, out,
                               y.mutable_data<float>());
}

void conv_integer_kernel(KernelContext& ctx, const ConvIntegerState& s) {
  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(1);
  const Tensor* x_zero = integer::optional_input(ctx, 2);
  const Tensor* w_zero = integer::optional_input(ctx, 3);
  if (x_zero && x_zero->numel() > 1)
    ctx.fail("x_zero_point must be a scalar, not " + shape_to_string(x_zero->shape()));
  const nn::ConvGeometry g = integer::conv_geometry(ctx, x.shape(), w.shape());
  if (s.scaled_output >= 0) return conv_integer_float(ctx, s, g, x_zero, w_zero);
  Tensor& out = ctx.output_uninitialized(0, DataType::int32, integer::conv_output_shape(g));
  integer::conv_int32(ctx, g, x, x_zero, w, w_zero, out.mutable_data<int32_t>(), s.packed);
}

// For the executor's fusions (core/registry/fusion.h): the int32 sums can be finished in
// float, and once they are, take a residual Add and an activation.
bool conv_integer_takes_scaled_output(const FusionNode& n) {
  return n.output_elem == static_cast<int32_t>(DataType::int32);
}
bool conv_integer_finishes_in_float(const FusionNode& n) {
  return scaled_output_of(n.attrs) >= 0;
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
      .kernel(prepared_kernel(prepare_conv_integer, conv_integer_kernel))
      .takes_scaled_output(conv_integer_takes_scaled_output)
      .takes_epilogue(conv_integer_finishes_in_float)
      .takes_residual(conv_integer_finishes_in_float)
      .macs([](const WorkShapes& s, const AttrView&) { return nn::filter_macs(s, 0, 1); });
}

}  // namespace onnxtool::ops
