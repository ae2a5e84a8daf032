// SPDX-License-Identifier: Apache-2.0
// Squeeze: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// Axes come from the attribute before version 13 and from the optional input from then on;
// Squeeze-1 accepts only non-negative axes.
void infer_squeeze(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  const AxesArg axes = axes_attr_or_input(ctx, since(ctx) >= 13, 1);
  if (!in || (axes.given && !axes.values)) {
    set_output_tensor(ctx, 0, elem);
    ctx.explain(0, in ? "the axes' values are not known" : "the input's rank is unknown");
    return;
  }
  Dims out;
  if (axes.given) {
    const auto norm = infer_axes(*axes.values, static_cast<int64_t>(in->size()), since(ctx) >= 11);
    for (std::size_t k = 0; k < in->size(); ++k) {
      const bool squeezed = std::find(norm.begin(), norm.end(), k) != norm.end();
      const Dim& d = (*in)[k];
      if (squeezed && d.is_known() && d.value() != 1)
        infer_fail("cannot squeeze axis " + std::to_string(k) + ": its dim is " +
                   std::to_string(d.value()) + ", not 1");
      if (!squeezed) out.push_back(d);
    }
  } else {
    for (const Dim& d : *in) {
      if (!d.is_known()) {
        set_output_tensor(ctx, 0, elem);
        ctx.explain(0, "without axes, whether dim " + d.to_string() + " is 1 is not known");
        return;
      }
      if (d.value() != 1) out.push_back(d);
    }
  }
  set_output_tensor(ctx, 0, elem, out);
  propagate_values(ctx, 0, 0);
}

// A view: only the shape changes.
void squeeze_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  std::vector<int64_t> axes;
  bool given = false;
  if (since(ctx) < 13) {
    given = ctx.attrs().has("axes");
    if (given) axes = ctx.attrs().get_ints("axes");
  } else if (ctx.num_inputs() > 1 && ctx.has_input(1)) {
    given = true;
    axes = read_ints(ctx, ctx.input(1), "axes");
  }
  std::vector<bool> drop(static_cast<std::size_t>(x.rank()), false);
  if (given) {
    for (int64_t a : kernel_axes(ctx, axes, x.rank(), since(ctx) >= 11)) {
      if (x.shape()[static_cast<std::size_t>(a)] != 1)
        ctx.fail("cannot squeeze axis " + std::to_string(a) + " of shape " +
                 shape_to_string(x.shape()) + ": its dim is not 1");
      drop[static_cast<std::size_t>(a)] = true;
    }
  } else {
    for (std::size_t k = 0; k < drop.size(); ++k) drop[k] = x.shape()[k] == 1;
  }
  Shape out;
  for (std::size_t k = 0; k < drop.size(); ++k)
    if (!drop[k]) out.push_back(x.shape()[k]);
  ctx.set_output(0, Value(x.reshaped(out)));
}

}  // namespace

void define_Squeeze(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axes", AttrType::ints)
      .input("data", "T")
      .output("squeezed", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(11)
      .attr_optional("axes", AttrType::ints)
      .input("data", "T")
      .output("squeezed", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .input("data", "T", D::differentiable)
      .input_optional("axes", "tensor(int64)", D::non_differentiable)
      .output("squeezed", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(21)
      .input("data", "T", D::differentiable)
      .input_optional("axes", "tensor(int64)", D::non_differentiable)
      .output("squeezed", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .input("data", "T", D::differentiable)
      .input_optional("axes", "tensor(int64)", D::non_differentiable)
      .output("squeezed", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)"});
  op.since(24)
      .input("data", "T", D::differentiable)
      .input_optional("axes", "tensor(int64)", D::non_differentiable)
      .output("squeezed", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)"});
  op.since(25)
      .input("data", "T", D::differentiable)
      .input_optional("axes", "tensor(int64)", D::non_differentiable)
      .output("squeezed", "T", D::differentiable)
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
  op.all().infer(infer_squeeze).kernel(squeeze_kernel);
  // Version 11 counts negative axes from the end; 13 takes the axes as an input.
  op.at(11).downgrade(convert::nonnegative_axes("axes"));
  op.at(13)
      .upgrade(convert::attribute_to_input("axes", 1))
      .downgrade(convert::input_to_attribute("axes", 1));
}

}  // namespace onnxtool::ops
