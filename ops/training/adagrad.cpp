// SPDX-License-Identifier: Apache-2.0
// Adagrad: the ai.onnx.preview.training operator. One ADAGRAD step for each (X, G, H):
// r = R / (1 + T * decay_factor), G' = norm_coefficient * X + G, H_new = H + G'^2,
// X_new = X - r * G' / (sqrt(H_new) + epsilon).
#include <cmath>

#include "ops/training/optimizer_common.h"

namespace onnxtool::ops {

namespace {

void infer_adagrad(InferContext& ctx) {
  training::infer_optimizer(ctx, 3);
}

void adagrad_kernel(KernelContext& ctx) {
  const double decay = ctx.attrs().get_float("decay_factor", 0.0f);
  const double eps = ctx.attrs().get_float("epsilon", 0.0f);
  const double norm = ctx.attrs().get_float("norm_coefficient", 0.0f);
  training::run_optimizer(ctx, 3, [&](double r, int64_t t, const double* in, double* out) {
    const double x = in[0], g = norm * x + in[1];
    const double h = in[2] + g * g;
    const double rate = r / (1 + static_cast<double>(t) * decay);
    out[0] = x - rate * g / (std::sqrt(h) + eps);
    out[1] = h;
  });
}

}  // namespace

void define_training_Adagrad(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("decay_factor", AttrType::f, 0.0f)
      .attr("epsilon", AttrType::f, 0.0f)
      .attr("norm_coefficient", AttrType::f, 0.0f)
      .input("R", "T1")
      .input("T", "T2")
      .input_variadic("inputs", "T3", 1, false)
      .output_variadic("outputs", "T3", 1, false)
      .constraint("T1", {"tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"})
      .constraint("T3", {"tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_adagrad).kernel(adagrad_kernel);
}

}  // namespace onnxtool::ops
