// SPDX-License-Identifier: Apache-2.0
// RMSNormalization: the ai.onnx operator. X seen as [prod(dims[:axis]), prod(dims[axis:])];
// y = x / sqrt(mean of the row's squares + epsilon) * scale, in scale's element type.
#include "core/infer/helpers.h"
#include "ops/onnx/nn_common.h"
#include "ops/onnx/norm_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

void infer_rms_norm(InferContext& ctx) {
  const Type& x = ctx.input_type(0);
  if (x.has_shape()) ctx.normalize_axis(ctx.attrs().get_int("axis", -1), x.rank());
  set_output_tensor(ctx, 0, ctx.input_elem_type(1), x.shape);
}

void rms_norm_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& scale = ctx.input(1);
  const int64_t axis = nn::kernel_axis(ctx, ctx.attrs().get_int("axis", -1), x.rank());
  const Shape normalized(x.shape().begin() + axis, x.shape().end());
  nn::RowNorm spec;
  spec.rows = nn::product(x.shape(), 0, static_cast<std::size_t>(axis));
  spec.cols = nn::product(normalized, 0, normalized.size());
  spec.epsilon = ctx.attrs().get_float("epsilon", 1e-5f);
  spec.center = false;
  const auto s = nn::broadcast_values(ctx, scale, normalized, "scale");
  Tensor& y = ctx.output(0, scale.dtype(), x.shape());
  if (x.numel() > 0) nn::normalize_rows(ctx, x, y, spec, s, {});
}

}  // namespace

void define_RMSNormalization(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(23)
      .is_function({23})
      .attr("axis", AttrType::i, int64_t{-1})
      .attr("epsilon", AttrType::f, 1e-05f)
      .attr("stash_type", AttrType::i, int64_t{1})
      .input("X", "T")
      .input("scale", "V")
      .output("Y", "V")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"})
      .constraint("V", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_rms_norm).kernel(rms_norm_kernel);
}

}  // namespace onnxtool::ops
