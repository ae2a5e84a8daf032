// SPDX-License-Identifier: Apache-2.0
// OptionalHasElement: the ai.onnx operator. A bool scalar: whether the optional holds a value.
// From version 18 the input may be omitted (false) or a plain tensor or sequence (true).
#include "core/convert/adapter.h"
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_optional_has_element(InferContext& ctx) {
  const bool present = ctx.num_inputs() > 0 && ctx.has_input(0);
  if (!present && ctx.schema().since < 18) infer_fail("input 0 is required before version 18");
  if (present) {
    const Type& t = ctx.input_type(0);
    if (!t.is_unknown() && t.kind != Type::Kind::optional && ctx.schema().since < 18)
      infer_fail("input 0 must be an optional before version 18, got " + t.to_string());
  }
  set_output_tensor(ctx, 0, static_cast<int32_t>(DataType::boolean), Dims{});
}

void optional_has_element_kernel(KernelContext& ctx) {
  const bool has = ctx.num_inputs() > 0 && ctx.has_input(0) && !ctx.input_value(0).is_none();
  ctx.set_output(0, Tensor::scalar<bool>(has));
}

// ---- version adapters --------------------------------------------------------------------

void has_element_as_constant(AdapterContext& ctx) {
  bool present = false;
  if (ctx.has_input(0)) {
    const Type* t = ctx.input_type(0);
    if (!t)
      ctx.refuse("the input's type is not known, and " + ctx.to().id() + " takes optionals only");
    if (t->kind == Type::Kind::optional) return;  // the same in both versions
    present = true;
  }
  ctx.truncate_inputs(0);
  ctx.set_op_type("Constant");
  ctx.set_attribute("value", Tensor::scalar<bool>(present));
  ctx.describe(std::string(present ? "a tensor is always present" : "no input is never present") +
               ": Constant " + (present ? "true" : "false"));
}

}  // namespace

void define_OptionalHasElement(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(15)
      .input("input", "O")
      .output("output", "B")
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
                        "optional(tensor(complex64))", "optional(tensor(complex128))"})
      .constraint("B", {"tensor(bool)"});
  op.since(18)
      .input_optional("input", "O")
      .output("output", "B")
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
                        "optional(tensor(complex64))", "optional(tensor(complex128))",
                        "tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"})
      .constraint("B", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_optional_has_element).kernel(optional_has_element_kernel);
  // Version 18 also takes a plain tensor (always present) or no input (never); version 15 only
  // an optional, so those answers become constants.
  op.at(18).downgrade(has_element_as_constant);
  op.at(18).upgrade(convert::unchanged(""));
}

}  // namespace onnxtool::ops
