// SPDX-License-Identifier: Apache-2.0
// GroupNormalization: the ai.onnx operator. The channels of each batch item are split into
// num_groups groups; each group (its channels and spatial dims together) is normalised by its
// own mean and variance, then scaled and shifted per channel (21; version 18, deprecated, had
// one scale per group and has no schema here).
#include "core/infer/helpers.h"
#include "ops/onnx/nn_common.h"
#include "ops/onnx/norm_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void infer_group_norm(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 1, 2});
  const auto x = nn::shape_with_min_rank(ctx, 0, 2);
  const int64_t groups = ctx.attrs().get_int("num_groups");
  if (groups <= 0) ctx.fail("num_groups must be positive");
  if (x && (*x)[1].is_known() && (*x)[1].value() % groups != 0)
    ctx.fail("X's " + (*x)[1].to_string() + " channels are not a multiple of num_groups " +
             std::to_string(groups));
  set_output_tensor(ctx, 0, elem, x);
}

struct GroupNormState {
  std::optional<int64_t> groups;  // required: checked when the node runs
  float epsilon = 1e-5f;
};

GroupNormState prepare_group_norm(PrepareContext& ctx) {
  return {ctx.attrs().opt_int("num_groups"), ctx.attrs().get_float("epsilon", 1e-5f)};
}

void group_norm_kernel(KernelContext& ctx, const GroupNormState& s) {
  const Tensor& x = ctx.input(0);
  if (x.rank() < 2)
    ctx.fail("X has shape " + shape_to_string(x.shape()) + "; expected [N, C, D1, ...]");
  const int64_t channels = x.shape()[1];
  const int64_t groups = s.groups ? *s.groups : ctx.attrs().get_int("num_groups");
  if (groups <= 0 || channels % groups != 0)
    ctx.fail("num_groups " + std::to_string(groups) + " does not divide the " +
             std::to_string(channels) + " channels");
  const int64_t spatial = nn::product(x.shape(), 2, x.shape().size());
  nn::RowNorm spec;
  spec.rows = x.shape()[0] * groups;
  spec.cols = channels / groups * spatial;
  spec.epsilon = s.epsilon;
  spec.row_period = groups;
  spec.per_period = channels / groups;
  spec.segment = spatial > 0 ? spatial : 1;
  for (std::size_t i = 1; i < 3; ++i)
    if (ctx.input(i).numel() != channels)
      ctx.fail(std::string(i == 1 ? "scale" : "bias") + " has shape " +
               shape_to_string(ctx.input(i).shape()) + ", expected [" + std::to_string(channels) +
               "]");
  const auto scale = nn::broadcast_values(ctx, ctx.input(1), {channels}, "scale");
  const auto bias = nn::broadcast_values(ctx, ctx.input(2), {channels}, "bias");
  Tensor& y = ctx.output(0, x.dtype(), x.shape());
  if (x.numel() == 0) return;
  nn::normalize_rows(ctx, x, y, spec, scale, bias);
}

}  // namespace

namespace {
// GroupNormalization-21 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kGroupNormalizationBody[] = R"onnx(
<domain: "", opset_import: ["" : 21]>
GroupNormalization <epsilon, num_groups, stash_type> (X, scale, bias) => (Y) {
  x_u = Cast <to: int = @stash_type> (X)
  x_shape = Shape (X)
  n = Shape <start = 0, end = 1> (X)
  c = Shape <start = 1, end = 2> (X)
  groups_s = Constant <value_int: int = @num_groups> ()
  zero_1d = Constant <value_ints = [0]> ()
  groups = Unsqueeze (groups_s, zero_1d)
  per_group = Div (c, groups)
  grouped_shape = Constant <value_ints = [0, 0, -1]> ()
  spatial = Shape <start = 2> (X)
  full_g_shape = Concat <axis = 0> (n, groups, per_group, spatial)
  x_g = Reshape (x_u, full_g_shape)
  x_3d = Reshape (x_g, grouped_shape)
  two_1d = Constant <value_ints = [2]> ()
  mean = ReduceMean (x_3d, two_1d)
  sq = Mul (x_3d, x_3d)
  mean_sq = ReduceMean (sq, two_1d)
  mean_2 = Mul (mean, mean)
  variance = Sub (mean_sq, mean_2)
  eps = Constant <value_float: float = @epsilon> ()
  eps_u = CastLike (eps, x_u)
  var_eps = Add (variance, eps_u)
  std = Sqrt (var_eps)
  centred = Sub (x_3d, mean)
  normed_g = Div (centred, std)
  normed_full = Reshape (normed_g, x_shape)
  normed_nc = Reshape (normed_full, grouped_shape)
  normed = CastLike (normed_nc, X)
  channel_shape = Constant <value_ints = [1, -1, 1]> ()
  scale_c = Reshape (scale, channel_shape)
  bias_c = Reshape (bias, channel_shape)
  scaled = Mul (scale_c, normed)
  shifted = Add (scaled, bias_c)
  Y = Reshape (shifted, x_shape)
}
)onnx";
}  // namespace

void define_GroupNormalization(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(18).deprecated();
  op.since(21)
      .is_function({21})
      .attr("epsilon", AttrType::f, 1e-05f)
      .attr_required("num_groups", AttrType::i)
      .attr("stash_type", AttrType::i, int64_t{1})
      .input("X", "T", D::differentiable)
      .input("scale", "T", D::differentiable)
      .input("bias", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.at(21).function(kGroupNormalizationBody, 21);
  op.all().trait(Trait::float_generic);
  op.all().infer(infer_group_norm).kernel(prepared_kernel(prepare_group_norm, group_norm_kernel));
  op.all().flops(nn::input_flops(5));
}

}  // namespace onnxtool::ops
