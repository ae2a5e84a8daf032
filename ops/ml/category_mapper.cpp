// SPDX-License-Identifier: Apache-2.0
// CategoryMapper: the ai.onnx.ml operator. Maps strings to integers (string input) or integers
// to strings (int64 input) through the parallel lists cats_strings and cats_int64s; values not
// found give default_int64 or default_string.
#include <unordered_map>

#include "ops/ml/ml_common.h"

namespace onnxtool::ops {

namespace {

void infer_category_mapper(InferContext& ctx) {
  const int32_t in = ctx.input_elem_type(0);
  const auto s = static_cast<int32_t>(DataType::string), i = static_cast<int32_t>(DataType::int64);
  propagate_shape(ctx, 0, 0, in == 0 ? 0 : in == s ? i : s);
}

void category_mapper_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const std::vector<std::string> strings = ctx.attrs().get_strings("cats_strings", {});
  const std::vector<int64_t> ints = ctx.attrs().get_ints("cats_int64s", {});
  if (strings.size() != ints.size())
    ctx.fail("cats_strings and cats_int64s must have the same length");
  if (x.dtype() == DataType::string) {
    std::unordered_map<std::string, int64_t> map;
    for (std::size_t i = 0; i < strings.size(); ++i) map.emplace(strings[i], ints[i]);
    const int64_t def = ctx.attrs().get_int("default_int64", -1);
    std::vector<int64_t> out;
    for (const std::string& v : x.strings()) {
      const auto it = map.find(v);
      out.push_back(it == map.end() ? def : it->second);
    }
    ctx.set_output(0, Tensor::from_vector<int64_t>(x.shape(), out));
    return;
  }
  if (x.dtype() != DataType::int64) ctx.fail("X must be string or int64");
  std::unordered_map<int64_t, std::string> map;
  for (std::size_t i = 0; i < ints.size(); ++i) map.emplace(ints[i], strings[i]);
  const std::string def = ctx.attrs().get_string("default_string", "_Unused");
  std::vector<std::string> out;
  for (int64_t v : x.span<int64_t>()) {
    const auto it = map.find(v);
    out.push_back(it == map.end() ? def : it->second);
  }
  ctx.set_output(0, Tensor::from_strings(x.shape(), std::move(out)));
}

}  // namespace

void define_ml_CategoryMapper(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("cats_int64s", AttrType::ints)
      .attr_optional("cats_strings", AttrType::strings)
      .attr("default_int64", AttrType::i, int64_t{-1})
      .attr("default_string", AttrType::s, "_Unused")
      .input("X", "T1")
      .output("Y", "T2")
      .constraint("T1", {"tensor(string)", "tensor(int64)"})
      .constraint("T2", {"tensor(string)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_category_mapper).kernel(category_mapper_kernel);
}

}  // namespace onnxtool::ops
