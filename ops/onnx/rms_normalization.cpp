// SPDX-License-Identifier: Apache-2.0
// RMSNormalization: the ai.onnx operator. X seen as [prod(dims[:axis]), prod(dims[axis:])];
// y = x / sqrt(mean of the row's squares + epsilon) * scale, in scale's element type.
#include "core/infer/helpers.h"
#include "ops/onnx/nn_common.h"
#include "ops/onnx/norm_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void infer_rms_norm(InferContext& ctx) {
  const Type& x = ctx.input_type(0);
  if (x.has_shape()) ctx.normalize_axis(ctx.attrs().get_int("axis", -1), x.rank());
  set_output_tensor(ctx, 0, ctx.input_elem_type(1), x.shape);
}

void rms_norm_kernel(KernelContext& ctx, const nn::AxisEpsilon& state) {
  const Tensor& x = ctx.input(0);
  const Tensor& scale = ctx.input(1);
  const int64_t axis = nn::kernel_axis(ctx, state.axis, x.rank());
  const Shape normalized(x.shape().begin() + axis, x.shape().end());
  nn::RowNorm spec;
  spec.rows = nn::product(x.shape(), 0, static_cast<std::size_t>(axis));
  spec.cols = nn::product(normalized, 0, normalized.size());
  spec.epsilon = state.epsilon;
  spec.center = false;
  const auto s = nn::broadcast_values(ctx, scale, normalized, "scale");
  Tensor& y = ctx.output(0, scale.dtype(), x.shape());
  if (x.numel() > 0) nn::normalize_rows(ctx, x, y, spec, s, {});
}

}  // namespace

namespace {
// RMSNormalization-23 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kRMSNormalizationBody[] = R"onnx(
<domain: "", opset_import: ["" : 23]>
RMSNormalization <axis, epsilon, stash_type> (X, scale) => (Y) {
  x_shape = Shape (X)
  rank = Size (x_shape)
  axis_scalar = Constant <value_int: int = @axis> ()
  zero_s = Constant <value_int = 0> ()
  negative = Less (axis_scalar, zero_s)
  wrapped = Add (axis_scalar, rank)
  pos_axis = Where (negative, wrapped, axis_scalar)
  one_s = Constant <value_int = 1> ()
  axes = Range (pos_axis, rank, one_s)
  x_u = Cast <to: int = @stash_type> (X)
  sq = Mul (x_u, x_u)
  mean_sq = ReduceMean (sq, axes)
  eps = Constant <value_float: float = @epsilon> ()
  eps_u = CastLike (eps, x_u)
  shifted = Add (mean_sq, eps_u)
  rms = Sqrt (shifted)
  normed_u = Div (x_u, rms)
  normed = CastLike (normed_u, scale)
  Y = Mul (normed, scale)
}
)onnx";
}  // namespace

void define_RMSNormalization(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(23)
      .is_function({23})
      .attr("axis", AttrType::i, int64_t{-1})
      .attr("epsilon", AttrType::f, 1e-05f)
      .attr("stash_type", AttrType::i, int64_t{1})
      .input("X", "T")
      .input("scale", "V")
      .output("Y", "V")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("V", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.at(23).function(kRMSNormalizationBody, 23);
  op.all().infer(infer_rms_norm).kernel(prepared_kernel(nn::prepare_axis_epsilon, rms_norm_kernel));
  op.all().flops(nn::input_flops(4));
}

}  // namespace onnxtool::ops
