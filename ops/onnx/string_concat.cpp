// SPDX-License-Identifier: Apache-2.0
// StringConcat: the ai.onnx operator. Element-wise concatenation of two string tensors, with
// multidirectional broadcasting.
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void string_concat_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& y = ctx.input(1);
  if (x.dtype() != DataType::string || y.dtype() != DataType::string)
    ctx.fail("StringConcat takes string tensors");
  const misc::Broadcast2 b(ctx, x.shape(), y.shape());
  const auto& xs = x.strings();
  const auto& ys = y.strings();
  std::vector<std::string> out(static_cast<std::size_t>(b.size()));
  for (int64_t i = 0; i < b.size(); ++i)
    out[static_cast<std::size_t>(i)] =
        xs[static_cast<std::size_t>(b.a_index(i))] + ys[static_cast<std::size_t>(b.b_index(i))];
  ctx.set_output(0, Tensor::from_strings(b.shape(), std::move(out)));
}

}  // namespace

void define_StringConcat(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(20)
      .input("X", "T", D::non_differentiable)
      .input("Y", "T", D::non_differentiable)
      .output("Z", "T", D::non_differentiable)
      .constraint("T", {"tensor(string)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(broadcast_elementwise()).kernel(string_concat_kernel);
}

}  // namespace onnxtool::ops
