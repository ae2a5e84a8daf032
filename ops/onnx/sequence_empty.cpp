// SPDX-License-Identifier: Apache-2.0
// SequenceEmpty: the ai.onnx operator. An empty sequence of tensors of the `dtype` attribute's
// element type (float by default).
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

int32_t empty_dtype(const AttrView& attrs) {
  return static_cast<int32_t>(attrs.get_int("dtype", 1));
}

bool allowed_dtype(const OpVersion& schema, int32_t dtype) {
  const TypeConstraint* s = schema.find_constraint("S");
  if (!s) return true;
  const std::string want = "seq(tensor(" + std::string(type_name_or_number(dtype)) + "))";
  for (const std::string& a : s->allowed)
    if (a == want) return true;
  return false;
}

void infer_sequence_empty(InferContext& ctx) {
  const int32_t dtype = empty_dtype(ctx.attrs());
  if (!allowed_dtype(ctx.schema(), dtype))
    infer_fail("dtype " + type_name_or_number(dtype) + " is not a type a sequence may hold");
  ctx.set_output_type(0, Type::sequence(Type::tensor(dtype)));
}

void sequence_empty_kernel(KernelContext& ctx) {
  const int32_t dtype = empty_dtype(ctx.attrs());
  if (!allowed_dtype(ctx.schema(), dtype))
    ctx.fail("dtype " + type_name_or_number(dtype) + " is not a type a sequence may hold");
  ctx.set_output(0, Value::sequence({}, static_cast<DataType>(dtype)));
}

}  // namespace

void define_SequenceEmpty(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .attr_optional("dtype", AttrType::i)
      .output("output", "S")
      .constraint("S", {"seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_sequence_empty).kernel(sequence_empty_kernel);
}

}  // namespace onnxtool::ops
