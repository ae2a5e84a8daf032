// SPDX-License-Identifier: Apache-2.0
// Imputer: the ai.onnx.ml operator. Replaces the elements equal to replaced_value_float (NaN
// matches NaN) or replaced_value_int64 with the imputed value of their feature (last axis), or
// with the single imputed value.
#include <cmath>

#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

void imputer_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const bool floating = x.dtype() == DataType::float32 || x.dtype() == DataType::float64;
  std::vector<double> imputed;
  double replaced = 0;
  if (floating) {
    const auto f = ctx.attrs().get_floats("imputed_value_floats", {});
    imputed.assign(f.begin(), f.end());
    replaced = ctx.attrs().get_float("replaced_value_float", 0.0f);
  } else {
    const auto i = ctx.attrs().get_ints("imputed_value_int64s", {});
    imputed.assign(i.begin(), i.end());
    replaced = static_cast<double>(ctx.attrs().get_int("replaced_value_int64", 0));
  }
  const int64_t features = x.rank() == 0 ? 1 : x.shape().back();
  if (imputed.size() != 1 && static_cast<int64_t>(imputed.size()) != features)
    ctx.fail("the imputed values must be 1 or " + std::to_string(features) +
             " (one per feature), got " + std::to_string(imputed.size()));
  std::vector<double> v = misc::values_as<double>(ctx, x, "X");
  const bool nan = std::isnan(replaced);
  for (std::size_t i = 0; i < v.size(); ++i)
    if (nan ? std::isnan(v[i]) : v[i] == replaced)
      v[i] = imputed.size() == 1 ? imputed[0] : imputed[i % static_cast<std::size_t>(features)];
  misc::write_output<double>(ctx, 0, x.dtype(), x.shape(), v);
}

}  // namespace

void define_ml_Imputer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("imputed_value_floats", AttrType::floats)
      .attr_optional("imputed_value_int64s", AttrType::ints)
      .attr("replaced_value_float", AttrType::f, 0.0f)
      .attr("replaced_value_int64", AttrType::i, int64_t{0})
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(same_as_input()).kernel(imputer_kernel);
}

}  // namespace onnxtool::ops
