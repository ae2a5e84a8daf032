// SPDX-License-Identifier: Apache-2.0
// ConstantOfShape: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "core/types/tensor_proto.h"
#include "ops/onnx/tensor_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

// Values of a small integer output, so shape computations built from ConstantOfShape (a vector
// of ones for Expand, say) keep propagating.
constexpr int64_t kMaxPropagated = 64;

void propagate_filled_values(InferContext& ctx, const Tensor& value, const Dims& shape) {
  const DataType t = value.dtype();
  const Dim n = product(shape);
  if ((t != DataType::int64 && t != DataType::int32) || value.numel() != 1 || shape.size() > 1 ||
      !n.is_known() || n.value() > kMaxPropagated)
    return;
  const int64_t v = t == DataType::int64 ? value.data<int64_t>()[0] : value.data<int32_t>()[0];
  ctx.set_output_values(0, Dims(static_cast<std::size_t>(n.value()), Dim::value(v)), shape.empty());
}

// ConstantOfShape: the shape is the input's values; the element type is the value attribute's
// (float when absent).
void infer_constant_of_shape(InferContext& ctx) {
  const std::optional<Tensor> value = ctx.tensor_attribute("value");
  const int32_t elem =
      value ? static_cast<int32_t>(value->dtype()) : static_cast<int32_t>(DataType::float32);
  if (auto dims = input_dims_values(ctx, 0)) {
    const Dims shape = dims_from_values(*dims);
    set_output_tensor(ctx, 0, elem, shape);
    if (value) propagate_filled_values(ctx, *value, shape);
    return;
  }
  const Type& in = ctx.input_type(0);
  if (in.has_shape() && in.rank() == 1 && (*in.shape)[0].is_known()) {
    set_output_tensor(ctx, 0, elem, Dims(static_cast<std::size_t>((*in.shape)[0].value())));
    return;
  }
  set_output_tensor(ctx, 0, elem);
}

}  // namespace

namespace {

// A tensor of the input's values as shape, filled with the value attribute's one element
// (float 0 when absent); an empty shape gives a scalar.
Tensor prepare_constant_of_shape(PrepareContext& ctx) {
  const onnx::TensorProto* p = ctx.attrs().tensor("value");
  Tensor value = p ? tensor_from_proto(*p) : scalar_of(DataType::float32, 0);
  if (value.numel() != 1) ctx.fail("attribute value must hold exactly one element");
  return value;
}

void constant_of_shape_kernel(KernelContext& ctx, const Tensor& value) {
  const std::vector<int64_t> shape = read_ints(ctx, ctx.input(0), "shape");
  for (std::size_t i = 0; i < shape.size(); ++i)
    if (shape[i] < 0)
      ctx.fail(indexed("shape", i) + " = " + std::to_string(shape[i]) + " is negative");
  Tensor& y = ctx.output(0, value.dtype(), shape);
  fill_elements(y, 0, y.numel(), value);
}

}  // namespace

void define_ConstantOfShape(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .attr_optional("value", AttrType::t)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(int64)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)"});
  op.since(20)
      .attr_optional("value", AttrType::t)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(int64)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(bfloat16)", "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)",
                         "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"});
  op.since(21)
      .attr_optional("value", AttrType::t)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(int64)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(uint4)",
                         "tensor(int4)", "tensor(bool)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"});
  op.since(23)
      .attr_optional("value", AttrType::t)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(int64)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(uint4)",
                         "tensor(int4)", "tensor(bool)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(float4e2m1)"});
  op.since(24)
      .attr_optional("value", AttrType::t)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(int64)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(uint4)",
                         "tensor(int4)", "tensor(bool)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(float4e2m1)", "tensor(float8e8m0)"});
  op.since(25)
      .attr_optional("value", AttrType::t)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(int64)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(uint4)",
                         "tensor(int4)", "tensor(bool)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                         "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_constant_of_shape);
  op.all().kernel(prepared_kernel(prepare_constant_of_shape, constant_of_shape_kernel));
}

}  // namespace onnxtool::ops
