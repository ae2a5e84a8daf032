// SPDX-License-Identifier: Apache-2.0
// StringSplit: the ai.onnx operator. Splits each string on `delimiter` (or, when it is unset or
// empty, on runs of whitespace, ignoring leading and trailing whitespace: Python's str.split),
// making at most maxsplit splits. Y has one more dim than X, as long as the most pieces any
// string gave, padded with empty strings; Z counts each string's pieces.
#include <algorithm>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_string_split(InferContext& ctx) {
  const auto s = static_cast<int32_t>(DataType::string);
  const Dims* x = misc::input_dims(ctx, 0);
  if (!x) {
    set_output_tensor(ctx, 0, s);
    set_output_tensor(ctx, 1, static_cast<int32_t>(DataType::int64));
    return;
  }
  Dims y = *x;
  y.push_back(Dim());
  set_output_tensor(ctx, 0, s, y);
  ctx.explain(0, "the number of substrings depends on the strings' contents");
  set_output_tensor(ctx, 1, static_cast<int32_t>(DataType::int64), *x);
}

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

std::vector<std::string> split_whitespace(const std::string& s, int64_t maxsplit) {
  std::vector<std::string> out;
  std::size_t i = 0;
  while (true) {
    while (i < s.size() && is_space(s[i])) ++i;
    if (i == s.size()) break;
    if (maxsplit >= 0 && static_cast<int64_t>(out.size()) == maxsplit) {
      // The rest, leading whitespace dropped and trailing whitespace kept (as Python does).
      out.push_back(s.substr(i));
      break;
    }
    std::size_t j = i;
    while (j < s.size() && !is_space(s[j])) ++j;
    out.push_back(s.substr(i, j - i));
    i = j;
  }
  return out;
}

std::vector<std::string> split_on(const std::string& s, const std::string& delim,
                                  int64_t maxsplit) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (maxsplit < 0 || static_cast<int64_t>(out.size()) < maxsplit) {
    const std::size_t at = s.find(delim, start);
    if (at == std::string::npos) break;
    out.push_back(s.substr(start, at - start));
    start = at + delim.size();
  }
  out.push_back(s.substr(start));
  return out;
}

void string_split_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.dtype() != DataType::string) ctx.fail("X must be a string tensor");
  const std::string delim = ctx.attrs().get_string("delimiter", "");
  const auto maxsplit_attr = ctx.attrs().opt_int("maxsplit");
  const int64_t maxsplit = maxsplit_attr ? *maxsplit_attr : -1;
  if (maxsplit_attr && *maxsplit_attr < 0)
    ctx.fail("maxsplit must be >= 0, got " + std::to_string(*maxsplit_attr));
  std::vector<std::vector<std::string>> pieces;
  std::size_t width = 0;
  for (const std::string& s : x.strings()) {
    pieces.push_back(delim.empty() ? split_whitespace(s, maxsplit) : split_on(s, delim, maxsplit));
    width = std::max(width, pieces.back().size());
  }
  Shape y_shape = x.shape();
  y_shape.push_back(static_cast<int64_t>(width));
  std::vector<std::string> y(pieces.size() * width);
  std::vector<int64_t> z(pieces.size());
  for (std::size_t i = 0; i < pieces.size(); ++i) {
    std::move(pieces[i].begin(), pieces[i].end(),
              y.begin() + static_cast<std::ptrdiff_t>(i * width));
    z[i] = static_cast<int64_t>(pieces[i].size());
  }
  ctx.set_output(0, Tensor::from_strings(y_shape, std::move(y)));
  if (ctx.num_outputs() > 1 && ctx.has_output(1))
    ctx.set_output(1, Tensor::from_vector<int64_t>(x.shape(), z));
}

}  // namespace

void define_StringSplit(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(20)
      .attr_optional("delimiter", AttrType::s)
      .attr_optional("maxsplit", AttrType::i)
      .input("X", "T1", D::non_differentiable)
      .output("Y", "T2", D::non_differentiable)
      .output("Z", "T3", D::non_differentiable)
      .constraint("T1", {"tensor(string)"})
      .constraint("T2", {"tensor(string)"})
      .constraint("T3", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_string_split).kernel(string_split_kernel);
}

}  // namespace onnxtool::ops
