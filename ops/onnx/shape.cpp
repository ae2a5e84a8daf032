// SPDX-License-Identifier: Apache-2.0
// Shape: the ai.onnx operator.
#include <algorithm>

#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

// Shape's output is a 1-D int64 of the input's rank (or the start:end part of it), and its
// values are the input's dims: the source of most data propagation.
void infer_shape(InferContext& ctx) {
  const auto int64 = static_cast<int32_t>(DataType::int64);
  const Type& in = ctx.input_type(0);
  if (!in.has_shape()) {
    set_output_tensor(ctx, 0, int64, Dims{Dim()});
    ctx.explain(0, "the input's rank is unknown");
    return;
  }
  const int64_t rank = in.rank();
  auto clamp = [rank](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank); };
  const int64_t start = clamp(ctx.attrs().opt_int("start").value_or(0));
  const int64_t end = std::max(start, clamp(ctx.attrs().opt_int("end").value_or(rank)));
  Dims values(in.shape->begin() + start, in.shape->begin() + end);
  set_output_tensor(ctx, 0, int64, Dims{Dim::value(end - start)});
  ctx.set_output_values(0, std::move(values));
}

}  // namespace

namespace {

// The input's dims start:end (Shape-15+; negative counts from the end, clamped to the rank).
void shape_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const int64_t rank = x.rank();
  auto clamp = [rank](int64_t v) { return std::clamp<int64_t>(v < 0 ? v + rank : v, 0, rank); };
  const int64_t start = since(ctx) >= 15 ? clamp(ctx.attrs().get_int("start", 0)) : 0;
  const int64_t end =
      std::max(start, since(ctx) >= 15 ? clamp(ctx.attrs().get_int("end", rank)) : rank);
  Tensor& y = ctx.output(0, DataType::int64, {end - start});
  std::copy(x.shape().begin() + start, x.shape().begin() + end, y.mutable_data<int64_t>());
}

}  // namespace

void define_Shape(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("data", "T")
      .output("shape", "T1")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("T1", {"tensor(int64)"});
  op.since(13)
      .input("data", "T", D::non_differentiable)
      .output("shape", "T1", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("T1", {"tensor(int64)"});
  op.since(15)
      .attr_optional("end", AttrType::i)
      .attr("start", AttrType::i, int64_t{0})
      .input("data", "T", D::non_differentiable)
      .output("shape", "T1", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("T1", {"tensor(int64)"});
  op.since(19)
      .attr_optional("end", AttrType::i)
      .attr("start", AttrType::i, int64_t{0})
      .input("data", "T", D::non_differentiable)
      .output("shape", "T1", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)"})
      .constraint("T1", {"tensor(int64)"});
  op.since(21)
      .attr_optional("end", AttrType::i)
      .attr("start", AttrType::i, int64_t{0})
      .input("data", "T", D::non_differentiable)
      .output("shape", "T1", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)"})
      .constraint("T1", {"tensor(int64)"});
  op.since(23)
      .attr_optional("end", AttrType::i)
      .attr("start", AttrType::i, int64_t{0})
      .input("data", "T", D::non_differentiable)
      .output("shape", "T1", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)"})
      .constraint("T1", {"tensor(int64)"});
  op.since(24)
      .attr_optional("end", AttrType::i)
      .attr("start", AttrType::i, int64_t{0})
      .input("data", "T", D::non_differentiable)
      .output("shape", "T1", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)"})
      .constraint("T1", {"tensor(int64)"});
  op.since(25)
      .attr_optional("end", AttrType::i)
      .attr("start", AttrType::i, int64_t{0})
      .input("data", "T", D::non_differentiable)
      .output("shape", "T1", D::non_differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                        "tensor(int2)"})
      .constraint("T1", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_shape);
  op.all().kernel(shape_kernel);
}

}  // namespace onnxtool::ops
