// SPDX-License-Identifier: Apache-2.0
// Flatten: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// axis in [0, rank] (Flatten-1 and 9), or [-rank, rank] from Flatten-11.
template <class Fail>
int64_t flatten_axis(int64_t axis, int64_t rank, int version, Fail&& fail) {
  const int64_t lo = version >= 11 ? -rank : 0;
  if (axis < lo || axis > rank)
    fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank) +
         " (expected " + std::to_string(lo) + " to " + std::to_string(rank) + ")");
  return axis < 0 ? axis + rank : axis;
}

// [product of the dims before axis, product of the rest], symbolic where the dims are.
void infer_flatten(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  if (!in) {
    set_output_tensor(ctx, 0, elem, Dims(2));
    return;
  }
  const auto axis = static_cast<std::ptrdiff_t>(
      flatten_axis(ctx.attrs().get_int("axis", 1), static_cast<int64_t>(in->size()), since(ctx),
                   [](const std::string& m) { infer_fail(m); }));
  set_output_tensor(ctx, 0, elem,
                    Dims{product(Dims(in->begin(), in->begin() + axis)),
                         product(Dims(in->begin() + axis, in->end()))});
}

// A view with two dims.
void flatten_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const auto axis =
      static_cast<std::size_t>(flatten_axis(ctx.attrs().get_int("axis", 1), x.rank(), since(ctx),
                                            [&](const std::string& m) { ctx.fail(m); }));
  ctx.set_output(
      0, Value(x.reshaped({shape_product(x.shape(), 0, axis), shape_product(x.shape(), axis)})));
}

}  // namespace

void define_Flatten(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("axis", AttrType::i, int64_t{1})
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(9)
      .attr("axis", AttrType::i, int64_t{1})
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(11)
      .attr("axis", AttrType::i, int64_t{1})
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .attr("axis", AttrType::i, int64_t{1})
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(21)
      .attr("axis", AttrType::i, int64_t{1})
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .attr("axis", AttrType::i, int64_t{1})
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)"});
  op.since(24)
      .attr("axis", AttrType::i, int64_t{1})
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)"});
  op.since(25)
      .attr("axis", AttrType::i, int64_t{1})
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
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
  op.all().infer(infer_flatten).kernel(flatten_kernel);
  op.at(11).downgrade(convert::nonnegative_axes("axis"));
}

}  // namespace onnxtool::ops
