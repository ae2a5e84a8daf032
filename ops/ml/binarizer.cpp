// SPDX-License-Identifier: Apache-2.0
// Binarizer: the ai.onnx.ml operator. 1 where X > threshold, else 0, in X's type and shape.
#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

void binarizer_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const double threshold = ctx.attrs().get_float("threshold", 0.0f);
  std::vector<double> v = misc::values_as<double>(ctx, x, "X");
  for (double& e : v) e = e > threshold ? 1.0 : 0.0;
  misc::write_output<double>(ctx, 0, x.dtype(), x.shape(), v);
}

}  // namespace

void define_ml_Binarizer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("threshold", AttrType::f, 0.0f)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(same_as_input()).kernel(binarizer_kernel);
}

}  // namespace onnxtool::ops
