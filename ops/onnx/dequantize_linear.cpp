// SPDX-License-Identifier: Apache-2.0
// DequantizeLinear: the ai.onnx operator. y = (x - x_zero_point) * x_scale, per tensor, per axis
// (13+) or blocked (21+); y has the scale's type (float before 19) unless output_dtype (23+)
// says otherwise.
#include "core/registry/fusion.h"
#include "ops/onnx/nn_common.h"
#include "ops/onnx/quant_common.h"

namespace onnxtool::ops {

namespace {

int32_t dequantized_type(const AttrView& attrs, int32_t scale_type, const OpVersion& schema) {
  if (schema.since < 19) return static_cast<int32_t>(DataType::float32);
  const int64_t attr = schema.since >= 23 ? attrs.get_int("output_dtype", 0) : 0;
  if (attr != 0) return static_cast<int32_t>(attr);
  // A float8e8m0 scale (24+) is not an output type: y is then float.
  if (scale_type == static_cast<int32_t>(DataType::float8e8m0))
    return static_cast<int32_t>(DataType::float32);
  return scale_type;
}

void check_output_type(int32_t t) {
  if (t != 0 && t != static_cast<int32_t>(DataType::float32) &&
      t != static_cast<int32_t>(DataType::float16) && t != static_cast<int32_t>(DataType::bfloat16))
    infer_fail("output_dtype must be float, float16 or bfloat16, got " + type_name_or_number(t));
}

void infer_dequantize_linear(InferContext& ctx) {
  const int32_t x_type = ctx.input_elem_type(0);
  if (ctx.num_inputs() > 2 && ctx.has_input(2)) {
    const int32_t z = ctx.input_elem_type(2);
    if (x_type != 0 && z != 0 && z != x_type)
      infer_fail("the zero point's type " + type_name_or_number(z) + " differs from x's " +
                 type_name_or_number(x_type));
    if (x_type == static_cast<int32_t>(DataType::int32))
      infer_fail("an int32 input has no zero point");
  }
  const int32_t out = dequantized_type(ctx.attrs(), ctx.input_elem_type(1), ctx.schema());
  check_output_type(out);
  quant::infer_scale_shape(ctx, 1, 2);
  propagate_shape(ctx, 0, 0, out);
}

// The common case of a quantized activation: uint8 x, one float scale, float out. The same
// arithmetic as below, (x - zero) * scale in float, without the copies, across the pool. False
// when the case does not apply.
bool dequantize_u8_per_tensor(KernelContext& ctx, const Tensor& x, const Tensor& scale,
                              const Tensor* zero, DataType out_type) {
  if (x.dtype() != DataType::uint8 || scale.dtype() != DataType::float32 || scale.numel() != 1 ||
      out_type != DataType::float32 || (zero && zero->numel() != 1))
    return false;
  const float s = scale.data<float>()[0];
  const float z = zero ? static_cast<float>(zero->data<uint8_t>()[0]) : 0.0f;
  const uint8_t* in = x.data<uint8_t>();
  float* out = ctx.output_uninitialized(0, out_type, x.shape()).mutable_data<float>();
  ctx.parallel_for(x.numel(), nn::kGrainElements, [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) out[i] = (static_cast<float>(in[i]) - z) * s;
  });
  return true;
}

void dequantize_linear_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& scale = ctx.input(1);
  const bool has_zero = ctx.num_inputs() > 2 && ctx.has_input(2);
  const Tensor* zero = has_zero ? &ctx.input(2) : nullptr;
  if (zero && zero->dtype() != x.dtype())
    ctx.fail("the zero point's type " + std::string(type_name(zero->dtype())) +
             " differs from x's " + std::string(type_name(x.dtype())));
  if (zero && !quant::zero_point_fits_scale(zero->shape(), scale.shape()))
    ctx.fail("the zero point " + shape_to_string(zero->shape()) + " and scale " +
             shape_to_string(scale.shape()) + " must have the same shape");
  const int32_t out_code =
      dequantized_type(ctx.attrs(), static_cast<int32_t>(scale.dtype()), ctx.schema());
  try {
    check_output_type(out_code);
  } catch (const InferFailure& f) {
    ctx.fail(f.message);
  }
  const int64_t block = ctx.schema().since >= 21 ? ctx.attrs().get_int("block_size", 0) : 0;
  const quant::ScaleIndex index(ctx, x.shape(), scale.shape(), ctx.attrs().get_int("axis", 1),
                                block);
  if (dequantize_u8_per_tensor(ctx, x, scale, zero, static_cast<DataType>(out_code))) return;
  const std::vector<float> xs = misc::values_as<float>(ctx, x, "x");
  const std::vector<float> ss = misc::values_as<float>(ctx, scale, "x_scale");
  const std::vector<float> zs = zero ? misc::values_as<float>(ctx, *zero, "x_zero_point")
                                     : std::vector<float>(ss.size(), 0.f);
  std::vector<float> y(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const auto s = static_cast<std::size_t>(index(static_cast<int64_t>(i)));
    y[i] = (xs[i] - zs[s]) * ss[s];
  }
  misc::write_output<float>(ctx, 0, static_cast<DataType>(out_code), x.shape(), y);
}

// For the executor's fusion (core/registry/fusion.h): a dequantization to float32 by a float32
// scale, per tensor or along one axis (not in blocks). The node that takes its integers checks
// their type and the zero point's.
bool dequantize_fusion(const FusionNode& n, Dequantization& d) {
  const Tensor* scale = n.constants.size() > 1 ? n.constants[1] : nullptr;
  if (!scale || scale->dtype() != DataType::float32) return false;
  if (n.schema.since >= 21 && n.attrs.get_int("block_size", 0) != 0) return false;
  const auto float32 = static_cast<int32_t>(DataType::float32);
  if (dequantized_type(n.attrs, float32, n.schema) != float32) return false;
  d.x = 0;
  d.scale = 1;
  d.zero = 2;
  d.axis = n.schema.since >= 13 ? n.attrs.get_int("axis", 1) : 1;
  return true;
}

}  // namespace

void define_DequantizeLinear(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .input("x", "T")
      .input("x_scale", "tensor(float)")
      .input_optional("x_zero_point", "T")
      .output("y", "tensor(float)")
      .constraint("T", {"tensor(int8)", "tensor(uint8)", "tensor(int32)"});
  op.since(13)
      .attr("axis", AttrType::i, int64_t{1})
      .input("x", "T")
      .input("x_scale", "tensor(float)")
      .input_optional("x_zero_point", "T")
      .output("y", "tensor(float)")
      .constraint("T", {"tensor(int8)", "tensor(uint8)", "tensor(int32)"});
  op.since(19)
      .attr("axis", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("x_scale", "T2")
      .input_optional("x_zero_point", "T1")
      .output("y", "T2")
      .constraint("T1", {"tensor(int8)", "tensor(uint8)", "tensor(int32)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"});
  op.since(21)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .input("x", "T1")
      .input("x_scale", "T2")
      .input_optional("x_zero_point", "T1")
      .output("y", "T2")
      .constraint("T1", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(int32)", "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)",
                         "tensor(float8e5m2)", "tensor(float8e5m2fnuz)", "tensor(uint4)",
                         "tensor(int4)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"});
  op.since(23)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .input("x", "T1")
      .input("x_scale", "T2")
      .input_optional("x_zero_point", "T1")
      .output("y", "T3")
      .constraint("T1", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(int32)", "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)",
                         "tensor(float8e5m2)", "tensor(float8e5m2fnuz)", "tensor(uint4)",
                         "tensor(int4)", "tensor(float4e2m1)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"})
      .constraint("T3", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"});
  op.since(24)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .input("x", "T1")
      .input("x_scale", "T2")
      .input_optional("x_zero_point", "T1")
      .output("y", "T3")
      .constraint("T1", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(int32)", "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)",
                         "tensor(float8e5m2)", "tensor(float8e5m2fnuz)", "tensor(uint4)",
                         "tensor(int4)", "tensor(float4e2m1)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)",
                         "tensor(float8e8m0)"})
      .constraint("T3", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"});
  op.since(25)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .input("x", "T1")
      .input("x_scale", "T2")
      .input_optional("x_zero_point", "T1")
      .output("y", "T3")
      .constraint("T1", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(int32)", "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)",
                         "tensor(float8e5m2)", "tensor(float8e5m2fnuz)", "tensor(uint4)",
                         "tensor(int4)", "tensor(float4e2m1)", "tensor(uint2)", "tensor(int2)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)",
                         "tensor(float8e8m0)"})
      .constraint("T3", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)"});
  // END SIGNATURES
  // clang-format on
  op.all()
      .infer(infer_dequantize_linear)
      .kernel(dequantize_linear_kernel)
      .dequantize(dequantize_fusion);
}

}  // namespace onnxtool::ops
