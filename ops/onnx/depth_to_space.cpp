// SPDX-License-Identifier: Apache-2.0
// DepthToSpace: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// [N, C, H, W] -> [N, C/(b*b), H*b, W*b].
void infer_depth_to_space(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  const int64_t b = ctx.attrs().get_int("blocksize");
  if (b <= 0) infer_fail("blocksize must be positive, got " + std::to_string(b));
  if (!in) {
    set_output_tensor(ctx, 0, elem, Dims(4));
    return;
  }
  if (in->size() != 4) infer_fail("the input must be 4-D, got " + dims_to_string(*in));
  const Dim& c = (*in)[1];
  if (c.is_known() && c.value() % (b * b) != 0)
    infer_fail("channels " + std::to_string(c.value()) +
               " are not divisible by blocksize^2 = " + std::to_string(b * b));
  const Dim bd = Dim::value(b);
  set_output_tensor(ctx, 0, elem,
                    Dims{(*in)[0], exact_div(c, Dim::value(b * b)).value_or(Dim()), (*in)[2] * bd,
                         (*in)[3] * bd});
}

// A reshape and a transpose: one strided copy over the output order [N, C', H, b, W, b].
void depth_to_space_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const int64_t b = ctx.attrs().get_int("blocksize");
  if (x.rank() != 4) ctx.fail("the input must be 4-D, got " + shape_to_string(x.shape()));
  if (b <= 0 || x.shape()[1] % (b * b) != 0)
    ctx.fail("channels " + std::to_string(x.shape()[1]) +
             " are not divisible by blocksize^2 (blocksize " + std::to_string(b) + ")");
  const int64_t n = x.shape()[0], c = x.shape()[1] / (b * b), h = x.shape()[2], w = x.shape()[3];
  const bool crd = since(ctx) >= 11 && ctx.attrs().get_string("mode", "DCR") == "CRD";
  // Input strides of N, C', b (rows), b (columns), H, W in the mode's channel order.
  const int64_t hw = h * w;
  const std::vector<int64_t> strides =
      crd ? std::vector<int64_t>{c * b * b * hw, b * b * hw, w, b * hw, 1, hw}
          : std::vector<int64_t>{c * b * b * hw, hw, w, b * c * hw, 1, c * hw};
  const Shape iter{n, c, h, b, w, b};
  Tensor& y = ctx.output(0, x.dtype(), {n, c, h * b, w * b});
  strided_copy(x, Layout{0, strides}, y, Layout{0, contiguous_strides(iter)}, iter, &ctx);
}

}  // namespace

void define_DepthToSpace(OpDef& op) {
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
  op.since(11)
      .attr_required("blocksize", AttrType::i)
      .attr("mode", AttrType::s, "DCR")
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .attr_required("blocksize", AttrType::i)
      .attr("mode", AttrType::s, "DCR")
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
  op.all().infer(infer_depth_to_space).kernel(depth_to_space_kernel);
}

}  // namespace onnxtool::ops
