// SPDX-License-Identifier: Apache-2.0
// SpaceToDepth: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// [N, C, H, W] -> [N, C*b*b, H/b, W/b].
void infer_space_to_depth(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  const int64_t b = ctx.attrs().get_int("blocksize");
  if (b <= 0) infer_fail("blocksize must be positive, got " + std::to_string(b));
  if (!in) {
    set_output_tensor(ctx, 0, elem, Dims(4));
    return;
  }
  if (in->size() != 4) infer_fail("the input must be 4-D, got " + dims_to_string(*in));
  const Dim bd = Dim::value(b);
  for (std::size_t k = 2; k < 4; ++k)
    if ((*in)[k].is_known() && (*in)[k].value() % b != 0)
      infer_fail("spatial dim " + std::to_string((*in)[k].value()) +
                 " is not divisible by blocksize " + std::to_string(b));
  set_output_tensor(
      ctx, 0, elem,
      Dims{(*in)[0], (*in)[1] * Dim::value(b * b), exact_div((*in)[2], bd).value_or(Dim()),
           exact_div((*in)[3], bd).value_or(Dim())});
}

// A reshape and a transpose: one strided copy over the output order [N, b, b, C, H/b, W/b].
void space_to_depth_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const int64_t b = ctx.attrs().get_int("blocksize");
  if (x.rank() != 4) ctx.fail("the input must be 4-D, got " + shape_to_string(x.shape()));
  const int64_t n = x.shape()[0], c = x.shape()[1], h = x.shape()[2], w = x.shape()[3];
  if (b <= 0 || h % b != 0 || w % b != 0)
    ctx.fail("spatial dims " + std::to_string(h) + "x" + std::to_string(w) +
             " are not divisible by blocksize " + std::to_string(b));
  const Shape iter{n, b, b, c, h / b, w / b};
  const std::vector<int64_t> strides{c * h * w, w, 1, h * w, b * w, b};
  Tensor& y = ctx.output(0, x.dtype(), {n, c * b * b, h / b, w / b});
  strided_copy(x, Layout{0, strides}, y, Layout{0, contiguous_strides(iter)}, iter, &ctx);
}

}  // namespace

void define_SpaceToDepth(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("blocksize", AttrType::i)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .attr_required("blocksize", AttrType::i)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(infer_space_to_depth).kernel(space_to_depth_kernel);
}

}  // namespace onnxtool::ops
