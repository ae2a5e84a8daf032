// SPDX-License-Identifier: Apache-2.0
// Upsample: the ai.onnx operator.
#include <cmath>

#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// The scales by version: height_scale/width_scale on a 4-D input (1), the `scales`
// attribute (7), the `scales` input (9).
std::optional<std::vector<double>> infer_scales(const InferContext& ctx, std::size_t rank) {
  const int version = since(ctx);
  if (version == 1) {
    if (rank != 4) infer_fail("Upsample-1 needs a 4-D input");
    return std::vector<double>{1, 1, ctx.attrs().get_float("height_scale"),
                               ctx.attrs().get_float("width_scale")};
  }
  if (version == 7) {
    const auto f = ctx.attrs().get_floats("scales");
    return std::vector<double>(f.begin(), f.end());
  }
  const Tensor* t = ctx.input_constant(1);
  if (!t) return std::nullopt;
  std::vector<double> v;
  for (int64_t i = 0; i < t->numel(); ++i) v.push_back(element_as_double(*t, i));
  return v;
}

// Each dim is floor(dim * scale); a symbolic dim keeps a whole scale (N*2).
void infer_upsample(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  if (!in) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const auto scales = infer_scales(ctx, in->size());
  if (!scales) {
    set_output_tensor(ctx, 0, elem, Dims(in->size()));
    ctx.explain(0, "the scales are not known");
    return;
  }
  if (scales->size() != in->size())
    infer_fail("scales has " + std::to_string(scales->size()) + " entries but the input has rank " +
               std::to_string(in->size()));
  Dims out;
  for (std::size_t k = 0; k < in->size(); ++k) {
    const Dim& d = (*in)[k];
    const double s = (*scales)[k];
    if (!(s >= 1)) infer_fail(indexed("scales", k) + " = " + std::to_string(s) + " is below 1");
    if (d.is_known()) {
      const auto extent = scaled_extent(s, d.value());
      if (!extent) infer_fail(indexed("scales", k) + " = " + std::to_string(s) + " is too large");
      out.push_back(Dim::value(*extent));
    } else
      out.push_back(s == std::floor(s) && s < 1e6 ? d * Dim::value(static_cast<int64_t>(s))
                                                  : Dim());
  }
  set_output_tensor(ctx, 0, elem, out);
}

// Resize with asymmetric coordinates: nearest takes floor(x / scale), linear interpolates
// between neighbours (the last one repeated at the edge).
void upsample_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const int version = since(ctx);
  std::vector<double> scales;
  if (version == 1) {
    if (x.rank() != 4) ctx.fail("Upsample-1 needs a 4-D input, got " + shape_to_string(x.shape()));
    scales = {1, 1, ctx.attrs().get_float("height_scale"), ctx.attrs().get_float("width_scale")};
  } else if (version == 7) {
    const auto f = ctx.attrs().get_floats("scales");
    scales.assign(f.begin(), f.end());
  } else {
    const Tensor& t = ctx.input(1);
    for (int64_t i = 0; i < t.numel(); ++i) scales.push_back(element_as_double(t, i));
  }
  if (static_cast<int64_t>(scales.size()) != x.rank())
    ctx.fail("scales has " + std::to_string(scales.size()) + " entries but the input has rank " +
             std::to_string(x.rank()));
  const std::string mode = ctx.attrs().get_string("mode", "nearest");
  ResizeSpec s;
  if (mode == "linear" || (version == 1 && mode == "bilinear"))
    s.mode = ResizeMode::linear;
  else if (mode != "nearest")
    ctx.fail("mode \"" + mode + "\" is not nearest or " + (version == 1 ? "bilinear" : "linear"));
  s.scales = scales;
  for (std::size_t k = 0; k < scales.size(); ++k) {
    if (!(scales[k] >= 1))
      ctx.fail(indexed("scales", k) + " = " + std::to_string(scales[k]) + " is below 1");
    const auto extent = scaled_extent(scales[k], x.shape()[k]);
    if (!extent)
      ctx.fail(indexed("scales", k) + " = " + std::to_string(scales[k]) + " is too large");
    s.out.push_back(*extent);
  }
  s.roi_start.assign(scales.size(), 0.0);
  s.roi_end.assign(scales.size(), 1.0);
  resize_into(ctx, x, s);
}

// ---- version adapters --------------------------------------------------------------------

void upsample_scales_to_input(AdapterContext& ctx) {
  const auto scales = ctx.floats_attribute("scales");
  if (!scales) return;
  const std::string name =
      ctx.add_constant(ctx.name_base() + "_scales",
                       Tensor::from_vector<float>({static_cast<int64_t>(scales->size())}, *scales));
  ctx.remove_attribute("scales");
  ctx.set_input(1, name);
  ctx.describe("scales: attribute -> input");
}

void upsample_scales_to_attribute(AdapterContext& ctx) {
  const auto t = ctx.constant_input(1);
  if (!t || t->dtype() != DataType::float32)
    ctx.refuse("scales (input 1) is computed when the model runs, and " + ctx.to().id() +
               " takes it as an attribute");
  ctx.set_attribute("scales", std::vector<float>(t->data<float>(), t->data<float>() + t->numel()));
  ctx.truncate_inputs(1);
  ctx.describe("scales: input -> attribute");
}

void upsample_hw_to_scales(AdapterContext& ctx) {
  const float h = ctx.float_attribute("height_scale").value_or(1.0f);
  const float w = ctx.float_attribute("width_scale").value_or(1.0f);
  ctx.remove_attribute("height_scale");
  ctx.remove_attribute("width_scale");
  ctx.set_attribute("scales", std::vector<float>{1.0f, 1.0f, h, w});
  ctx.describe("height_scale, width_scale -> scales [1,1,h,w]");
}

void upsample_scales_to_hw(AdapterContext& ctx) {
  const auto scales = ctx.floats_attribute("scales");
  if (!scales || scales->size() != 4 || (*scales)[0] != 1.0f || (*scales)[1] != 1.0f)
    ctx.refuse(ctx.to().id() + " scales only the last two dims of a 4-D input");
  ctx.remove_attribute("scales");
  ctx.set_attribute("height_scale", (*scales)[2]);
  ctx.set_attribute("width_scale", (*scales)[3]);
  ctx.describe("scales -> height_scale, width_scale");
}

// Resize-10 is Upsample-9 under its new name.
void upsample_to_resize(AdapterContext& ctx) {
  ctx.set_op_type("Resize");
  ctx.describe("Upsample -> Resize (the same inputs and modes)");
}

}  // namespace

void define_Upsample(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .experimental()
      .attr_required("height_scale", AttrType::f)
      .attr("mode", AttrType::s, "nearest")
      .attr_required("width_scale", AttrType::f)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(bool)", "tensor(int32)", "tensor(int64)", "tensor(float16)",
                        "tensor(float)", "tensor(double)"});
  op.since(7)
      .attr("mode", AttrType::s, "nearest")
      .attr_required("scales", AttrType::floats)
      .input("X", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(9)
      .attr("mode", AttrType::s, "nearest")
      .input("X", "T")
      .input("scales", "tensor(float)")
      .output("Y", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(10).deprecated();
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_upsample).kernel(upsample_kernel);
  // Upsample-7 takes the scales as an attribute, 9 as an input; from 10 it is Resize, which
  // says the same with the same inputs.
  op.at(9).upgrade(upsample_scales_to_input).downgrade(upsample_scales_to_attribute);
  op.at(10).upgrade(upsample_to_resize);
  // Upsample-1 scales the last two dims of an NCHW input; from 7 every dim has a scale.
  op.at(7).upgrade(upsample_hw_to_scales).downgrade(upsample_scales_to_hw);
}

}  // namespace onnxtool::ops
