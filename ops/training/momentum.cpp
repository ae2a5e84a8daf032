// SPDX-License-Identifier: Apache-2.0
// Momentum: the ai.onnx.preview.training operator. One step of gradient descent with momentum
// for each (X, G, V): G' = norm_coefficient * X + G, V_new = alpha V + (T > 0 ? beta : 1) G';
// X_new = X - R V_new (standard) or X - R (G' + alpha V_new) (nesterov).
#include "ops/training/optimizer_common.h"

namespace onnxtool::ops {

namespace {

void infer_momentum(InferContext& ctx) {
  const std::string mode = ctx.attrs().get_string("mode");
  if (mode != "standard" && mode != "nesterov")
    infer_fail("mode must be standard or nesterov, got \"" + mode + "\"");
  training::infer_optimizer(ctx, 3);
}

void momentum_kernel(KernelContext& ctx) {
  const double alpha = ctx.attrs().get_float("alpha");
  const double beta = ctx.attrs().get_float("beta");
  const double norm = ctx.attrs().get_float("norm_coefficient");
  const std::string mode = ctx.attrs().get_string("mode");
  if (mode != "standard" && mode != "nesterov")
    ctx.fail("mode must be standard or nesterov, got \"" + mode + "\"");
  const bool nesterov = mode == "nesterov";
  training::run_optimizer(ctx, 3, [&](double r, int64_t t, const double* in, double* out) {
    const double x = in[0], g = norm * x + in[1];
    const double v = alpha * in[2] + (t > 0 ? beta : 1.0) * g;
    out[0] = nesterov ? x - r * (g + alpha * v) : x - r * v;
    out[1] = v;
  });
}

}  // namespace

void define_training_Momentum(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("alpha", AttrType::f)
      .attr_required("beta", AttrType::f)
      .attr_required("mode", AttrType::s)
      .attr_required("norm_coefficient", AttrType::f)
      .input("R", "T1")
      .input("T", "T2")
      .input_variadic("inputs", "T3", 1, false)
      .output_variadic("outputs", "T3", 1, false)
      .constraint("T1", {"tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"})
      .constraint("T3", {"tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_momentum).kernel(momentum_kernel);
}

}  // namespace onnxtool::ops
