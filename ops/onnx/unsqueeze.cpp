// SPDX-License-Identifier: Apache-2.0
// Unsqueeze: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// The output rank is the input's plus the number of axes; axes count in the output's rank.
// Returns, per output dim, whether it is an inserted 1.
template <class Norm>
std::vector<bool> inserted(const std::vector<int64_t>& axes, int64_t in_rank, Norm&& normalize) {
  const int64_t out_rank = in_rank + static_cast<int64_t>(axes.size());
  std::vector<bool> ones(static_cast<std::size_t>(out_rank), false);
  for (int64_t a : normalize(axes, out_rank)) ones[static_cast<std::size_t>(a)] = true;
  return ones;
}

void infer_unsqueeze(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  const AxesArg axes = axes_attr_or_input(ctx, since(ctx) >= 13, 1);
  if (!axes.given) infer_fail("axes are required");
  if (!in || !axes.values) {
    set_output_tensor(ctx, 0, elem);
    ctx.explain(0, in ? "the axes' values are not known" : "the input's rank is unknown");
    return;
  }
  const bool negative_ok = since(ctx) >= 11;
  const auto ones = inserted(
      *axes.values, static_cast<int64_t>(in->size()),
      [&](const std::vector<int64_t>& a, int64_t r) { return infer_axes(a, r, negative_ok); });
  Dims out;
  std::size_t next = 0;
  for (bool one : ones) out.push_back(one ? Dim::value(1) : (*in)[next++]);
  set_output_tensor(ctx, 0, elem, out);
  if (out.size() <= 1) propagate_values(ctx, 0, 0);
}

// A view: only the shape changes.
void unsqueeze_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const std::vector<int64_t> axes =
      since(ctx) < 13 ? ctx.attrs().get_ints("axes") : read_ints(ctx, ctx.input(1), "axes");
  const bool negative_ok = since(ctx) >= 11;
  const auto ones = inserted(axes, x.rank(), [&](const std::vector<int64_t>& a, int64_t r) {
    return kernel_axes(ctx, a, r, negative_ok);
  });
  Shape out;
  std::size_t next = 0;
  for (bool one : ones) out.push_back(one ? 1 : x.shape()[next++]);
  ctx.set_output(0, Value(x.reshaped(out)));
}

}  // namespace

void define_Unsqueeze(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("axes", AttrType::ints)
      .input("data", "T")
      .output("expanded", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(11)
      .attr_required("axes", AttrType::ints)
      .input("data", "T")
      .output("expanded", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .input("data", "T", D::differentiable)
      .input("axes", "tensor(int64)", D::non_differentiable)
      .output("expanded", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(21)
      .input("data", "T", D::differentiable)
      .input("axes", "tensor(int64)", D::non_differentiable)
      .output("expanded", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .input("data", "T", D::differentiable)
      .input("axes", "tensor(int64)", D::non_differentiable)
      .output("expanded", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)"});
  op.since(24)
      .input("data", "T", D::differentiable)
      .input("axes", "tensor(int64)", D::non_differentiable)
      .output("expanded", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)"});
  op.since(25)
      .input("data", "T", D::differentiable)
      .input("axes", "tensor(int64)", D::non_differentiable)
      .output("expanded", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                        "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(infer_unsqueeze).kernel(unsqueeze_kernel);
  // Version 11 counts negative axes from the end of the output; 13 takes them as an input.
  op.at(11).downgrade(convert::nonnegative_axes("axes", 0, /*per_axis=*/true));
  op.at(13)
      .upgrade(convert::attribute_to_input("axes", 1))
      .downgrade(convert::input_to_attribute("axes", 1));
}

}  // namespace onnxtool::ops
