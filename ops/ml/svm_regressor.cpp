// SPDX-License-Identifier: Apache-2.0
// SVMRegressor: the ai.onnx.ml operator. y = sum_j coefficients[j] K(x, sv_j) + rho over the
// n_supports support vectors (or the linear model coefficients . x + rho when there are none);
// one_class gives +1 / -1 by the sign.
#include "ops/ml/svm_common.h"

namespace onnxtool::ops {

namespace {

void infer_svm_regressor(InferContext& ctx) {
  set_output_tensor(ctx, 0, static_cast<int32_t>(DataType::float32),
                    Dims{ml::batch_dim(ctx, 0), Dim::value(1)});
}

void svm_regressor_kernel(KernelContext& ctx) {
  const ml::Features x = ml::read_features(ctx, ctx.input(0));
  const ml::SvmKernel kernel = ml::read_svm_kernel(ctx);
  const int64_t supports = ctx.attrs().get_int("n_supports", 0);
  const std::vector<float> coef = ctx.attrs().get_floats("coefficients", {});
  const std::vector<float> sv = ctx.attrs().get_floats("support_vectors", {});
  const std::vector<float> rho = ctx.attrs().get_floats("rho", {});
  const bool one_class = ctx.attrs().get_int("one_class", 0) != 0;
  const ml::Post post = ml::post_from_name(ctx, ctx.attrs().get_string("post_transform", "NONE"));
  if (supports > 0) {
    if (static_cast<int64_t>(sv.size()) != supports * x.cols ||
        static_cast<int64_t>(coef.size()) < supports)
      ctx.fail(
          "support_vectors must hold n_supports * features values and coefficients n_supports");
  } else if (static_cast<int64_t>(coef.size()) != x.cols) {
    ctx.fail("a linear SVM needs one coefficient per feature, got " + std::to_string(coef.size()));
  }
  std::vector<double> y(static_cast<std::size_t>(x.rows));
  for (int64_t r = 0; r < x.rows; ++r) {
    double s = rho.empty() ? 0.0 : rho[0];
    if (supports > 0) {
      for (int64_t j = 0; j < supports; ++j)
        s += coef[static_cast<std::size_t>(j)] * kernel(x.row(r), sv.data() + j * x.cols, x.cols);
    } else {
      s += kernel(x.row(r), coef.data(), x.cols);
    }
    if (one_class) s = s > 0 ? 1.0 : -1.0;
    ml::apply_post(post, &s, 1);
    y[static_cast<std::size_t>(r)] = s;
  }
  misc::write_output<double>(ctx, 0, DataType::float32, {x.rows, 1}, y);
}

}  // namespace

void define_ml_SVMRegressor(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("coefficients", AttrType::floats)
      .attr_optional("kernel_params", AttrType::floats)
      .attr("kernel_type", AttrType::s, "LINEAR")
      .attr("n_supports", AttrType::i, int64_t{0})
      .attr("one_class", AttrType::i, int64_t{0})
      .attr("post_transform", AttrType::s, "NONE")
      .attr_optional("rho", AttrType::floats)
      .attr_optional("support_vectors", AttrType::floats)
      .input("X", "T")
      .output("Y", "tensor(float)")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_svm_regressor).kernel(svm_regressor_kernel);
}

}  // namespace onnxtool::ops
