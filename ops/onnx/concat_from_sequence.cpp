// SPDX-License-Identifier: Apache-2.0
// ConcatFromSequence: the ai.onnx operator. Concatenates a sequence's tensors along `axis`, or
// stacks them along a new axis when new_axis is 1.
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

// The number of tensors is not part of the sequence's type: the concatenated dim is unknown.
void infer_concat_from_sequence(InferContext& ctx) {
  const Type& seq = ctx.input_type(0);
  if (!seq.is_unknown() && seq.kind != Type::Kind::sequence)
    infer_fail("input 0 must be a sequence, got " + seq.to_string());
  const Type item = misc::element_type(seq);
  if (!item.is_tensor() || !item.shape) {
    set_output_tensor(ctx, 0, item.elem);
    return;
  }
  const bool new_axis = ctx.attrs().get_int("new_axis", 0) != 0;
  Dims out = *item.shape;
  const auto rank = static_cast<int64_t>(out.size()) + (new_axis ? 1 : 0);
  const int64_t axis = ctx.normalize_axis(ctx.attrs().get_int("axis"), rank);
  if (new_axis)
    out.insert(out.begin() + axis, Dim());
  else
    out[static_cast<std::size_t>(axis)] = Dim();
  set_output_tensor(ctx, 0, item.elem, out);
  ctx.explain(0, "the number of tensors in the sequence is known only at run time");
}

void concat_from_sequence_kernel(KernelContext& ctx) {
  const Value& seq = misc::sequence_input(ctx, 0, "input_sequence");
  if (seq.items().empty()) ctx.fail("cannot concatenate an empty sequence");
  std::vector<Tensor> parts;
  for (const Value& v : seq.items()) parts.push_back(v.tensor());
  const bool new_axis = ctx.attrs().get_int("new_axis", 0) != 0;
  const int64_t rank = parts.front().rank() + (new_axis ? 1 : 0);
  int64_t axis = ctx.attrs().get_int("axis");
  if (axis < -rank || axis >= rank)
    ctx.fail("axis " + std::to_string(axis) + " is out of range for rank " + std::to_string(rank));
  if (axis < 0) axis += rank;
  if (!new_axis) {
    ctx.set_output(0, misc::concat_along(ctx, parts, axis));
    return;
  }
  // Stacking is concatenation of the tensors each given a new axis of size 1.
  for (Tensor& p : parts) {
    Shape s = p.shape();
    s.insert(s.begin() + axis, 1);
    p = p.reshaped(s);
  }
  ctx.set_output(0, misc::concat_along(ctx, parts, axis));
}

}  // namespace

void define_ConcatFromSequence(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .attr_required("axis", AttrType::i)
      .attr("new_axis", AttrType::i, int64_t{0})
      .input("input_sequence", "S")
      .output("concat_result", "T")
      .constraint("S", {"seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"})
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_concat_from_sequence).kernel(concat_from_sequence_kernel);
}

}  // namespace onnxtool::ops
