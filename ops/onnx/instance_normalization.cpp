// SPDX-License-Identifier: Apache-2.0
// InstanceNormalization: the ai.onnx operator. Each [n, c] plane is normalised by its own mean
// and variance, then scaled and shifted per channel.
#include "core/infer/helpers.h"
#include "ops/onnx/nn_common.h"
#include "ops/onnx/norm_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void infer_instance_norm(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 1, 2});
  const auto x = nn::shape_with_min_rank(ctx, 0, 2);
  for (std::size_t i = 1; i < 3 && x; ++i)
    if (ctx.input_type(i).has_shape()) {
      if (ctx.input_type(i).rank() != 1) ctx.fail("scale and B must be 1-D");
      unify_dim((*ctx.input_type(i).shape)[0], (*x)[1], "scale/B length and X's channels");
    }
  set_output_tensor(ctx, 0, elem, x);
}

std::vector<double> channel_param(const KernelContext& ctx, std::size_t i, int64_t channels) {
  const Tensor& t = ctx.input(i);
  if (t.rank() != 1 || t.numel() != channels)
    ctx.fail(std::string(i == 1 ? "scale" : "B") + " has shape " + shape_to_string(t.shape()) +
             ", expected [" + std::to_string(channels) + "]");
  std::vector<double> v(static_cast<std::size_t>(channels));
  for (int64_t c = 0; c < channels; ++c)
    v[static_cast<std::size_t>(c)] = nn::element_as_double(t, c);
  return v;
}

struct InstanceNormState {
  float epsilon = 1e-5f;
};

InstanceNormState prepare_instance_norm(PrepareContext& ctx) {
  return {ctx.attrs().get_float("epsilon", 1e-5f)};
}

void instance_norm_kernel(KernelContext& ctx, const InstanceNormState& s) {
  const Tensor& x = ctx.input(0);
  if (x.rank() < 2)
    ctx.fail("input has shape " + shape_to_string(x.shape()) + "; expected [N, C, D1, ...]");
  const int64_t channels = x.shape()[1];
  nn::RowNorm spec;
  spec.rows = x.shape()[0] * channels;
  spec.cols = nn::product(x.shape(), 2, x.shape().size());
  spec.epsilon = s.epsilon;
  spec.row_period = channels;
  spec.per_period = 1;
  spec.segment = spec.cols > 0 ? spec.cols : 1;
  const auto scale = channel_param(ctx, 1, channels), bias = channel_param(ctx, 2, channels);
  Tensor& y = ctx.output(0, x.dtype(), x.shape());
  if (x.numel() == 0) return;
  nn::normalize_rows(ctx, x, y, spec, scale, bias);
}

}  // namespace

void define_InstanceNormalization(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .attr("epsilon", AttrType::f, 1e-05f)
      .input("input", "T")
      .input("scale", "T")
      .input("B", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(6)
      .attr("epsilon", AttrType::f, 1e-05f)
      .input("input", "T", D::differentiable)
      .input("scale", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr("epsilon", AttrType::f, 1e-05f)
      .input("input", "T", D::differentiable)
      .input("scale", "T", D::differentiable)
      .input("B", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all()
      .infer(infer_instance_norm)
      .kernel(prepared_kernel(prepare_instance_norm, instance_norm_kernel));
  convert::bridge_dropped_attribute(op, "consumed_inputs");
  op.all().flops(nn::input_flops(5));
}

}  // namespace onnxtool::ops
