// SPDX-License-Identifier: Apache-2.0
// Reshape: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// The target shape: the `shape` attribute (version 1) or the `shape` input (5+).
std::optional<Dims> target_values(const InferContext& ctx) {
  if (since(ctx) < 5) {
    if (!ctx.attrs().has("shape")) return std::nullopt;
    return dims_of(ctx.attrs().get_ints("shape"));
  }
  return input_dims_values(ctx, 1);
}

void check_target(const Dims& target, bool allowzero) {
  bool minus_one = false, zero = false;
  for (const Dim& d : target) {
    minus_one = minus_one || (d.is_known() && d.value() == -1);
    zero = zero || (d.is_known() && d.value() == 0);
  }
  if (allowzero && minus_one && zero)
    infer_fail("with allowzero set the target shape cannot hold both 0 and -1");
}

// Reshape: the output shape is the target with 0 (copy) and -1 (the rest) resolved, symbolic
// where the input is; a reshaped shape vector keeps its values.
void infer_reshape(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  const bool allowzero = ctx.attrs().get_int("allowzero", 0) != 0;
  const std::optional<Dims> target = target_values(ctx);
  if (!target) {
    const Dims* s = since(ctx) >= 5 ? input_shape(ctx, 1) : nullptr;
    if (s && s->size() == 1 && (*s)[0].is_known()) {
      set_output_tensor(ctx, 0, elem, Dims(static_cast<std::size_t>((*s)[0].value())));
      ctx.explain(0, "the target shape's values are not known");
    } else {
      set_output_tensor(ctx, 0, elem);
      ctx.explain(0, "neither the target shape's values nor its length are known");
    }
    return;
  }
  check_target(*target, allowzero);
  const Dims out = reshape_shape(in ? std::optional<Dims>(*in) : std::nullopt, *target, allowzero);
  const Dim total = in ? product(*in) : Dim();
  const Dim result = product(out);
  if (total.is_known() && result.is_known() && total.value() != result.value())
    infer_fail("cannot reshape " + dims_to_string(*in) + " (" + std::to_string(total.value()) +
               " elements) to " + dims_to_string(out) + " (" + std::to_string(result.value()) +
               " elements)");
  set_output_tensor(ctx, 0, elem, out);
  if (out.size() <= 1) propagate_values(ctx, 0, 0);
}

// The concrete output shape: 0 copies the input's dim (unless allowzero), one -1 takes the
// remaining elements.
Shape resolve_shape(const KernelContext& ctx, const Shape& in, const std::vector<int64_t>& target,
                    bool allowzero) {
  Shape out(target.size());
  std::optional<std::size_t> infer_at;
  bool zero = false;
  for (std::size_t i = 0; i < target.size(); ++i) {
    const int64_t v = target[i];
    if (v == -1) {
      if (infer_at) ctx.fail("the target shape has more than one -1");
      infer_at = i;
      out[i] = 1;
    } else if (v == 0 && !allowzero) {
      if (i >= in.size())
        ctx.fail("target shape dim " + std::to_string(i) + " is 0 (copy) but the input has rank " +
                 std::to_string(in.size()));
      out[i] = in[i];
    } else if (v < 0) {
      ctx.fail("target shape dim " + std::to_string(i) + " is " + std::to_string(v) +
               " (expected >= -1)");
    } else {
      zero = zero || v == 0;
      out[i] = v;
    }
  }
  if (allowzero && zero && infer_at)
    ctx.fail("with allowzero set the target shape cannot hold both 0 and -1");
  const int64_t total = shape_product(in), rest = shape_product(out);
  if (infer_at) {
    if (rest == 0 || total % rest != 0)
      ctx.fail("cannot reshape " + shape_to_string(in) + " to " + shape_to_string(target) +
               ": -1 cannot be resolved");
    out[*infer_at] = total / rest;
  } else if (rest != total) {
    ctx.fail("cannot reshape " + shape_to_string(in) + " (" + std::to_string(total) +
             " elements) to " + shape_to_string(out) + " (" + std::to_string(rest) + " elements)");
  }
  return out;
}

// Reshape never copies: the output shares the input's storage.
void reshape_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const std::vector<int64_t> target =
      since(ctx) < 5 ? ctx.attrs().get_ints("shape") : read_ints(ctx, ctx.input(1), "shape");
  const bool allowzero = ctx.attrs().get_int("allowzero", 0) != 0;
  ctx.set_output(0, Value(x.reshaped(resolve_shape(ctx, x.shape(), target, allowzero))));
}

}  // namespace

void define_Reshape(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("consumed_inputs", AttrType::ints)
      .attr_optional("shape", AttrType::ints)
      .input("data", "T")
      .output("reshaped", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(5)
      .input("data", "T")
      .input("shape", "tensor(int64)")
      .output("reshaped", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .input("data", "T", D::differentiable)
      .input("shape", "tensor(int64)", D::non_differentiable)
      .output("reshaped", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(14)
      .attr("allowzero", AttrType::i, int64_t{0})
      .input("data", "T", D::differentiable)
      .input("shape", "tensor(int64)", D::non_differentiable)
      .output("reshaped", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(19)
      .attr("allowzero", AttrType::i, int64_t{0})
      .input("data", "T", D::differentiable)
      .input("shape", "tensor(int64)", D::non_differentiable)
      .output("reshaped", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)"});
  op.since(21)
      .attr("allowzero", AttrType::i, int64_t{0})
      .input("data", "T", D::differentiable)
      .input("shape", "tensor(int64)", D::non_differentiable)
      .output("reshaped", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .attr("allowzero", AttrType::i, int64_t{0})
      .input("data", "T", D::differentiable)
      .input("shape", "tensor(int64)", D::non_differentiable)
      .output("reshaped", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)"});
  op.since(24)
      .attr("allowzero", AttrType::i, int64_t{0})
      .input("data", "T", D::differentiable)
      .input("shape", "tensor(int64)", D::non_differentiable)
      .output("reshaped", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)"});
  op.since(25)
      .attr("allowzero", AttrType::i, int64_t{0})
      .input("data", "T", D::differentiable)
      .input("shape", "tensor(int64)", D::non_differentiable)
      .output("reshaped", "T", D::differentiable)
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
  op.all().infer(infer_reshape).kernel(reshape_kernel);
  // Version 5 takes the shape as an input (and drops consumed_inputs).
  op.at(5)
      .upgrade(convert::all_of(
          {convert::drop_attribute("consumed_inputs"), convert::attribute_to_input("shape", 1)}))
      .downgrade(convert::input_to_attribute("shape", 1));
}

}  // namespace onnxtool::ops
