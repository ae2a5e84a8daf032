// SPDX-License-Identifier: Apache-2.0
// Identity: the ai.onnx operator.
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// Identity: the input's whole type (tensor, sequence or optional) and its values.
void infer_identity(InferContext& ctx) {
  ctx.set_output_type(0, ctx.input_type(0));
  propagate_values(ctx, 0, 0);
  if (const Tensor* c = ctx.input_constant(0)) ctx.set_output_constant(0, *c);
}

// The output is the input value itself (shallow: tensors share storage).
void identity_kernel(KernelContext& ctx) {
  if (!ctx.has_input(0)) ctx.fail("input 0 is required but missing");
  ctx.set_output(0, ctx.input_value(0));
}

}  // namespace

void define_Identity(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .input("input", "T")
      .output("output", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .input("input", "T", D::differentiable)
      .output("output", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(14)
      .input("input", "V", D::differentiable)
      .output("output", "V", D::differentiable)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"});
  op.since(16)
      .input("input", "V", D::differentiable)
      .output("output", "V", D::differentiable)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))",
                        "optional(seq(tensor(uint8)))", "optional(seq(tensor(uint16)))",
                        "optional(seq(tensor(uint32)))", "optional(seq(tensor(uint64)))",
                        "optional(seq(tensor(int8)))", "optional(seq(tensor(int16)))",
                        "optional(seq(tensor(int32)))", "optional(seq(tensor(int64)))",
                        "optional(seq(tensor(float16)))", "optional(seq(tensor(float)))",
                        "optional(seq(tensor(double)))", "optional(seq(tensor(string)))",
                        "optional(seq(tensor(bool)))", "optional(seq(tensor(complex64)))",
                        "optional(seq(tensor(complex128)))", "optional(tensor(uint8))",
                        "optional(tensor(uint16))", "optional(tensor(uint32))",
                        "optional(tensor(uint64))", "optional(tensor(int8))",
                        "optional(tensor(int16))", "optional(tensor(int32))",
                        "optional(tensor(int64))", "optional(tensor(float16))",
                        "optional(tensor(float))", "optional(tensor(double))",
                        "optional(tensor(string))", "optional(tensor(bool))",
                        "optional(tensor(complex64))", "optional(tensor(complex128))"});
  op.since(19)
      .input("input", "V", D::differentiable)
      .output("output", "V", D::differentiable)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "seq(tensor(uint8))", "seq(tensor(uint16))",
                        "seq(tensor(uint32))", "seq(tensor(uint64))", "seq(tensor(int8))",
                        "seq(tensor(int16))", "seq(tensor(int32))", "seq(tensor(int64))",
                        "seq(tensor(float16))", "seq(tensor(float))", "seq(tensor(double))",
                        "seq(tensor(string))", "seq(tensor(bool))", "seq(tensor(complex64))",
                        "seq(tensor(complex128))", "optional(seq(tensor(uint8)))",
                        "optional(seq(tensor(uint16)))", "optional(seq(tensor(uint32)))",
                        "optional(seq(tensor(uint64)))", "optional(seq(tensor(int8)))",
                        "optional(seq(tensor(int16)))", "optional(seq(tensor(int32)))",
                        "optional(seq(tensor(int64)))", "optional(seq(tensor(float16)))",
                        "optional(seq(tensor(float)))", "optional(seq(tensor(double)))",
                        "optional(seq(tensor(string)))", "optional(seq(tensor(bool)))",
                        "optional(seq(tensor(complex64)))", "optional(seq(tensor(complex128)))",
                        "optional(tensor(uint8))", "optional(tensor(uint16))",
                        "optional(tensor(uint32))", "optional(tensor(uint64))",
                        "optional(tensor(int8))", "optional(tensor(int16))",
                        "optional(tensor(int32))", "optional(tensor(int64))",
                        "optional(tensor(float16))", "optional(tensor(float))",
                        "optional(tensor(double))", "optional(tensor(string))",
                        "optional(tensor(bool))", "optional(tensor(complex64))",
                        "optional(tensor(complex128))"});
  op.since(21)
      .input("input", "V", D::differentiable)
      .output("output", "V", D::differentiable)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))",
                        "optional(seq(tensor(uint8)))", "optional(seq(tensor(uint16)))",
                        "optional(seq(tensor(uint32)))", "optional(seq(tensor(uint64)))",
                        "optional(seq(tensor(int8)))", "optional(seq(tensor(int16)))",
                        "optional(seq(tensor(int32)))", "optional(seq(tensor(int64)))",
                        "optional(seq(tensor(float16)))", "optional(seq(tensor(float)))",
                        "optional(seq(tensor(double)))", "optional(seq(tensor(string)))",
                        "optional(seq(tensor(bool)))", "optional(seq(tensor(complex64)))",
                        "optional(seq(tensor(complex128)))", "optional(tensor(uint8))",
                        "optional(tensor(uint16))", "optional(tensor(uint32))",
                        "optional(tensor(uint64))", "optional(tensor(int8))",
                        "optional(tensor(int16))", "optional(tensor(int32))",
                        "optional(tensor(int64))", "optional(tensor(float16))",
                        "optional(tensor(float))", "optional(tensor(double))",
                        "optional(tensor(string))", "optional(tensor(bool))",
                        "optional(tensor(complex64))", "optional(tensor(complex128))"});
  op.since(23)
      .input("input", "V", D::differentiable)
      .output("output", "V", D::differentiable)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "seq(tensor(uint8))", "seq(tensor(uint16))",
                        "seq(tensor(uint32))", "seq(tensor(uint64))", "seq(tensor(int8))",
                        "seq(tensor(int16))", "seq(tensor(int32))", "seq(tensor(int64))",
                        "seq(tensor(float16))", "seq(tensor(float))", "seq(tensor(double))",
                        "seq(tensor(string))", "seq(tensor(bool))", "seq(tensor(complex64))",
                        "seq(tensor(complex128))", "optional(seq(tensor(uint8)))",
                        "optional(seq(tensor(uint16)))", "optional(seq(tensor(uint32)))",
                        "optional(seq(tensor(uint64)))", "optional(seq(tensor(int8)))",
                        "optional(seq(tensor(int16)))", "optional(seq(tensor(int32)))",
                        "optional(seq(tensor(int64)))", "optional(seq(tensor(float16)))",
                        "optional(seq(tensor(float)))", "optional(seq(tensor(double)))",
                        "optional(seq(tensor(string)))", "optional(seq(tensor(bool)))",
                        "optional(seq(tensor(complex64)))", "optional(seq(tensor(complex128)))",
                        "optional(tensor(uint8))", "optional(tensor(uint16))",
                        "optional(tensor(uint32))", "optional(tensor(uint64))",
                        "optional(tensor(int8))", "optional(tensor(int16))",
                        "optional(tensor(int32))", "optional(tensor(int64))",
                        "optional(tensor(float16))", "optional(tensor(float))",
                        "optional(tensor(double))", "optional(tensor(string))",
                        "optional(tensor(bool))", "optional(tensor(complex64))",
                        "optional(tensor(complex128))"});
  op.since(24)
      .input("input", "V", D::differentiable)
      .output("output", "V", D::differentiable)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "seq(tensor(uint8))",
                        "seq(tensor(uint16))", "seq(tensor(uint32))", "seq(tensor(uint64))",
                        "seq(tensor(int8))", "seq(tensor(int16))", "seq(tensor(int32))",
                        "seq(tensor(int64))", "seq(tensor(float16))", "seq(tensor(float))",
                        "seq(tensor(double))", "seq(tensor(string))", "seq(tensor(bool))",
                        "seq(tensor(complex64))", "seq(tensor(complex128))",
                        "optional(seq(tensor(uint8)))", "optional(seq(tensor(uint16)))",
                        "optional(seq(tensor(uint32)))", "optional(seq(tensor(uint64)))",
                        "optional(seq(tensor(int8)))", "optional(seq(tensor(int16)))",
                        "optional(seq(tensor(int32)))", "optional(seq(tensor(int64)))",
                        "optional(seq(tensor(float16)))", "optional(seq(tensor(float)))",
                        "optional(seq(tensor(double)))", "optional(seq(tensor(string)))",
                        "optional(seq(tensor(bool)))", "optional(seq(tensor(complex64)))",
                        "optional(seq(tensor(complex128)))", "optional(tensor(uint8))",
                        "optional(tensor(uint16))", "optional(tensor(uint32))",
                        "optional(tensor(uint64))", "optional(tensor(int8))",
                        "optional(tensor(int16))", "optional(tensor(int32))",
                        "optional(tensor(int64))", "optional(tensor(float16))",
                        "optional(tensor(float))", "optional(tensor(double))",
                        "optional(tensor(string))", "optional(tensor(bool))",
                        "optional(tensor(complex64))", "optional(tensor(complex128))"});
  op.since(25)
      .input("input", "V", D::differentiable)
      .output("output", "V", D::differentiable)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)", "tensor(int2)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))",
                        "optional(seq(tensor(uint8)))", "optional(seq(tensor(uint16)))",
                        "optional(seq(tensor(uint32)))", "optional(seq(tensor(uint64)))",
                        "optional(seq(tensor(int8)))", "optional(seq(tensor(int16)))",
                        "optional(seq(tensor(int32)))", "optional(seq(tensor(int64)))",
                        "optional(seq(tensor(float16)))", "optional(seq(tensor(float)))",
                        "optional(seq(tensor(double)))", "optional(seq(tensor(string)))",
                        "optional(seq(tensor(bool)))", "optional(seq(tensor(complex64)))",
                        "optional(seq(tensor(complex128)))", "optional(tensor(uint8))",
                        "optional(tensor(uint16))", "optional(tensor(uint32))",
                        "optional(tensor(uint64))", "optional(tensor(int8))",
                        "optional(tensor(int16))", "optional(tensor(int32))",
                        "optional(tensor(int64))", "optional(tensor(float16))",
                        "optional(tensor(float))", "optional(tensor(double))",
                        "optional(tensor(string))", "optional(tensor(bool))",
                        "optional(tensor(complex64))", "optional(tensor(complex128))"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(infer_identity).kernel(identity_kernel);
  op.all().passes_through([](const AttrView&, const std::vector<bool>&, int32_t) { return true; });
}

}  // namespace onnxtool::ops
