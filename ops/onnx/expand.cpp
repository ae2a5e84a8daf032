// SPDX-License-Identifier: Apache-2.0
// Expand: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// Expand: the input broadcast (both ways, numpy-style) with the target shape's values.
void infer_expand(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  const auto target = input_dims_values(ctx, 1);
  if (!target) {
    const Dims* s = input_shape(ctx, 1);
    if (in && s && s->size() == 1 && (*s)[0].is_known())
      set_output_tensor(ctx, 0, elem,
                        Dims(std::max(in->size(), static_cast<std::size_t>((*s)[0].value()))));
    else
      set_output_tensor(ctx, 0, elem);
    ctx.explain(0, "the target shape's values are not known");
    return;
  }
  if (!in) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const Dims out = broadcast_shapes(*in, dims_from_values(*target));
  set_output_tensor(ctx, 0, elem, out);
  // A single value expanded to a short vector (a vector of ones for a later Expand, say).
  const auto v = input_dims_values(ctx, 0);
  if (v && v->size() == 1 && out.size() == 1 && out[0].is_known() && out[0].value() <= 64)
    set_values(ctx, 0, Dims(static_cast<std::size_t>(out[0].value()), (*v)[0]), false);
  else if (v && out.size() <= 1 && in->size() == out.size() && v->size() > 1)
    propagate_values(ctx, 0, 0);
}

// One strided copy: broadcast dims read with stride 0. An unchanged shape is a view.
void expand_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const std::vector<int64_t> target = read_ints(ctx, ctx.input(1), "shape");
  const std::size_t rank = std::max(target.size(), x.shape().size());
  Shape out(rank);
  Layout from{0, std::vector<int64_t>(rank, 0)};
  const auto in_strides = contiguous_strides(x.shape());
  for (std::size_t k = 0; k < rank; ++k) {
    const std::size_t back = rank - 1 - k;
    const int64_t a = back < x.shape().size() ? x.shape()[x.shape().size() - 1 - back] : 1;
    const int64_t b = back < target.size() ? target[target.size() - 1 - back] : 1;
    if (a != b && a != 1 && b != 1)
      ctx.fail("cannot broadcast input " + shape_to_string(x.shape()) + " to shape " +
               shape_to_string(target) + ": dim " + std::to_string(a) + " against " +
               std::to_string(b));
    out[k] = a == 1 ? b : a;
    if (back < x.shape().size() && a != 1)
      from.strides[k] = in_strides[x.shape().size() - 1 - back];
  }
  if (shape_product(out) == x.numel()) {
    ctx.set_output(0, Value(x.reshaped(out)));
    return;
  }
  Tensor& y = ctx.output(0, x.dtype(), out);
  strided_copy(x, from, y, Layout{0, contiguous_strides(out)}, out, &ctx);
}

}  // namespace

void define_Expand(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(8)
      .input("input", "T")
      .input("shape", "tensor(int64)")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .input("input", "T", D::differentiable)
      .input("shape", "tensor(int64)", D::non_differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(infer_expand).kernel(expand_kernel);
}

}  // namespace onnxtool::ops
