// SPDX-License-Identifier: Apache-2.0
// SequenceErase: the ai.onnx operator. The sequence without the tensor at `position` (the last
// one when position is omitted; negative counts from the end).
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_sequence_erase(InferContext& ctx) {
  const Type& seq = ctx.input_type(0);
  if (!seq.is_unknown() && seq.kind != Type::Kind::sequence)
    infer_fail("input 0 must be a sequence, got " + seq.to_string());
  ctx.set_output_type(0, seq);
}

void sequence_erase_kernel(KernelContext& ctx) {
  const Value& seq = misc::sequence_input(ctx, 0, "input_sequence");
  std::vector<Value> items = seq.items();
  const auto n = static_cast<int64_t>(items.size());
  int64_t position = n - 1;
  if (ctx.has_input(1)) position = misc::scalar_index(ctx, ctx.input(1), "position");
  if (n == 0 || position < -n || position >= n)
    ctx.fail("position " + std::to_string(position) + " is out of range for a sequence of " +
             std::to_string(n) + " tensors");
  if (position < 0) position += n;
  items.erase(items.begin() + position);
  ctx.set_output(0, Value::sequence(std::move(items), seq.sequence_elem_type()));
}

}  // namespace

void define_SequenceErase(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .input("input_sequence", "S")
      .input_optional("position", "I")
      .output("output_sequence", "S")
      .constraint("S", {"seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"})
      .constraint("I", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_sequence_erase).kernel(sequence_erase_kernel);
}

}  // namespace onnxtool::ops
