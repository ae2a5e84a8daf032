// SPDX-License-Identifier: Apache-2.0
// ArrayFeatureExtractor: the ai.onnx.ml operator. Selects elements of X's last axis at the
// indices Y: Z has X's shape with the last dim replaced by the number of indices ([1, n] for a
// 1-D X).
#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

void infer_array_feature_extractor(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* x = misc::input_dims(ctx, 0);
  const Dims* y = misc::input_dims(ctx, 1);
  if (!x) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const Dim count = y ? product(*y) : Dim();
  Dims out = x->size() <= 1 ? Dims{Dim::value(1), count} : *x;
  out.back() = count;
  set_output_tensor(ctx, 0, elem, out);
}

void array_feature_extractor_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& y = ctx.input(1);
  if (x.rank() < 1) ctx.fail("X must have rank >= 1");
  const std::vector<int64_t> idx = misc::values_as<int64_t>(ctx, y, "Y");
  const int64_t last = x.shape().back();
  for (int64_t i : idx)
    if (i < 0 || i >= last)
      ctx.fail("index " + std::to_string(i) + " is out of range for a last dim of " +
               std::to_string(last));
  Shape out_shape = x.rank() == 1 ? Shape{1, static_cast<int64_t>(idx.size())} : x.shape();
  out_shape.back() = static_cast<int64_t>(idx.size());
  std::vector<Tensor> columns;
  const int64_t rank = x.rank();
  for (int64_t i : idx) columns.push_back(misc::slice_range(x, rank - 1, i, 1));
  Tensor out =
      idx.empty() ? Tensor(x.dtype(), out_shape) : misc::concat_along(ctx, columns, rank - 1);
  ctx.set_output(0, out.reshaped(out_shape));
}

}  // namespace

void define_ml_ArrayFeatureExtractor(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("X", "T")
      .input("Y", "tensor(int64)")
      .output("Z", "T")
      .constraint("T", {"tensor(float)", "tensor(double)", "tensor(int64)", "tensor(int32)",
                        "tensor(string)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_array_feature_extractor).kernel(array_feature_extractor_kernel);
}

}  // namespace onnxtool::ops
