// SPDX-License-Identifier: Apache-2.0
// ZipMap: the ai.onnx.ml operator. Each row of X ([N, C] or [C]) becomes a map from the C class
// labels (strings or int64s) to the row's values; the result is the sequence of the N maps.
#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

void infer_zip_map(InferContext& ctx) {
  const bool strings = ctx.attrs().has("classlabels_strings");
  const auto key = static_cast<int32_t>(strings ? DataType::string : DataType::int64);
  ctx.set_output_type(
      0, Type::sequence(Type::map(key, Type::tensor(static_cast<int32_t>(DataType::float32)))));
}

void zip_map_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.dtype() != DataType::float32) ctx.fail("X must be float");
  const ml::Features f = ml::read_features(ctx, x);
  const ml::Labels labels = ml::read_labels(ctx, "classlabels_int64s", "classlabels_strings");
  if (static_cast<int64_t>(labels.size()) != f.cols)
    ctx.fail(std::to_string(labels.size()) + " class labels for " + std::to_string(f.cols) +
             " columns");
  const Tensor keys = labels.is_string ? Tensor::from_strings({f.cols}, labels.strings)
                                       : Tensor::from_vector<int64_t>({f.cols}, labels.ints);
  std::vector<Value> maps;
  for (int64_t r = 0; r < f.rows; ++r) {
    std::vector<float> v(f.row(r), f.row(r) + f.cols);
    maps.push_back(Value::map(keys, Tensor::from_vector<float>({f.cols}, v)));
  }
  ctx.set_output(0, Value::sequence(std::move(maps)));
}

}  // namespace

void define_ml_ZipMap(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("classlabels_int64s", AttrType::ints)
      .attr_optional("classlabels_strings", AttrType::strings)
      .input("X", "tensor(float)")
      .output("Z", "T")
      .constraint("T", {"seq(map(string, float))", "seq(map(int64, float))"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_zip_map).kernel(zip_map_kernel);
}

}  // namespace onnxtool::ops
