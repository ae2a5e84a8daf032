// SPDX-License-Identifier: Apache-2.0
// FeatureVectorizer: the ai.onnx.ml operator. Concatenates the inputs' rows ([N, C] or [C] as
// [1, C]) into one float [N, sum(inputdimensions)] tensor; input i takes inputdimensions[i]
// columns, cut or padded with zeros.
#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

void infer_feature_vectorizer(InferContext& ctx) {
  int64_t total = 0;
  for (int64_t d : ctx.attrs().get_ints("inputdimensions", {})) total += d;
  Dim batch;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i)
    if (ctx.has_input(i)) batch = ctx.unify_dims(batch, ml::batch_dim(ctx, i), "batch size");
  set_output_tensor(ctx, 0, static_cast<int32_t>(DataType::float32),
                    Dims{batch, Dim::value(total)});
}

void feature_vectorizer_kernel(KernelContext& ctx) {
  const std::vector<int64_t> dims = ctx.attrs().get_ints("inputdimensions", {});
  if (dims.size() != ctx.num_inputs())
    ctx.fail("inputdimensions has " + std::to_string(dims.size()) + " entries for " +
             std::to_string(ctx.num_inputs()) + " inputs");
  int64_t total = 0;
  for (int64_t d : dims) {
    if (d < 0) ctx.fail("inputdimensions must be >= 0");
    total += d;
  }
  std::vector<ml::Features> in;
  int64_t rows = -1;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    in.push_back(ml::read_features(ctx, ctx.input(i)));
    if (rows >= 0 && in.back().rows != rows) ctx.fail("the inputs have different numbers of rows");
    rows = in.back().rows;
  }
  std::vector<float> out(static_cast<std::size_t>(rows * total), 0.0f);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t at = r * total;
    for (std::size_t i = 0; i < in.size(); ++i) {
      for (int64_t c = 0; c < dims[i] && c < in[i].cols; ++c)
        out[static_cast<std::size_t>(at + c)] = static_cast<float>(in[i].row(r)[c]);
      at += dims[i];
    }
  }
  ctx.set_output(0, Tensor::from_vector<float>({rows, total}, out));
}

}  // namespace

void define_ml_FeatureVectorizer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("inputdimensions", AttrType::ints)
      .input_variadic("X", "T1", 1)
      .output("Y", "tensor(float)")
      .constraint("T1", {"tensor(int32)", "tensor(int64)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_feature_vectorizer).kernel(feature_vectorizer_kernel);
}

}  // namespace onnxtool::ops
