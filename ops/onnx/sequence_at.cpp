// SPDX-License-Identifier: Apache-2.0
// SequenceAt: the ai.onnx operator. The tensor at `position` (negative counts from the end).
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_sequence_at(InferContext& ctx) {
  const Type& seq = ctx.input_type(0);
  if (!seq.is_unknown() && seq.kind != Type::Kind::sequence)
    infer_fail("input 0 must be a sequence, got " + seq.to_string());
  ctx.set_output_type(0, misc::element_type(seq));
}

void sequence_at_kernel(KernelContext& ctx) {
  const Value& seq = misc::sequence_input(ctx, 0, "input_sequence");
  const auto n = static_cast<int64_t>(seq.items().size());
  const int64_t position = misc::scalar_index(ctx, ctx.input(1), "position");
  if (position < -n || position >= n)
    ctx.fail("position " + std::to_string(position) + " is out of range for a sequence of " +
             std::to_string(n) + " tensors");
  ctx.set_output(0, seq.items()[static_cast<std::size_t>(position < 0 ? position + n : position)]);
}

}  // namespace

void define_SequenceAt(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .input("input_sequence", "S")
      .input("position", "I")
      .output("tensor", "T")
      .constraint("S", {"seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"})
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("I", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_sequence_at).kernel(sequence_at_kernel);
}

}  // namespace onnxtool::ops
