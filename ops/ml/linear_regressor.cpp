// SPDX-License-Identifier: Apache-2.0
// LinearRegressor: the ai.onnx.ml operator. Y = X coefficients^T + intercepts, `targets` outputs
// per row, post-transformed.
#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

void infer_linear_regressor(InferContext& ctx) {
  set_output_tensor(ctx, 0, static_cast<int32_t>(DataType::float32),
                    Dims{ml::batch_dim(ctx, 0), Dim::value(ctx.attrs().get_int("targets", 1))});
}

void linear_regressor_kernel(KernelContext& ctx) {
  const ml::Features x = ml::read_features(ctx, ctx.input(0));
  const int64_t targets = ctx.attrs().get_int("targets", 1);
  const std::vector<float> coef = ctx.attrs().get_floats("coefficients", {});
  const std::vector<float> intercepts = ctx.attrs().get_floats("intercepts", {});
  if (targets <= 0 || static_cast<int64_t>(coef.size()) != targets * x.cols)
    ctx.fail(std::to_string(coef.size()) +
             " coefficients, expected targets * features = " + std::to_string(targets * x.cols));
  if (!intercepts.empty() && static_cast<int64_t>(intercepts.size()) != targets)
    ctx.fail("intercepts must have one value per target");
  const ml::Post post = ml::post_from_name(ctx, ctx.attrs().get_string("post_transform", "NONE"));
  std::vector<double> y(static_cast<std::size_t>(x.rows * targets));
  for (int64_t r = 0; r < x.rows; ++r) {
    double* out = y.data() + r * targets;
    for (int64_t t = 0; t < targets; ++t) {
      double v = intercepts.empty() ? 0.0 : intercepts[static_cast<std::size_t>(t)];
      for (int64_t f = 0; f < x.cols; ++f)
        v += coef[static_cast<std::size_t>(t * x.cols + f)] * x.row(r)[f];
      out[t] = v;
    }
    ml::apply_post(post, out, targets);
  }
  misc::write_output<double>(ctx, 0, DataType::float32, {x.rows, targets}, y);
}

}  // namespace

void define_ml_LinearRegressor(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("coefficients", AttrType::floats)
      .attr_optional("intercepts", AttrType::floats)
      .attr("post_transform", AttrType::s, "NONE")
      .attr("targets", AttrType::i, int64_t{1})
      .input("X", "T")
      .output("Y", "tensor(float)")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_linear_regressor).kernel(linear_regressor_kernel);
}

}  // namespace onnxtool::ops
