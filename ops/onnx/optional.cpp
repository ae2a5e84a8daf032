// SPDX-License-Identifier: Apache-2.0
// Optional: the ai.onnx operator. An optional holding the input, or an empty optional of the
// `type` attribute's type when the input is omitted.
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_optional(InferContext& ctx) {
  const onnx::TypeProto* declared = ctx.attrs().type_proto("type");
  if (ctx.num_inputs() > 0 && ctx.has_input(0)) {
    Type t = ctx.input_type(0);
    if (declared) t = unify_types(t, type_from_proto(*declared), "the input and attribute type");
    ctx.set_output_type(0, Type::optional(t));
    return;
  }
  if (!declared) infer_fail("an Optional without input needs the type attribute");
  ctx.set_output_type(0, Type::optional(type_from_proto(*declared)));
}

void optional_kernel(KernelContext& ctx) {
  if (ctx.num_inputs() > 0 && ctx.has_input(0)) {
    ctx.set_output(0, ctx.input_value(0));
    return;
  }
  if (!ctx.attrs().type_proto("type"))
    ctx.fail("an Optional without input needs the type attribute");
  ctx.set_output(0, Value());
}

}  // namespace

void define_Optional(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(15)
      .attr_optional("type", AttrType::tp)
      .input_optional("input", "V")
      .output("output", "O")
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"})
      .constraint("O", {"optional(seq(tensor(uint8)))", "optional(seq(tensor(uint16)))",
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
  op.all().infer(infer_optional).kernel(optional_kernel);
}

}  // namespace onnxtool::ops
