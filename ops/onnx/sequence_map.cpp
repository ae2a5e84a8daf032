// SPDX-License-Identifier: Apache-2.0
// SequenceMap: the ai.onnx operator. Runs `body` once per element of the first input sequence;
// other sequence inputs give their element at the same position, tensor inputs are passed whole.
// Output j is the sequence of the body's output j.
#include "onnx.pb.h"
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_sequence_map(InferContext& ctx) {
  const onnx::GraphProto* body = ctx.attrs().graph("body");
  if (!body) infer_fail("attribute body is required");
  std::vector<Type> inputs;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Type& t = ctx.input_type(i);
    if (i == 0 && !t.is_unknown() && t.kind != Type::Kind::sequence)
      infer_fail("input 0 must be a sequence, got " + t.to_string());
    inputs.push_back(t.kind == Type::Kind::sequence ? t.element() : t);
  }
  const std::vector<Type> outputs = ctx.infer_graph(*body, inputs);
  if (outputs.size() != ctx.num_outputs())
    infer_fail("the body has " + std::to_string(outputs.size()) + " outputs, the node " +
               std::to_string(ctx.num_outputs()));
  for (std::size_t j = 0; j < outputs.size(); ++j)
    ctx.set_output_type(j, Type::sequence(outputs[j]));
}

// The body's inputs for iteration i.
std::vector<Value> iteration_inputs(const KernelContext& ctx, std::size_t i) {
  std::vector<Value> in;
  for (std::size_t k = 0; k < ctx.num_inputs(); ++k) {
    const Value& v = ctx.input_value(k);
    in.push_back(v.is_sequence() ? v.items()[i] : v);
  }
  return in;
}

// The element type of body output j as the graph declares it (what an empty result holds).
DataType declared_elem(const onnx::GraphProto& body, std::size_t j) {
  if (j >= static_cast<std::size_t>(body.output_size())) return DataType::undefined;
  const onnx::TypeProto& t = body.output(static_cast<int>(j)).type();
  if (!t.has_tensor_type()) return DataType::undefined;
  return data_type_from_int(t.tensor_type().elem_type()).value_or(DataType::undefined);
}

void sequence_map_kernel(KernelContext& ctx) {
  const onnx::GraphProto* body_attr = ctx.attrs().graph("body");
  if (!body_attr) ctx.fail("attribute body is required");
  const onnx::GraphProto& body = *body_attr;
  const std::size_t n = misc::sequence_input(ctx, 0, "input_sequence").items().size();
  for (std::size_t k = 1; k < ctx.num_inputs(); ++k) {
    if (!ctx.has_input(k)) ctx.fail("input " + std::to_string(k) + " is missing");
    const Value& v = ctx.input_value(k);
    if (v.is_sequence() && v.items().size() != n)
      ctx.fail("input " + std::to_string(k) + " has " + std::to_string(v.items().size()) +
               " elements, input 0 has " + std::to_string(n));
  }
  std::vector<std::vector<Value>> results(ctx.num_outputs());
  for (std::size_t i = 0; i < n; ++i) {
    std::vector<Value> out = ctx.run_graph(body, iteration_inputs(ctx, i));
    if (out.size() != results.size())
      ctx.fail("the body gave " + std::to_string(out.size()) + " outputs, the node has " +
               std::to_string(results.size()));
    for (std::size_t j = 0; j < out.size(); ++j) {
      if (!out[j].is_tensor()) ctx.fail("body output " + std::to_string(j) + " is not a tensor");
      results[j].push_back(std::move(out[j]));
    }
  }
  for (std::size_t j = 0; j < results.size(); ++j) {
    const DataType elem =
        results[j].empty() ? declared_elem(body, j) : results[j].front().tensor().dtype();
    ctx.set_output(j, Value::sequence(std::move(results[j]), elem));
  }
}

}  // namespace

void define_SequenceMap(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(17)
      .is_function({17})
      .attr_required("body", AttrType::g)
      .input("input_sequence", "S")
      .input_variadic("additional_inputs", "V", 0, false)
      .output_variadic("out_sequence", "S", 1, false)
      .constraint("S", {"seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"})
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"});
  // END SIGNATURES
  // clang-format on
  op.at(17).function_note(
      "the body is a Loop whose body graph is assembled from the `body` attribute and from how "
      "many inputs the call has and which of them are sequences; a fixed body cannot build a "
      "subgraph from a graph attribute");
  op.all().infer(infer_sequence_map).kernel(sequence_map_kernel);
}

}  // namespace onnxtool::ops
