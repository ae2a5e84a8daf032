// SPDX-License-Identifier: Apache-2.0
// Normalizer: the ai.onnx.ml operator. Each row divided by its max (MAX), its sum of absolute
// values (L1) or its Euclidean norm (L2); a row whose divisor is 0 is left as it is.
#include <cmath>

#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

void infer_normalizer(InferContext& ctx) {
  propagate_shape(ctx, 0, 0, static_cast<int32_t>(DataType::float32));
}

void normalizer_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  ml::Features f = ml::read_features(ctx, x);
  const std::string norm = ctx.attrs().get_string("norm", "MAX");
  if (norm != "MAX" && norm != "L1" && norm != "L2")
    ctx.fail("norm must be MAX, L1 or L2, got \"" + norm + "\"");
  for (int64_t r = 0; r < f.rows; ++r) {
    double* row = f.values.data() + r * f.cols;
    double d = 0;
    if (norm == "MAX") {
      d = f.cols > 0 ? row[0] : 0;
      for (int64_t c = 1; c < f.cols; ++c) d = std::max(d, row[c]);
    } else {
      for (int64_t c = 0; c < f.cols; ++c) d += norm == "L1" ? std::abs(row[c]) : row[c] * row[c];
      if (norm == "L2") d = std::sqrt(d);
    }
    if (d == 0) continue;
    for (int64_t c = 0; c < f.cols; ++c) row[c] /= d;
  }
  misc::write_output<double>(ctx, 0, DataType::float32, x.shape(), f.values);
}

}  // namespace

void define_ml_Normalizer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("norm", AttrType::s, "MAX")
      .input("X", "T")
      .output("Y", "tensor(float)")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_normalizer).kernel(normalizer_kernel);
}

}  // namespace onnxtool::ops
