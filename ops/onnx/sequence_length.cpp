// SPDX-License-Identifier: Apache-2.0
// SequenceLength: the ai.onnx operator. The number of tensors in the sequence, an int64 scalar.
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_sequence_length(InferContext& ctx) {
  const Type& seq = ctx.input_type(0);
  if (!seq.is_unknown() && seq.kind != Type::Kind::sequence)
    infer_fail("input 0 must be a sequence, got " + seq.to_string());
  set_output_tensor(ctx, 0, static_cast<int32_t>(DataType::int64), Dims{});
}

void sequence_length_kernel(KernelContext& ctx) {
  const Value& seq = misc::sequence_input(ctx, 0, "input_sequence");
  ctx.set_output(0, Tensor::scalar<int64_t>(static_cast<int64_t>(seq.items().size())));
}

}  // namespace

void define_SequenceLength(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .input("input_sequence", "S")
      .output("length", "I")
      .constraint("S", {"seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"})
      .constraint("I", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_sequence_length).kernel(sequence_length_kernel);
}

}  // namespace onnxtool::ops
