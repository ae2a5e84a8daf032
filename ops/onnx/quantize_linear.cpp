// SPDX-License-Identifier: Apache-2.0
// QuantizeLinear: the ai.onnx operator. y = saturate(round(x / y_scale) + y_zero_point) for
// integer outputs (round half to even, clamped to the type's range), and
// y = cast(x / y_scale + y_zero_point) for float8 and float4 outputs (saturating or not as
// `saturate` says). Per-tensor, per-axis (13+) and blocked (21+) scales.
#include <cmath>

#include "core/kernels/quantize.h"
#include "core/types/float_formats.h"
#include "ops/onnx/nn_common.h"
#include "ops/onnx/quant_common.h"

namespace onnxtool::ops {

namespace {

// The output type: the zero point's, else output_dtype (21+), else uint8.
int32_t output_type(const AttrView& attrs, int32_t zero_point_type, const OpVersion& schema) {
  const int64_t attr = schema.since >= 21 ? attrs.get_int("output_dtype", 0) : 0;
  if (zero_point_type != 0 && attr != 0 && attr != zero_point_type)
    infer_fail("output_dtype " + type_name_or_number(static_cast<int32_t>(attr)) +
               " differs from the zero point's type " + type_name_or_number(zero_point_type));
  if (zero_point_type != 0) return zero_point_type;
  return attr != 0 ? static_cast<int32_t>(attr) : static_cast<int32_t>(DataType::uint8);
}

bool allowed_output(const OpVersion& schema, int32_t type) {
  const TypeConstraint* c = schema.find_constraint(schema.since >= 23 ? "T3" : "T2");
  if (!c) return true;
  const std::string want = "tensor(" + type_name_or_number(type) + ")";
  for (const std::string& a : c->allowed)
    if (a == want) return true;
  return false;
}

void infer_quantize_linear(InferContext& ctx) {
  const bool has_zero = ctx.num_inputs() > 2 && ctx.has_input(2);
  const int32_t zero_type = has_zero ? ctx.input_elem_type(2) : 0;
  if (has_zero && zero_type == 0) {  // the zero point's type is not known yet
    propagate_shape(ctx, 0, 0, 0);
    return;
  }
  const int32_t out = output_type(ctx.attrs(), zero_type, ctx.schema());
  if (!allowed_output(ctx.schema(), out))
    infer_fail("cannot quantize to " + type_name_or_number(out) + " at this version");
  quant::infer_scale_shape(ctx, 1, 2);
  propagate_shape(ctx, 0, 0, out);
}

// Integer output types' ranges.
bool integer_range(DataType t, int64_t& lo, int64_t& hi) {
  switch (t) {
    case DataType::uint8:
      lo = 0, hi = 255;
      return true;
    case DataType::int8:
      lo = -128, hi = 127;
      return true;
    case DataType::uint16:
      lo = 0, hi = 65535;
      return true;
    case DataType::int16:
      lo = -32768, hi = 32767;
      return true;
    case DataType::uint4:
      lo = 0, hi = 15;
      return true;
    case DataType::int4:
      lo = -8, hi = 7;
      return true;
    case DataType::uint2:
      lo = 0, hi = 3;
      return true;
    case DataType::int2:
      lo = -2, hi = 1;
      return true;
    default:
      return false;
  }
}

// x / scale rounded to the precision the division is done in (the scale's type unless the
// `precision` attribute says otherwise). A double quotient rounded once gives exactly the
// quotient computed in float.
double quotient(double x, double scale, DataType precision) {
  const double q = x / scale;
  switch (precision) {
    case DataType::float16:
      return to_float(to_float16(q));
    case DataType::bfloat16:
      return to_float(to_bfloat16(q));
    case DataType::float64:
      return q;
    default:
      return static_cast<double>(static_cast<float>(q));
  }
}

DataType division_precision(const KernelContext& ctx, const Tensor& scale) {
  const int64_t p = ctx.schema().since >= 23 ? ctx.attrs().get_int("precision", 0) : 0;
  if (p == 0) return scale.dtype();
  const auto t = data_type_from_int(static_cast<int32_t>(p));
  if (!t) ctx.fail("precision " + std::to_string(p) + " is not an element type");
  return *t;
}

// The common case of a quantized activation: float x, one float scale, uint8 out, the division
// in float. The shared vector kernel computes it (the same values as below: a float quotient is
// the double one rounded to float), split across the pool. False when the case does not apply.
bool quantize_u8_per_tensor(KernelContext& ctx, const Tensor& x, const Tensor& scale,
                            const Tensor* zero, DataType out_type, DataType precision) {
  if (x.dtype() != DataType::float32 || scale.dtype() != DataType::float32 || scale.numel() != 1 ||
      out_type != DataType::uint8 || precision != DataType::float32 ||
      (zero && (zero->dtype() != DataType::uint8 || zero->numel() != 1)))
    return false;
  const float s = scale.data<float>()[0];
  if (!(s > 0.0f) || !std::isfinite(s)) return false;  // odd scales: left to the general path
  const float z = zero ? static_cast<float>(zero->data<uint8_t>()[0]) : 0.0f;
  const float* in = x.data<float>();
  uint8_t* out = ctx.output_uninitialized(0, out_type, x.shape()).mutable_data<uint8_t>();
  ctx.parallel_for(x.numel(), nn::kGrainElements, [&](int64_t i0, int64_t i1) {
    kernels::quantize_u8(in + i0, i1 - i0, s, z, out + i0);
  });
  return true;
}

void quantize_linear_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& scale = ctx.input(1);
  const bool has_zero = ctx.num_inputs() > 2 && ctx.has_input(2);
  const Tensor* zero = has_zero ? &ctx.input(2) : nullptr;
  int32_t out_code = 0;
  try {
    out_code =
        output_type(ctx.attrs(), zero ? static_cast<int32_t>(zero->dtype()) : 0, ctx.schema());
  } catch (const InferFailure& f) {
    ctx.fail(f.message);
  }
  if (!allowed_output(ctx.schema(), out_code))
    ctx.fail("cannot quantize to " + type_name_or_number(out_code) + " at this version");
  const auto out_type = static_cast<DataType>(out_code);
  if (zero && !quant::zero_point_fits_scale(zero->shape(), scale.shape()))
    ctx.fail("the zero point " + shape_to_string(zero->shape()) + " and scale " +
             shape_to_string(scale.shape()) + " must have the same shape");
  const int64_t block = ctx.schema().since >= 21 ? ctx.attrs().get_int("block_size", 0) : 0;
  const quant::ScaleIndex index(ctx, x.shape(), scale.shape(), ctx.attrs().get_int("axis", 1),
                                block);
  if (quantize_u8_per_tensor(ctx, x, scale, zero, out_type, division_precision(ctx, scale))) return;
  const std::vector<double> xs = misc::values_as<double>(ctx, x, "x");
  const std::vector<double> ss = misc::values_as<double>(ctx, scale, "y_scale");
  const std::vector<double> zs = zero ? misc::values_as<double>(ctx, *zero, "y_zero_point")
                                      : std::vector<double>(ss.size(), 0.0);
  const DataType precision = division_precision(ctx, scale);
  const bool saturate = ctx.schema().since < 19 || ctx.attrs().get_int("saturate", 1) != 0;
  Tensor& y = ctx.output(0, out_type, x.shape());
  int64_t lo = 0, hi = 0;
  const bool integer = integer_range(out_type, lo, hi);
  std::vector<double> q(xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) {
    const auto s = static_cast<std::size_t>(index(static_cast<int64_t>(i)));
    const double v = quotient(xs[i], ss[s], precision);
    q[i] = integer ? std::clamp(std::nearbyint(v) + zs[s], static_cast<double>(lo),
                                static_cast<double>(hi))
                   : v + zs[s];
  }
  if (integer || out_type == DataType::float4e2m1) {
    misc::store_values<double>(ctx, y, q);
    return;
  }
  visit_type(out_type, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (is_narrow_float_v<T>) {
      T* p = y.mutable_data<T>();
      for (std::size_t i = 0; i < q.size(); ++i) p[i] = narrow_float<T>(q[i], saturate);
    } else {
      ctx.fail("cannot quantize to " + std::string(type_name(out_type)));
    }
  });
}

}  // namespace

void define_QuantizeLinear(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .input("x", "T1")
      .input("y_scale", "tensor(float)")
      .input_optional("y_zero_point", "T2")
      .output("y", "T2")
      .constraint("T1", {"tensor(float)", "tensor(int32)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)"});
  op.since(13)
      .attr("axis", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("y_scale", "tensor(float)")
      .input_optional("y_zero_point", "T2")
      .output("y", "T2")
      .constraint("T1", {"tensor(float)", "tensor(int32)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)"});
  op.since(19)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("saturate", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("y_scale", "T1")
      .input_optional("y_zero_point", "T2")
      .output("y", "T2")
      .constraint("T1", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"});
  op.since(21)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .attr("saturate", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("y_scale", "T1")
      .input_optional("y_zero_point", "T2")
      .output("y", "T2")
      .constraint("T1", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)"})
      .constraint("T2", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .attr("precision", AttrType::i, int64_t{0})
      .attr("saturate", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("y_scale", "T2")
      .input_optional("y_zero_point", "T3")
      .output("y", "T3")
      .constraint("T1", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)"})
      .constraint("T3", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                         "tensor(float4e2m1)"});
  op.since(24)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .attr("precision", AttrType::i, int64_t{0})
      .attr("saturate", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("y_scale", "T2")
      .input_optional("y_zero_point", "T3")
      .output("y", "T3")
      .constraint("T1", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)",
                         "tensor(float8e8m0)"})
      .constraint("T3", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                         "tensor(float4e2m1)"});
  op.since(25)
      .attr("axis", AttrType::i, int64_t{1})
      .attr("block_size", AttrType::i, int64_t{0})
      .attr("output_dtype", AttrType::i, int64_t{0})
      .attr("precision", AttrType::i, int64_t{0})
      .attr("saturate", AttrType::i, int64_t{1})
      .input("x", "T1")
      .input("y_scale", "T2")
      .input_optional("y_zero_point", "T3")
      .output("y", "T3")
      .constraint("T1", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)"})
      .constraint("T2", {"tensor(float)", "tensor(float16)", "tensor(bfloat16)", "tensor(int32)",
                         "tensor(float8e8m0)"})
      .constraint("T3", {"tensor(int8)", "tensor(uint8)", "tensor(int16)", "tensor(uint16)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                         "tensor(float4e2m1)", "tensor(uint2)", "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_quantize_linear).kernel(quantize_linear_kernel);
}

}  // namespace onnxtool::ops
