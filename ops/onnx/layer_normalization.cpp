// SPDX-License-Identifier: Apache-2.0
// LayerNormalization: the ai.onnx operator. X seen as [prod(dims[:axis]), prod(dims[axis:])];
// each row is normalised by its mean and variance, then scaled and shifted by Scale and B
// (broadcast to dims[axis:]). Mean and InvStdDev keep X's rank with 1s from axis on, in the
// stash_type precision (float by default).
#include "core/infer/helpers.h"
#include "ops/onnx/nn_common.h"
#include "ops/onnx/norm_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

DataType stash_type(const AttrView& attrs) {
  return attrs.get_int("stash_type", 1) == static_cast<int64_t>(DataType::bfloat16)
             ? DataType::bfloat16
             : DataType::float32;
}

void infer_layer_norm(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 1, 2});
  const Type& x = ctx.input_type(0);
  set_output_tensor(ctx, 0, elem, x.shape);
  std::optional<Dims> stats;
  if (x.has_shape()) {
    const int64_t axis = ctx.normalize_axis(ctx.attrs().get_int("axis", -1), x.rank());
    stats = *x.shape;
    for (auto i = static_cast<std::size_t>(axis); i < stats->size(); ++i)
      (*stats)[i] = Dim::value(1);
  }
  for (std::size_t i = 1; i < 3; ++i)
    if (i < ctx.num_outputs() && ctx.has_output(i))
      set_output_tensor(ctx, i, static_cast<int32_t>(stash_type(ctx.attrs())), stats);
}

void write_row_stats(KernelContext& ctx, std::size_t out, Shape shape,
                     const std::vector<double>& v) {
  if (out >= ctx.num_outputs() || !ctx.has_output(out)) return;
  Tensor& t = ctx.output(out, stash_type(ctx.attrs()), std::move(shape));
  std::vector<float> f(v.begin(), v.end());
  nn::store_float32(f.data(), t);
}

void layer_norm_kernel(KernelContext& ctx, const nn::AxisEpsilon& s) {
  const Tensor& x = ctx.input(0);
  const int64_t axis = nn::kernel_axis(ctx, s.axis, x.rank());
  const Shape normalized(x.shape().begin() + axis, x.shape().end());
  nn::RowNorm spec;
  spec.rows = nn::product(x.shape(), 0, static_cast<std::size_t>(axis));
  spec.cols = nn::product(normalized, 0, normalized.size());
  spec.epsilon = s.epsilon;
  const auto scale = nn::broadcast_values(ctx, ctx.input(1), normalized, "Scale");
  const auto bias = ctx.has_input(2) ? nn::broadcast_values(ctx, ctx.input(2), normalized, "B")
                                     : std::vector<double>{};
  Tensor& y = ctx.output(0, x.dtype(), x.shape());
  std::vector<double> mean, inv;
  if (x.numel() > 0) nn::normalize_rows(ctx, x, y, spec, scale, bias, &mean, &inv);
  Shape stats = x.shape();
  for (auto i = static_cast<std::size_t>(axis); i < stats.size(); ++i) stats[i] = 1;
  if (mean.size() != static_cast<std::size_t>(nn::product(stats, 0, stats.size()))) {
    mean.assign(static_cast<std::size_t>(nn::product(stats, 0, stats.size())), 0.0);
    inv = mean;
  }
  write_row_stats(ctx, 1, stats, mean);
  write_row_stats(ctx, 2, stats, inv);
}

}  // namespace

namespace {
// LayerNormalization-17 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kLayerNormalizationBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
LayerNormalization <axis, epsilon, stash_type> (X, Scale, B) => (Y, Mean, InvStdDev) {
  x_shape = Shape (X)
  rank = Size (x_shape)
  axis_scalar = Constant <value_int: int = @axis> ()
  zero_s = Constant <value_int = 0> ()
  negative = Less (axis_scalar, zero_s)
  wrapped = Add (axis_scalar, rank)
  pos_axis = Where (negative, wrapped, axis_scalar)
  zero_1d = Constant <value_ints = [0]> ()
  axis_1d = Unsqueeze (pos_axis, zero_1d)
  prefix = Slice (x_shape, zero_1d, axis_1d)
  rank_1d = Unsqueeze (rank, zero_1d)
  n_reduced = Sub (rank_1d, axis_1d)
  suffix = ConstantOfShape <value = int64[1] {1}> (n_reduced)
  stats_shape = Concat <axis = 0> (prefix, suffix)
  rows = Flatten <axis: int = @axis> (X)
  rows_u = Cast <to: int = @stash_type> (rows)
  eps = Constant <value_float: float = @epsilon> ()
  eps_u = CastLike (eps, rows_u)
  one_1d = Constant <value_ints = [1]> ()
  mean = ReduceMean (rows_u, one_1d)
  sq = Mul (rows_u, rows_u)
  mean_sq = ReduceMean (sq, one_1d)
  mean_2 = Mul (mean, mean)
  variance = Sub (mean_sq, mean_2)
  var_eps = Add (variance, eps_u)
  std = Sqrt (var_eps)
  centred = Sub (rows_u, mean)
  normed_u = Div (centred, std)
  normed = CastLike (normed_u, X)
  scale_row = Flatten <axis = 0> (Scale)
  scaled = Mul (normed, scale_row)
  has_bias = OptionalHasElement (B)
  shifted = If (has_bias) <
    then_branch = add_bias () => (with_bias) {
      bias_row = Flatten <axis = 0> (B)
      with_bias = Add (scaled, bias_row)
    },
    else_branch = no_bias () => (without_bias) { without_bias = Identity (scaled) }
  >
  Y = Reshape (shifted, x_shape)
  inv = Reciprocal (std)
  Mean = Reshape (mean, stats_shape)
  InvStdDev = Reshape (inv, stats_shape)
}
)onnx";
}  // namespace

void define_LayerNormalization(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(17)
      .is_function({17, 18})
      .attr("axis", AttrType::i, int64_t{-1})
      .attr("epsilon", AttrType::f, 1e-05f)
      .attr("stash_type", AttrType::i, int64_t{1})
      .input("X", "T")
      .input("Scale", "T")
      .input_optional("B", "T")
      .output("Y", "T")
      .output_optional("Mean", "U")
      .output_optional("InvStdDev", "U")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("U", {"tensor(float)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.at(17).function(kLayerNormalizationBody, 18);
  op.all().trait(Trait::float_generic);
  op.all()
      .infer(infer_layer_norm)
      .kernel(prepared_kernel(nn::prepare_axis_epsilon, layer_norm_kernel));
  op.all().flops(nn::input_flops(5));
}

}  // namespace onnxtool::ops
