// SPDX-License-Identifier: Apache-2.0
// If: the ai.onnx operator.
#include <string>
#include <vector>

#include "core/exec/tensor_util.h"
#include "core/infer/helpers.h"
#include "core/ir/type_text.h"
#include "ops/onnx/control_flow.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

// Runs the branch the condition picks; its outputs become the node's. Outer-scope values are
// visible inside the branch (the executor plans it with this graph as outer scope).
void if_kernel(KernelContext& ctx) {
  const bool cond = onnxtool::scalar_bool(ctx.input(0), "cond");
  const char* branch = cond ? "then_branch" : "else_branch";
  const onnx::GraphProto* graph = ctx.attrs().graph(branch);
  if (!graph) ctx.fail(std::string("attribute ") + branch + " is missing");
  std::vector<Value> outs = ctx.run_graph(*graph, {});
  if (outs.size() != ctx.num_outputs())
    ctx.fail(std::string(branch) + " gives " + std::to_string(outs.size()) +
             " outputs, the node has " + std::to_string(ctx.num_outputs()));
  for (std::size_t i = 0; i < outs.size(); ++i) ctx.set_output(i, std::move(outs[i]));
}

}  // namespace

namespace {

// If: both branches are inferred (they see the outer scope); each output is what the two
// branches agree on. When the condition is a known constant only the taken branch is: the
// other never runs, and exporters leave in it code that would fail for these shapes (the
// AffineGrid function body splits a 5-element size into 4 in its 2-D branch).
void infer_if(InferContext& ctx) {
  const onnx::GraphProto* then_branch = ctx.attrs().graph("then_branch");
  const onnx::GraphProto* else_branch = ctx.attrs().graph("else_branch");
  if (!then_branch || !else_branch) ctx.fail("then_branch and else_branch are both required");
  if (then_branch->output_size() != else_branch->output_size())
    ctx.fail("then_branch has " + std::to_string(then_branch->output_size()) +
             " outputs but else_branch has " + std::to_string(else_branch->output_size()) +
             " (expected equal)");
  if (static_cast<std::size_t>(then_branch->output_size()) < ctx.num_outputs())
    ctx.fail("the branches have " + std::to_string(then_branch->output_size()) +
             " outputs but the node has " + std::to_string(ctx.num_outputs()));
  if (const std::optional<int64_t> cond = input_int(ctx, 0)) {
    const std::vector<Type> taken = ctx.infer_graph(*cond ? *then_branch : *else_branch, {});
    ctx.infer_unreachable_graph(*cond ? *else_branch : *then_branch);
    for (std::size_t i = 0; i < ctx.num_outputs() && i < taken.size(); ++i)
      ctx.set_output_type(i, taken[i]);
    return;
  }
  const std::vector<Type> t = ctx.infer_graph(*then_branch, {});
  const std::vector<Type> e = ctx.infer_graph(*else_branch, {});
  for (std::size_t i = 0; i < ctx.num_outputs() && i < t.size() && i < e.size(); ++i) {
    if (t[i].elem && e[i].elem && t[i].elem != e[i].elem && t[i].kind == e[i].kind)
      ctx.fail("output " + std::to_string(i) + " is " + t[i].to_string() + " in then_branch but " +
               e[i].to_string() + " in else_branch (expected the same element type)");
    ctx.set_output_type(i, join_types(t[i], e[i]));
  }
}

// Plain check: the branches give as many outputs as each other and at least as many as the
// node has, and an output whose element type both declare is declared the same.
void check_if_structure(const StructureContext& s) {
  const onnx::GraphProto* then_branch = body_attribute(s.node, "then_branch");
  const onnx::GraphProto* else_branch = body_attribute(s.node, "else_branch");
  if (!then_branch || !else_branch) return;
  const int outputs = then_branch->output_size();
  if (else_branch->output_size() != outputs) {
    expect_body_count(s, "else_branch", "outputs", else_branch->output_size(), outputs,
                      "then_branch's count");
    return;
  }
  if (s.node.output_size() > outputs)
    s.report("subgraph.arity", "the node has " + std::to_string(s.node.output_size()) +
                                   " outputs but its branches give " + std::to_string(outputs));
  for (int i = 0; i < outputs; ++i) {
    const auto& t = then_branch->output(i).type();
    const auto& e = else_branch->output(i).type();
    if (!t.has_tensor_type() || !e.has_tensor_type()) continue;
    const int32_t a = t.tensor_type().elem_type(), b = e.tensor_type().elem_type();
    if (a != 0 && b != 0 && a != b)
      s.report("subgraph.branch-types", "output " + std::to_string(i) + " is " +
                                            elem_type_to_string(a) + " in then_branch but " +
                                            elem_type_to_string(b) + " in else_branch");
  }
}

}  // namespace

void define_If(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("else_branch", AttrType::g)
      .attr_required("then_branch", AttrType::g)
      .input("cond", "B")
      .output_variadic("outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("B", {"tensor(bool)"});
  op.since(11)
      .attr_required("else_branch", AttrType::g)
      .attr_required("then_branch", AttrType::g)
      .input("cond", "B")
      .output_variadic("outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("B", {"tensor(bool)"});
  op.since(13)
      .attr_required("else_branch", AttrType::g)
      .attr_required("then_branch", AttrType::g)
      .input("cond", "B")
      .output_variadic("outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"})
      .constraint("B", {"tensor(bool)"});
  op.since(16)
      .attr_required("else_branch", AttrType::g)
      .attr_required("then_branch", AttrType::g)
      .input("cond", "B")
      .output_variadic("outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(bfloat16))",
                        "seq(tensor(float16))", "seq(tensor(float))", "seq(tensor(double))",
                        "seq(tensor(string))", "seq(tensor(bool))", "seq(tensor(complex64))",
                        "seq(tensor(complex128))", "optional(seq(tensor(uint8)))",
                        "optional(seq(tensor(uint16)))", "optional(seq(tensor(uint32)))",
                        "optional(seq(tensor(uint64)))", "optional(seq(tensor(int8)))",
                        "optional(seq(tensor(int16)))", "optional(seq(tensor(int32)))",
                        "optional(seq(tensor(int64)))", "optional(seq(tensor(bfloat16)))",
                        "optional(seq(tensor(float16)))", "optional(seq(tensor(float)))",
                        "optional(seq(tensor(double)))", "optional(seq(tensor(string)))",
                        "optional(seq(tensor(bool)))", "optional(seq(tensor(complex64)))",
                        "optional(seq(tensor(complex128)))", "optional(tensor(uint8))",
                        "optional(tensor(uint16))", "optional(tensor(uint32))",
                        "optional(tensor(uint64))", "optional(tensor(int8))",
                        "optional(tensor(int16))", "optional(tensor(int32))",
                        "optional(tensor(int64))", "optional(tensor(bfloat16))",
                        "optional(tensor(float16))", "optional(tensor(float))",
                        "optional(tensor(double))", "optional(tensor(string))",
                        "optional(tensor(bool))", "optional(tensor(complex64))",
                        "optional(tensor(complex128))"})
      .constraint("B", {"tensor(bool)"});
  op.since(19)
      .attr_required("else_branch", AttrType::g)
      .attr_required("then_branch", AttrType::g)
      .input("cond", "B")
      .output_variadic("outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "seq(tensor(uint8))", "seq(tensor(uint16))",
                        "seq(tensor(uint32))", "seq(tensor(uint64))", "seq(tensor(int8))",
                        "seq(tensor(int16))", "seq(tensor(int32))", "seq(tensor(int64))",
                        "seq(tensor(bfloat16))", "seq(tensor(float16))", "seq(tensor(float))",
                        "seq(tensor(double))", "seq(tensor(string))", "seq(tensor(bool))",
                        "seq(tensor(complex64))", "seq(tensor(complex128))",
                        "seq(tensor(float8e4m3fn))", "seq(tensor(float8e4m3fnuz))",
                        "seq(tensor(float8e5m2))", "seq(tensor(float8e5m2fnuz))",
                        "optional(seq(tensor(uint8)))", "optional(seq(tensor(uint16)))",
                        "optional(seq(tensor(uint32)))", "optional(seq(tensor(uint64)))",
                        "optional(seq(tensor(int8)))", "optional(seq(tensor(int16)))",
                        "optional(seq(tensor(int32)))", "optional(seq(tensor(int64)))",
                        "optional(seq(tensor(bfloat16)))", "optional(seq(tensor(float16)))",
                        "optional(seq(tensor(float)))", "optional(seq(tensor(double)))",
                        "optional(seq(tensor(string)))", "optional(seq(tensor(bool)))",
                        "optional(seq(tensor(complex64)))", "optional(seq(tensor(complex128)))",
                        "optional(tensor(uint8))", "optional(tensor(uint16))",
                        "optional(tensor(uint32))", "optional(tensor(uint64))",
                        "optional(tensor(int8))", "optional(tensor(int16))",
                        "optional(tensor(int32))", "optional(tensor(int64))",
                        "optional(tensor(bfloat16))", "optional(tensor(float16))",
                        "optional(tensor(float))", "optional(tensor(double))",
                        "optional(tensor(string))", "optional(tensor(bool))",
                        "optional(tensor(complex64))", "optional(tensor(complex128))",
                        "optional(tensor(float8e4m3fn))", "optional(tensor(float8e4m3fnuz))",
                        "optional(tensor(float8e5m2))", "optional(tensor(float8e5m2fnuz))"})
      .constraint("B", {"tensor(bool)"});
  op.since(21)
      .attr_required("else_branch", AttrType::g)
      .attr_required("then_branch", AttrType::g)
      .input("cond", "B")
      .output_variadic("outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(bfloat16))",
                        "seq(tensor(float16))", "seq(tensor(float))", "seq(tensor(double))",
                        "seq(tensor(string))", "seq(tensor(bool))", "seq(tensor(complex64))",
                        "seq(tensor(complex128))", "seq(tensor(float8e4m3fn))",
                        "seq(tensor(float8e4m3fnuz))", "seq(tensor(float8e5m2))",
                        "seq(tensor(float8e5m2fnuz))", "seq(tensor(uint4))", "seq(tensor(int4))",
                        "optional(seq(tensor(uint8)))", "optional(seq(tensor(uint16)))",
                        "optional(seq(tensor(uint32)))", "optional(seq(tensor(uint64)))",
                        "optional(seq(tensor(int8)))", "optional(seq(tensor(int16)))",
                        "optional(seq(tensor(int32)))", "optional(seq(tensor(int64)))",
                        "optional(seq(tensor(bfloat16)))", "optional(seq(tensor(float16)))",
                        "optional(seq(tensor(float)))", "optional(seq(tensor(double)))",
                        "optional(seq(tensor(string)))", "optional(seq(tensor(bool)))",
                        "optional(seq(tensor(complex64)))", "optional(seq(tensor(complex128)))",
                        "optional(tensor(uint8))", "optional(tensor(uint16))",
                        "optional(tensor(uint32))", "optional(tensor(uint64))",
                        "optional(tensor(int8))", "optional(tensor(int16))",
                        "optional(tensor(int32))", "optional(tensor(int64))",
                        "optional(tensor(bfloat16))", "optional(tensor(float16))",
                        "optional(tensor(float))", "optional(tensor(double))",
                        "optional(tensor(string))", "optional(tensor(bool))",
                        "optional(tensor(complex64))", "optional(tensor(complex128))",
                        "optional(tensor(float8e4m3fn))", "optional(tensor(float8e4m3fnuz))",
                        "optional(tensor(float8e5m2))", "optional(tensor(float8e5m2fnuz))",
                        "optional(tensor(uint4))", "optional(tensor(int4))"})
      .constraint("B", {"tensor(bool)"});
  op.since(23)
      .attr_required("else_branch", AttrType::g)
      .attr_required("then_branch", AttrType::g)
      .input("cond", "B")
      .output_variadic("outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "seq(tensor(uint8))", "seq(tensor(uint16))",
                        "seq(tensor(uint32))", "seq(tensor(uint64))", "seq(tensor(int8))",
                        "seq(tensor(int16))", "seq(tensor(int32))", "seq(tensor(int64))",
                        "seq(tensor(bfloat16))", "seq(tensor(float16))", "seq(tensor(float))",
                        "seq(tensor(double))", "seq(tensor(string))", "seq(tensor(bool))",
                        "seq(tensor(complex64))", "seq(tensor(complex128))",
                        "seq(tensor(float8e4m3fn))", "seq(tensor(float8e4m3fnuz))",
                        "seq(tensor(float8e5m2))", "seq(tensor(float8e5m2fnuz))",
                        "seq(tensor(uint4))", "seq(tensor(int4))", "seq(tensor(float4e2m1))",
                        "optional(seq(tensor(uint8)))", "optional(seq(tensor(uint16)))",
                        "optional(seq(tensor(uint32)))", "optional(seq(tensor(uint64)))",
                        "optional(seq(tensor(int8)))", "optional(seq(tensor(int16)))",
                        "optional(seq(tensor(int32)))", "optional(seq(tensor(int64)))",
                        "optional(seq(tensor(bfloat16)))", "optional(seq(tensor(float16)))",
                        "optional(seq(tensor(float)))", "optional(seq(tensor(double)))",
                        "optional(seq(tensor(string)))", "optional(seq(tensor(bool)))",
                        "optional(seq(tensor(complex64)))", "optional(seq(tensor(complex128)))",
                        "optional(tensor(uint8))", "optional(tensor(uint16))",
                        "optional(tensor(uint32))", "optional(tensor(uint64))",
                        "optional(tensor(int8))", "optional(tensor(int16))",
                        "optional(tensor(int32))", "optional(tensor(int64))",
                        "optional(tensor(bfloat16))", "optional(tensor(float16))",
                        "optional(tensor(float))", "optional(tensor(double))",
                        "optional(tensor(string))", "optional(tensor(bool))",
                        "optional(tensor(complex64))", "optional(tensor(complex128))",
                        "optional(tensor(float8e4m3fn))", "optional(tensor(float8e4m3fnuz))",
                        "optional(tensor(float8e5m2))", "optional(tensor(float8e5m2fnuz))",
                        "optional(tensor(uint4))", "optional(tensor(int4))",
                        "optional(tensor(float4e2m1))"})
      .constraint("B", {"tensor(bool)"});
  op.since(24)
      .attr_required("else_branch", AttrType::g)
      .attr_required("then_branch", AttrType::g)
      .input("cond", "B")
      .output_variadic("outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "seq(tensor(uint8))",
                        "seq(tensor(uint16))", "seq(tensor(uint32))", "seq(tensor(uint64))",
                        "seq(tensor(int8))", "seq(tensor(int16))", "seq(tensor(int32))",
                        "seq(tensor(int64))", "seq(tensor(bfloat16))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))",
                        "seq(tensor(float8e4m3fn))", "seq(tensor(float8e4m3fnuz))",
                        "seq(tensor(float8e5m2))", "seq(tensor(float8e5m2fnuz))",
                        "seq(tensor(uint4))", "seq(tensor(int4))", "seq(tensor(float4e2m1))",
                        "seq(tensor(float8e8m0))", "optional(seq(tensor(uint8)))",
                        "optional(seq(tensor(uint16)))", "optional(seq(tensor(uint32)))",
                        "optional(seq(tensor(uint64)))", "optional(seq(tensor(int8)))",
                        "optional(seq(tensor(int16)))", "optional(seq(tensor(int32)))",
                        "optional(seq(tensor(int64)))", "optional(seq(tensor(bfloat16)))",
                        "optional(seq(tensor(float16)))", "optional(seq(tensor(float)))",
                        "optional(seq(tensor(double)))", "optional(seq(tensor(string)))",
                        "optional(seq(tensor(bool)))", "optional(seq(tensor(complex64)))",
                        "optional(seq(tensor(complex128)))", "optional(tensor(uint8))",
                        "optional(tensor(uint16))", "optional(tensor(uint32))",
                        "optional(tensor(uint64))", "optional(tensor(int8))",
                        "optional(tensor(int16))", "optional(tensor(int32))",
                        "optional(tensor(int64))", "optional(tensor(bfloat16))",
                        "optional(tensor(float16))", "optional(tensor(float))",
                        "optional(tensor(double))", "optional(tensor(string))",
                        "optional(tensor(bool))", "optional(tensor(complex64))",
                        "optional(tensor(complex128))", "optional(tensor(float8e4m3fn))",
                        "optional(tensor(float8e4m3fnuz))", "optional(tensor(float8e5m2))",
                        "optional(tensor(float8e5m2fnuz))", "optional(tensor(uint4))",
                        "optional(tensor(int4))", "optional(tensor(float4e2m1))",
                        "optional(tensor(float8e8m0))"})
      .constraint("B", {"tensor(bool)"});
  op.since(25)
      .attr_required("else_branch", AttrType::g)
      .attr_required("then_branch", AttrType::g)
      .input("cond", "B")
      .output_variadic("outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)", "tensor(int2)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(bfloat16))",
                        "seq(tensor(float16))", "seq(tensor(float))", "seq(tensor(double))",
                        "seq(tensor(string))", "seq(tensor(bool))", "seq(tensor(complex64))",
                        "seq(tensor(complex128))", "seq(tensor(float8e4m3fn))",
                        "seq(tensor(float8e4m3fnuz))", "seq(tensor(float8e5m2))",
                        "seq(tensor(float8e5m2fnuz))", "seq(tensor(uint4))", "seq(tensor(int4))",
                        "seq(tensor(float4e2m1))", "seq(tensor(float8e8m0))", "seq(tensor(uint2))",
                        "seq(tensor(int2))", "optional(seq(tensor(uint8)))",
                        "optional(seq(tensor(uint16)))", "optional(seq(tensor(uint32)))",
                        "optional(seq(tensor(uint64)))", "optional(seq(tensor(int8)))",
                        "optional(seq(tensor(int16)))", "optional(seq(tensor(int32)))",
                        "optional(seq(tensor(int64)))", "optional(seq(tensor(bfloat16)))",
                        "optional(seq(tensor(float16)))", "optional(seq(tensor(float)))",
                        "optional(seq(tensor(double)))", "optional(seq(tensor(string)))",
                        "optional(seq(tensor(bool)))", "optional(seq(tensor(complex64)))",
                        "optional(seq(tensor(complex128)))", "optional(tensor(uint8))",
                        "optional(tensor(uint16))", "optional(tensor(uint32))",
                        "optional(tensor(uint64))", "optional(tensor(int8))",
                        "optional(tensor(int16))", "optional(tensor(int32))",
                        "optional(tensor(int64))", "optional(tensor(bfloat16))",
                        "optional(tensor(float16))", "optional(tensor(float))",
                        "optional(tensor(double))", "optional(tensor(string))",
                        "optional(tensor(bool))", "optional(tensor(complex64))",
                        "optional(tensor(complex128))", "optional(tensor(float8e4m3fn))",
                        "optional(tensor(float8e4m3fnuz))", "optional(tensor(float8e5m2))",
                        "optional(tensor(float8e5m2fnuz))", "optional(tensor(uint4))",
                        "optional(tensor(int4))", "optional(tensor(float4e2m1))",
                        "optional(tensor(float8e8m0))", "optional(tensor(uint2))",
                        "optional(tensor(int2))"})
      .constraint("B", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  op.all().kernel(if_kernel);
  op.all().infer(infer_if);
  op.all().check_structure(check_if_structure);
}

}  // namespace onnxtool::ops
