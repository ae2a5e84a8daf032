// SPDX-License-Identifier: Apache-2.0
// Loop: the ai.onnx operator.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/exec/tensor_util.h"
#include "core/infer/helpers.h"
#include "onnx.pb.h"
#include "ops/onnx/control_flow.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

// A scan output of a loop that ran zero times: empty along the iteration axis, with the element
// type and the fixed dims the body declares for it (unknown dims become 0).
Tensor empty_scan_output(const onnx::GraphProto& body, std::size_t body_output) {
  DataType type = DataType::float32;
  Shape shape = {0};
  if (static_cast<int>(body_output) >= body.output_size()) return Tensor(type, shape);
  const auto& t = body.output(static_cast<int>(body_output)).type();
  if (!t.has_tensor_type()) return Tensor(type, shape);
  if (auto dt = onnxtool::data_type_from_int(t.tensor_type().elem_type())) type = *dt;
  for (const auto& d : t.tensor_type().shape().dim())
    shape.push_back(d.has_dim_value() ? d.dim_value() : 0);
  return Tensor(type, shape);
}

struct LoopState {
  int64_t trip_limit = std::numeric_limits<int64_t>::max();
  bool cond = true;
  std::vector<Value> carried;
  std::vector<std::vector<Tensor>> scans;  // per scan output, one tensor per iteration
};

// Runs one iteration: updates the condition and the carried values, collects scan outputs.
void loop_iteration(KernelContext& ctx, const onnx::GraphProto& body, int64_t i, LoopState& s) {
  std::vector<Value> args;
  args.reserve(s.carried.size() + 2);
  args.emplace_back(Tensor::scalar<int64_t>(i));
  args.emplace_back(Tensor::scalar<bool>(s.cond));
  for (auto& v : s.carried) args.push_back(std::move(v));
  std::vector<Value> outs = ctx.run_graph(body, args);
  const std::size_t n = s.carried.size(), k = s.scans.size();
  if (outs.size() != 1 + n + k)
    ctx.fail("the body gives " + std::to_string(outs.size()) + " outputs, expected " +
             std::to_string(1 + n + k) + " (condition, " + std::to_string(n) + " loop-carried, " +
             std::to_string(k) + " scan outputs)");
  if (!outs[0].is_tensor()) ctx.fail("the body's condition output is not a tensor");
  s.cond = onnxtool::scalar_bool(outs[0].tensor(), "the body's condition output");
  for (std::size_t j = 0; j < n; ++j) s.carried[j] = std::move(outs[1 + j]);
  for (std::size_t j = 0; j < k; ++j) {
    Value& v = outs[1 + n + j];
    if (!v.is_tensor()) ctx.fail("scan output " + std::to_string(j) + " is not a tensor");
    s.scans[j].push_back(v.tensor());
  }
}

// Loop: runs the body while the trip count and the condition allow; loop-carried values flow
// from one iteration to the next, scan outputs are stacked along a new first axis.
void loop_kernel(KernelContext& ctx) {
  const onnx::GraphProto* body = ctx.attrs().graph("body");
  if (!body) ctx.fail("attribute body is missing");
  LoopState s;
  if (ctx.has_input(0)) s.trip_limit = onnxtool::scalar_int(ctx.input(0), "M");
  if (ctx.has_input(1)) s.cond = onnxtool::scalar_bool(ctx.input(1), "cond");
  const std::size_t n = ctx.num_inputs() >= 2 ? ctx.num_inputs() - 2 : 0;
  if (ctx.num_outputs() < n) ctx.fail("the node has fewer outputs than loop-carried values");
  for (std::size_t j = 0; j < n; ++j) s.carried.push_back(ctx.input_value(2 + j));
  s.scans.resize(ctx.num_outputs() - n);
  for (int64_t i = 0; i < s.trip_limit && s.cond; ++i) loop_iteration(ctx, *body, i, s);
  for (std::size_t j = 0; j < n; ++j) ctx.set_output(j, std::move(s.carried[j]));
  for (std::size_t j = 0; j < s.scans.size(); ++j) {
    const Tensor empty = empty_scan_output(*body, 1 + n + j);
    ctx.set_output(n + j, onnxtool::stack_along(s.scans[j], 0, empty.dtype(), empty.shape()));
  }
}

}  // namespace

namespace {

// Loop's body sees (iteration_num, cond, carried...) and gives (cond, carried..., scan...). The
// carried values' types are iterated to a fixpoint: what holds before the first iteration and
// after every one (dims that change between iterations become unknown).
constexpr int kMaxLoopPasses = 4;

std::vector<Type> loop_body_pass(InferContext& ctx, const onnx::GraphProto& body,
                                 std::vector<Type>& carried) {
  std::vector<Type> in{Type::tensor(static_cast<int32_t>(DataType::int64), Dims{}),
                       Type::tensor(static_cast<int32_t>(DataType::boolean), Dims{})};
  in.insert(in.end(), carried.begin(), carried.end());
  std::vector<Type> out = ctx.infer_graph(body, in);
  if (out.size() < carried.size() + 1)
    ctx.fail("the body has " + std::to_string(out.size()) + " outputs, expected at least " +
             std::to_string(carried.size() + 1) + " (cond and the loop-carried values)");
  return out;
}

// Loop-16 may start a carried value as an empty optional that the body fills with its element
// type: the body keeps seeing an optional, and the loop gives back what the body produces.
bool fills_optional(const Type& before, const Type& after) {
  return before.kind == Type::Kind::optional && !after.is_unknown() &&
         after.kind != Type::Kind::optional;
}

// What holds for a carried value before and after an iteration (the body's next input).
Type join_carried(const Type& before, const Type& after) {
  if (fills_optional(before, after)) return Type::optional(join_types(before.element(), after));
  return join_types(before, after);
}

void infer_loop(InferContext& ctx) {
  const onnx::GraphProto* body = ctx.attrs().graph("body");
  if (!body) ctx.fail("the body attribute is required");
  const std::size_t n = ctx.num_inputs() >= 2 ? ctx.num_inputs() - 2 : 0;
  std::vector<Type> carried;
  for (std::size_t i = 0; i < n; ++i) carried.push_back(ctx.input_type(i + 2));
  std::vector<Type> out;
  for (int pass = 0; pass < kMaxLoopPasses; ++pass) {
    out = loop_body_pass(ctx, *body, carried);
    bool stable = true;
    for (std::size_t i = 0; i < n; ++i) {
      Type joined = join_carried(carried[i], out[i + 1]);
      stable = stable && joined.to_string() == carried[i].to_string();
      carried[i] = std::move(joined);
    }
    if (stable) break;
  }
  // A for-loop (a known trip count and no condition input) runs exactly that many times.
  const std::optional<int64_t> trips = ctx.has_input(1) ? std::nullopt : input_int(ctx, 0);
  for (std::size_t o = 0; o < ctx.num_outputs(); ++o) {
    if (o < n) {
      const Type& after = out[o + 1];
      ctx.set_output_type(o, fills_optional(carried[o], after)
                                 ? join_types(carried[o].element(), after)
                                 : carried[o]);
      continue;
    }
    if (o + 1 >= out.size()) break;
    const Type& each = out[o + 1];
    if (!each.is_tensor()) continue;
    std::optional<Dims> shape;
    if (each.shape) {
      shape = Dims{trips ? Dim::value(*trips) : Dim()};
      shape->insert(shape->end(), each.shape->begin(), each.shape->end());
    }
    ctx.set_output_type(o, Type::tensor(each.elem, shape));
  }
}

// Plain check: the body takes the iteration number, the condition and the N loop-carried
// values (the node's inputs: M, cond, then those N), and gives the condition, the N values and
// the K scan outputs (one more than the node's N + K outputs).
void check_loop_structure(const StructureContext& s) {
  const onnx::GraphProto* body = body_attribute(s.node, "body");
  if (!body) return;
  expect_body_count(s, "body", "inputs", body->input_size(), s.node.input_size(),
                    "the iteration number, the condition and the node's " +
                        std::to_string(s.node.input_size() - 2) + " loop-carried values");
  expect_body_count(
      s, "body", "outputs", body->output_size(), s.node.output_size() + 1,
      "the condition and the node's " + std::to_string(s.node.output_size()) + " outputs");
}

}  // namespace

void define_Loop(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 1, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(11)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(13)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"})
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(16)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
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
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(19)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
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
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(21)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
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
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(23)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
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
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(24)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
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
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  op.since(25)
      .attr_required("body", AttrType::g)
      .input_optional("M", "I")
      .input_optional("cond", "B")
      .input_variadic("v_initial", "V", 0, false)
      .output_variadic("v_final_and_scan_outputs", "V", 1, false)
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
      .constraint("I", {"tensor(int64)"})
      .constraint("B", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  op.all().kernel(loop_kernel);
  op.all().infer(infer_loop);
  op.all().check_structure(check_loop_structure);
  // Version 11 says what version 1 meant: loop-carried values of their own types each.
  op.at(11).upgrade(convert::unchanged("")).downgrade(convert::unchanged(""));
}

}  // namespace onnxtool::ops
