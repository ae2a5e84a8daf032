// SPDX-License-Identifier: Apache-2.0
// SequenceInsert: the ai.onnx operator. The sequence with `tensor` inserted before `position`
// (appended when position is omitted; position may equal the length; negative counts from the
// end).
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

// The elements now include the inserted tensor: element types must agree, shapes are joined.
// An empty sequence's elements (SequenceEmpty) have no shape yet, so the join keeps only what
// both know.
void infer_sequence_insert(InferContext& ctx) {
  const Type& seq = ctx.input_type(0);
  if (!seq.is_unknown() && seq.kind != Type::Kind::sequence)
    infer_fail("input 0 must be a sequence, got " + seq.to_string());
  const Type& item = ctx.input_type(1);
  if (seq.is_unknown()) {
    ctx.set_output_type(0, Type::sequence(Type::tensor(item.elem)));
    return;
  }
  ctx.set_output_type(
      0, Type::sequence(misc::join_tensor_types({seq.element(), item}, "the sequence")));
}

void sequence_insert_kernel(KernelContext& ctx) {
  const Value& seq = misc::sequence_input(ctx, 0, "input_sequence");
  const Tensor& t = ctx.input(1);
  std::vector<Value> items = seq.items();
  DataType elem = seq.sequence_elem_type();
  if (elem == DataType::undefined && !items.empty()) elem = items.front().tensor().dtype();
  if (elem != DataType::undefined && elem != t.dtype())
    ctx.fail("cannot insert a " + std::string(type_name(t.dtype())) +
             " tensor into a sequence of " + std::string(type_name(elem)) + " tensors");
  const auto n = static_cast<int64_t>(items.size());
  int64_t position = n;
  if (ctx.has_input(2)) position = misc::scalar_index(ctx, ctx.input(2), "position");
  if (position < -n || position > n)
    ctx.fail("position " + std::to_string(position) + " is out of range for a sequence of " +
             std::to_string(n) + " tensors");
  if (position < 0) position += n;
  items.insert(items.begin() + position, Value(t));
  ctx.set_output(0, Value::sequence(std::move(items), t.dtype()));
}

}  // namespace

void define_SequenceInsert(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .input("input_sequence", "S")
      .input("tensor", "T")
      .input_optional("position", "I")
      .output("output_sequence", "S")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("S", {"seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"})
      .constraint("I", {"tensor(int32)", "tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_sequence_insert).kernel(sequence_insert_kernel);
}

}  // namespace onnxtool::ops
