// SPDX-License-Identifier: Apache-2.0
// SequenceConstruct: the ai.onnx operator. A sequence of its input tensors, in order.
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

// The element type: the inputs' element type (they must agree) and the shape they share (dims
// that differ between inputs are unknown).
void infer_sequence_construct(InferContext& ctx) {
  std::vector<Type> items;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i)
    if (ctx.has_input(i)) items.push_back(ctx.input_type(i));
  ctx.set_output_type(0, Type::sequence(misc::join_tensor_types(items, "the inputs")));
}

void sequence_construct_kernel(KernelContext& ctx) {
  std::vector<Value> items;
  DataType elem = DataType::undefined;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Tensor& t = ctx.input(i);
    if (elem != DataType::undefined && t.dtype() != elem)
      ctx.fail("input " + std::to_string(i) + " is " + std::string(type_name(t.dtype())) +
               ", input 0 is " + std::string(type_name(elem)) +
               ": a sequence holds one element type");
    elem = t.dtype();
    items.emplace_back(t);
  }
  ctx.set_output(0, Value::sequence(std::move(items), elem));
}

}  // namespace

void define_SequenceConstruct(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .input_variadic("inputs", "T", 1)
      .output("output_sequence", "S")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("S", {"seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_sequence_construct).kernel(sequence_construct_kernel);
}

}  // namespace onnxtool::ops
