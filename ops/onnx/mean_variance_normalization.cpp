// SPDX-License-Identifier: Apache-2.0
// MeanVarianceNormalization: the ai.onnx operator. Over `axes`:
//   y = (x - E[x]) / (sqrt(E[x^2] - E[x]^2) + 1e-9)
// exactly as the spec's function body computes it (its epsilon is added to the standard
// deviation, not the variance).
#include <algorithm>
#include <cmath>

#include "core/infer/helpers.h"
#include "ops/onnx/nn_common.h"
#include "ops/onnx/reduce_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

constexpr double kEpsilon = 1e-9;

void infer_mvn(InferContext& ctx) {
  const Type& x = ctx.input_type(0);
  if (x.has_shape()) normalize_axes(ctx.attrs().get_ints("axes", {0, 2, 3}), x.rank(), "axes");
  set_output_tensor(ctx, 0, ctx.input_elem_type(0), x.shape);
}

// Index into the keepdims-shaped statistics for every element of x, in order.
std::vector<int64_t> stat_index(const Shape& shape, const std::vector<bool>& reduced) {
  const int64_t n = nn::product(shape, 0, shape.size());
  std::vector<int64_t> out(static_cast<std::size_t>(n));
  std::vector<int64_t> idx(shape.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t s = 0;
    for (std::size_t a = 0; a < shape.size(); ++a)
      s = s * (reduced[a] ? 1 : shape[a]) + (reduced[a] ? 0 : idx[a]);
    out[static_cast<std::size_t>(i)] = s;
    for (std::size_t a = shape.size(); a-- > 0;) {
      if (++idx[a] < shape[a]) break;
      idx[a] = 0;
    }
  }
  return out;
}

template <class T>
void mvn_apply(const Tensor& x, const Tensor& mean, const Tensor& sq,
               const std::vector<int64_t>& at, int64_t count, Tensor& y) {
  using A = nn::acc_t<T>;
  const T* src = x.data<T>();
  const T* m = mean.data<T>();
  const T* s = sq.data<T>();
  T* dst = y.mutable_data<T>();
  for (std::size_t i = 0; i < at.size(); ++i) {
    const auto k = static_cast<std::size_t>(at[i]);
    const double mu = static_cast<double>(nn::load<T>(m[k]));
    const double var =
        static_cast<double>(nn::load<T>(s[k])) / static_cast<double>(count) - mu * mu;
    const double sd = std::sqrt(std::max(var, 0.0)) + kEpsilon;
    dst[i] = nn::store<T>(static_cast<A>((static_cast<double>(nn::load<T>(src[i])) - mu) / sd));
  }
}

struct MvnState {
  std::vector<int64_t> axes;
};

MvnState prepare_mvn(PrepareContext& ctx) {
  return {ctx.attrs().get_ints("axes", {0, 2, 3})};
}

void mvn_kernel(KernelContext& ctx, const MvnState& s) {
  const Tensor& x = ctx.input(0);
  Tensor& y = ctx.output(0, x.dtype(), x.shape());
  std::vector<bool> reduced(static_cast<std::size_t>(x.rank()), false);
  std::vector<int64_t> axes;
  for (int64_t a : s.axes) {
    const int64_t k = nn::kernel_axis(ctx, a, x.rank(), "axes value");
    if (reduced[static_cast<std::size_t>(k)]) ctx.fail("axis " + std::to_string(a) + " repeats");
    reduced[static_cast<std::size_t>(k)] = true;
    axes.push_back(k);
  }
  if (x.numel() == 0) return;
  int64_t count = 1;
  for (int64_t a : axes) count *= x.shape()[static_cast<std::size_t>(a)];
  // Statistics in float32 for the narrow types, so that E[x^2] does not round to float16.
  const Tensor xs = x.dtype() == DataType::float64 ? x : nn::to_float32(x);
  const Tensor mean = nn::reduce_axes(ctx, xs, axes, nn::ReduceKind::mean);
  const Tensor sq = nn::reduce_axes(ctx, xs, axes, nn::ReduceKind::sum_square);
  const std::vector<int64_t> at = stat_index(x.shape(), reduced);
  if (x.dtype() == DataType::float64) return mvn_apply<double>(xs, mean, sq, at, count, y);
  Tensor y32(DataType::float32, x.shape());
  mvn_apply<float>(xs, mean, sq, at, count, y32);
  nn::store_float32(y32.data<float>(), y);
}

}  // namespace

namespace {
// MeanVarianceNormalization-13 as the spec defines it, a function (OpVersion::function_body): for
// checking and inference; the executor still runs the kernel unless asked for bodies.
constexpr const char kMeanVarianceNormalizationBody[] = R"onnx(
<domain: "", opset_import: ["" : 18]>
MeanVarianceNormalization <axes> (X) => (Y) {
  reduce_over = Constant <value_ints: ints = @axes> ()
  mean = ReduceMean (X, reduce_over)
  mean_sq = Mul (mean, mean)
  x_sq = Mul (X, X)
  sq_mean = ReduceMean (x_sq, reduce_over)
  variance = Sub (sq_mean, mean_sq)
  std = Sqrt (variance)
  tiny = Constant <value = float {1e-09}> ()
  tiny_x = CastLike (tiny, X)
  denominator = Add (std, tiny_x)
  centred = Sub (X, mean)
  Y = Div (centred, denominator)
}
)onnx";
}  // namespace

void define_MeanVarianceNormalization(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .attr("axes", AttrType::ints, std::vector<int64_t>{0, 2, 3})
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .is_function({13, 18})
      .attr("axes", AttrType::ints, std::vector<int64_t>{0, 2, 3})
      .input("X", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.at(13).function(kMeanVarianceNormalizationBody, 18);
  op.all().infer(infer_mvn).kernel(prepared_kernel(prepare_mvn, mvn_kernel));
  op.all().flops(nn::input_flops(5));
}

}  // namespace onnxtool::ops
