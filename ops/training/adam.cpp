// SPDX-License-Identifier: Apache-2.0
// Adam: the ai.onnx.preview.training operator. One Adam step for each (X, G, V, H):
// G' = norm_coefficient * X + G, V_new = alpha V + (1 - alpha) G', H_new = beta H + (1 - beta)
// G'^2, R' = T > 0 ? R sqrt(1 - beta^T) / (1 - alpha^T) : R, X_new = (1 - norm_coefficient_post) (X
// - R' V_new / (sqrt(H_new) + epsilon)).
#include <cmath>

#include "ops/training/optimizer_common.h"

namespace onnxtool::ops {

namespace {

void infer_adam(InferContext& ctx) {
  training::infer_optimizer(ctx, 4);
}

void adam_kernel(KernelContext& ctx) {
  const double alpha = ctx.attrs().get_float("alpha", 0.9f);
  const double beta = ctx.attrs().get_float("beta", 0.999f);
  const double eps = ctx.attrs().get_float("epsilon", 0.0f);
  const double norm = ctx.attrs().get_float("norm_coefficient", 0.0f);
  const double post = ctx.attrs().get_float("norm_coefficient_post", 0.0f);
  training::run_optimizer(ctx, 4, [&](double r, int64_t t, const double* in, double* out) {
    const double x = in[0], g = norm * x + in[1];
    const double v = alpha * in[2] + (1 - alpha) * g;
    const double h = beta * in[3] + (1 - beta) * g * g;
    const double td = static_cast<double>(t);
    const double rate =
        t > 0 ? r * std::sqrt(1 - std::pow(beta, td)) / (1 - std::pow(alpha, td)) : r;
    out[0] = (1 - post) * (x - rate * v / (std::sqrt(h) + eps));
    out[1] = v;
    out[2] = h;
  });
}

}  // namespace

void define_training_Adam(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("alpha", AttrType::f, 0.9f)
      .attr("beta", AttrType::f, 0.999f)
      .attr("epsilon", AttrType::f, 0.0f)
      .attr("norm_coefficient", AttrType::f, 0.0f)
      .attr("norm_coefficient_post", AttrType::f, 0.0f)
      .input("R", "T1")
      .input("T", "T2")
      .input_variadic("inputs", "T3", 1, false)
      .output_variadic("outputs", "T3", 1, false)
      .constraint("T1", {"tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"})
      .constraint("T3", {"tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_adam).kernel(adam_kernel);
}

}  // namespace onnxtool::ops
