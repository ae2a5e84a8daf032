// SPDX-License-Identifier: Apache-2.0
// OneHotEncoder: the ai.onnx.ml operator. Each element becomes a vector with a 1 at its
// category's position among cats_strings or cats_int64s (numbers are cast to integers first):
// Y has X's shape plus one dim of the category count. An unknown category gives zeros, or fails
// when `zeros` is 0.
#include <cmath>
#include <unordered_map>

#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

int64_t category_count(const AttrView& a) {
  return static_cast<int64_t>(
      std::max(a.get_strings("cats_strings", {}).size(), a.get_ints("cats_int64s", {}).size()));
}

void infer_one_hot_encoder(InferContext& ctx) {
  const Dims* x = misc::input_dims(ctx, 0);
  const auto f = static_cast<int32_t>(DataType::float32);
  if (!x) {
    set_output_tensor(ctx, 0, f);
    return;
  }
  Dims y = *x;
  y.push_back(Dim::value(category_count(ctx.attrs())));
  set_output_tensor(ctx, 0, f, y);
}

void one_hot_encoder_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const bool zeros = ctx.attrs().get_int("zeros", 1) != 0;
  const int64_t n = category_count(ctx.attrs());
  std::vector<int64_t> at(static_cast<std::size_t>(x.numel()), -1);
  if (x.dtype() == DataType::string) {
    std::unordered_map<std::string, int64_t> cats;
    const auto s = ctx.attrs().get_strings("cats_strings", {});
    for (std::size_t i = 0; i < s.size(); ++i) cats.emplace(s[i], static_cast<int64_t>(i));
    for (std::size_t i = 0; i < at.size(); ++i) {
      const auto it = cats.find(x.strings()[i]);
      if (it != cats.end()) at[i] = it->second;
    }
  } else {
    std::unordered_map<int64_t, int64_t> cats;
    const auto c = ctx.attrs().get_ints("cats_int64s", {});
    for (std::size_t i = 0; i < c.size(); ++i) cats.emplace(c[i], static_cast<int64_t>(i));
    const std::vector<double> v = misc::values_as<double>(ctx, x, "X");
    for (std::size_t i = 0; i < at.size(); ++i) {
      if (std::isnan(v[i])) continue;
      const auto it = cats.find(static_cast<int64_t>(v[i]));
      if (it != cats.end()) at[i] = it->second;
    }
  }
  Shape shape = x.shape();
  shape.push_back(n);
  Tensor& y = ctx.output(0, DataType::float32, shape);
  float* out = y.mutable_data<float>();
  for (std::size_t i = 0; i < at.size(); ++i) {
    if (at[i] < 0) {
      if (!zeros) ctx.fail("element " + std::to_string(i) + " is not one of the categories");
      continue;
    }
    out[static_cast<int64_t>(i) * n + at[i]] = 1.0f;
  }
}

}  // namespace

void define_ml_OneHotEncoder(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("cats_int64s", AttrType::ints)
      .attr_optional("cats_strings", AttrType::strings)
      .attr("zeros", AttrType::i, int64_t{1})
      .input("X", "T")
      .output("Y", "tensor(float)")
      .constraint("T", {"tensor(string)", "tensor(int64)", "tensor(int32)", "tensor(float)",
                        "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_one_hot_encoder).kernel(one_hot_encoder_kernel);
}

}  // namespace onnxtool::ops
