// SPDX-License-Identifier: Apache-2.0
// Compress: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// The number of selected slices, when the condition is a known constant.
std::optional<int64_t> selected_count(const InferContext& ctx) {
  const Tensor* c = ctx.input_constant(1);
  if (!c) return std::nullopt;
  int64_t n = 0;
  for (int64_t i = 0; i < c->numel(); ++i) n += element_as_double(*c, i) != 0;
  return n;
}

// With axis: the input's shape with the axis dim the number of true conditions; without:
// 1-D.
void infer_compress(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  const Dims* cond = input_shape(ctx, 1);
  if (cond && cond->size() != 1) infer_fail("condition must be 1-D, got " + dims_to_string(*cond));
  const auto count = selected_count(ctx);
  const Dim n = count ? Dim::value(*count) : Dim();
  if (!count) ctx.explain(0, "the output's size depends on the condition's values");
  if (!ctx.attrs().has("axis")) {
    set_output_tensor(ctx, 0, elem, Dims{n});
    return;
  }
  if (!in) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const int64_t attr = ctx.attrs().get_int("axis");
  if (since(ctx) < 11 && attr < 0) infer_fail("axis must not be negative before Compress-11");
  const int64_t axis = normalize_axis(attr, static_cast<int64_t>(in->size()));
  Dims out = *in;
  out[static_cast<std::size_t>(axis)] = n;
  set_output_tensor(ctx, 0, elem, out);
}

// The slices along the axis whose condition is true, each one block copy.
void compress_kernel(KernelContext& ctx) {
  const Tensor& in = ctx.input(0);
  const Tensor& cond = ctx.input(1);
  if (cond.rank() != 1) ctx.fail("condition must be 1-D, got " + shape_to_string(cond.shape()));
  const bool has_axis = ctx.attrs().has("axis");
  const Tensor x = has_axis ? in : in.reshaped({in.numel()});
  int64_t attr = has_axis ? ctx.attrs().get_int("axis") : 0;
  if (since(ctx) < 11 && attr < 0) ctx.fail("axis must not be negative before Compress-11");
  if (x.rank() == 0) ctx.fail("cannot compress a scalar along an axis");
  const auto axis = static_cast<std::size_t>(kernel_axis(ctx, attr, x.rank()));
  const int64_t dim = x.shape()[axis];
  std::vector<int64_t> picked;
  for (int64_t i = 0; i < cond.numel(); ++i) {
    if (element_as_double(cond, i) == 0) continue;
    if (i >= dim)
      ctx.fail("condition[" + std::to_string(i) + "] is true but axis " + std::to_string(axis) +
               " has only " + std::to_string(dim) + " elements");
    picked.push_back(i);
  }
  Shape out = x.shape();
  out[axis] = static_cast<int64_t>(picked.size());
  Tensor& y = ctx.output(0, x.dtype(), out);
  const int64_t outer = shape_product(x.shape(), 0, axis),
                inner = shape_product(x.shape(), axis + 1);
  const auto n = static_cast<int64_t>(picked.size());
  for (int64_t o = 0; o < outer; ++o)
    for (int64_t j = 0; j < n; ++j)
      copy_elements(x, (o * dim + picked[static_cast<std::size_t>(j)]) * inner, y,
                    (o * n + j) * inner, inner);
}

}  // namespace

void define_Compress(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .attr_optional("axis", AttrType::i)
      .input("input", "T")
      .input("condition", "T1")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("T1", {"tensor(bool)"});
  op.since(11)
      .attr_optional("axis", AttrType::i)
      .input("input", "T", D::differentiable)
      .input("condition", "T1", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("T1", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_compress).kernel(compress_kernel);
  op.at(11).downgrade(convert::nonnegative_axes("axis"));
}

}  // namespace onnxtool::ops
