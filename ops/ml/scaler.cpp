// SPDX-License-Identifier: Apache-2.0
// Scaler: the ai.onnx.ml operator. Y = (X - offset) * scale, per feature (last axis) or with one
// value for all, as float.
#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

void infer_scaler(InferContext& ctx) {
  propagate_shape(ctx, 0, 0, static_cast<int32_t>(DataType::float32));
}

void scaler_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const std::vector<float> offset = ctx.attrs().get_floats("offset", {});
  const std::vector<float> scale = ctx.attrs().get_floats("scale", {});
  const int64_t features = x.rank() == 0 ? 1 : x.shape().back();
  for (const auto* v : {&offset, &scale})
    if (v->size() > 1 && static_cast<int64_t>(v->size()) != features)
      ctx.fail("offset and scale must have 1 or " + std::to_string(features) + " values");
  std::vector<double> y = misc::values_as<double>(ctx, x, "X");
  for (std::size_t i = 0; i < y.size(); ++i) {
    const std::size_t f = features > 0 ? i % static_cast<std::size_t>(features) : 0;
    const double o = offset.empty() ? 0.0 : offset[offset.size() == 1 ? 0 : f];
    const double s = scale.empty() ? 1.0 : scale[scale.size() == 1 ? 0 : f];
    y[i] = (y[i] - o) * s;
  }
  misc::write_output<double>(ctx, 0, DataType::float32, x.shape(), y);
}

}  // namespace

void define_ml_Scaler(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("offset", AttrType::floats)
      .attr_optional("scale", AttrType::floats)
      .input("X", "T")
      .output("Y", "tensor(float)")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_scaler).kernel(scaler_kernel);
}

}  // namespace onnxtool::ops
