// SPDX-License-Identifier: Apache-2.0
// Scan: the ai.onnx operator.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "core/exec/tensor_util.h"
#include "core/infer/helpers.h"
#include "onnx.pb.h"
#include "ops/onnx/control_flow.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

using onnxtool::slice_along;
using onnxtool::stack_along;

struct ScanLayout {
  std::size_t states = 0, scan_inputs = 0, scan_outputs = 0;
  std::vector<int64_t> in_axes, in_reverse, out_axes, out_reverse;
};

int64_t scan_axis(KernelContext& ctx, int64_t axis, int64_t rank, const char* what) {
  const int64_t a = axis < 0 ? axis + rank : axis;
  if (a < 0 || a >= rank)
    ctx.fail(std::string(what) + " " + std::to_string(axis) + " is out of range for rank " +
             std::to_string(rank));
  return a;
}

std::vector<int64_t> ints_or(KernelContext& ctx, const char* name, std::size_t n) {
  auto v = ctx.attrs().get_ints(name, std::vector<int64_t>(n, 0));
  if (v.size() != n)
    ctx.fail(std::string("attribute ") + name + " has " + std::to_string(v.size()) +
             " values, expected " + std::to_string(n));
  return v;
}

// Runs the body once: states in, states and per-iteration scan outputs out.
void scan_step(KernelContext& ctx, const onnx::GraphProto& body, std::vector<Value>& states,
               std::vector<Value> slices, std::vector<std::vector<Tensor>>& scans) {
  std::vector<Value> args = states;
  for (auto& s : slices) args.push_back(std::move(s));
  std::vector<Value> outs = ctx.run_graph(body, args);
  if (outs.size() != states.size() + scans.size())
    ctx.fail("the body gives " + std::to_string(outs.size()) + " outputs, expected " +
             std::to_string(states.size() + scans.size()));
  for (std::size_t j = 0; j < states.size(); ++j) states[j] = std::move(outs[j]);
  for (std::size_t k = 0; k < scans.size(); ++k) {
    const Value& v = outs[states.size() + k];
    if (!v.is_tensor()) ctx.fail("scan output " + std::to_string(k) + " is not a tensor");
    scans[k].push_back(v.tensor());
  }
}

// The iteration count: the scan inputs' length along their scan axes, which must agree.
int64_t scan_length(KernelContext& ctx, const ScanLayout& l) {
  int64_t len = -1;
  for (std::size_t m = 0; m < l.scan_inputs; ++m) {
    const Tensor& x = ctx.input(l.states + m);
    const int64_t axis = scan_axis(ctx, l.in_axes[m], x.rank(), "scan_input_axes value");
    const int64_t d = x.shape()[static_cast<std::size_t>(axis)];
    if (len >= 0 && d != len)
      ctx.fail("scan input " + std::to_string(m) + " has " + std::to_string(d) +
               " elements along its scan axis, scan input 0 has " + std::to_string(len));
    len = d;
  }
  return std::max<int64_t>(len, 0);
}

// Scan (opset 9 on): no batch axis; inputs are scanned along scan_input_axes.
void scan_kernel(KernelContext& ctx) {
  const onnx::GraphProto* body = ctx.attrs().graph("body");
  if (!body) ctx.fail("attribute body is missing");
  ScanLayout l;
  l.scan_inputs = static_cast<std::size_t>(ctx.attrs().get_int("num_scan_inputs"));
  if (l.scan_inputs > ctx.num_inputs()) ctx.fail("num_scan_inputs exceeds the inputs");
  l.states = ctx.num_inputs() - l.scan_inputs;
  if (l.states > ctx.num_outputs()) ctx.fail("the node has fewer outputs than states");
  l.scan_outputs = ctx.num_outputs() - l.states;
  l.in_axes = ints_or(ctx, "scan_input_axes", l.scan_inputs);
  l.in_reverse = ints_or(ctx, "scan_input_directions", l.scan_inputs);
  l.out_axes = ints_or(ctx, "scan_output_axes", l.scan_outputs);
  l.out_reverse = ints_or(ctx, "scan_output_directions", l.scan_outputs);
  const int64_t len = scan_length(ctx, l);

  std::vector<Value> states;
  for (std::size_t j = 0; j < l.states; ++j) states.push_back(ctx.input_value(j));
  std::vector<std::vector<Tensor>> scans(l.scan_outputs);
  for (int64_t t = 0; t < len; ++t) {
    std::vector<Value> slices;
    for (std::size_t m = 0; m < l.scan_inputs; ++m) {
      const Tensor& x = ctx.input(l.states + m);
      const int64_t axis = scan_axis(ctx, l.in_axes[m], x.rank(), "scan_input_axes value");
      slices.emplace_back(slice_along(x, axis, l.in_reverse[m] ? len - 1 - t : t));
    }
    scan_step(ctx, *body, states, std::move(slices), scans);
  }
  for (std::size_t j = 0; j < l.states; ++j) ctx.set_output(j, std::move(states[j]));
  for (std::size_t k = 0; k < l.scan_outputs; ++k) {
    auto& items = scans[k];
    if (l.out_reverse[k]) std::reverse(items.begin(), items.end());
    const int64_t rank = items.empty() ? 1 : items.front().rank() + 1;
    const int64_t axis = scan_axis(ctx, l.out_axes[k], rank, "scan_output_axes value");
    ctx.set_output(l.states + k, stack_along(items, axis));
  }
}

// Scan-8: every input has a leading batch axis; scan inputs are [batch, sequence, ...], and
// sequence_lens (optional input 0) gives each batch entry's length. Outputs past a shorter
// sequence's end are zero.
void scan8_batch(KernelContext& ctx, const onnx::GraphProto& body, const ScanLayout& l, int64_t b,
                 int64_t max_len, std::vector<std::vector<Tensor>>& final_states,
                 std::vector<std::vector<Tensor>>& batch_scans) {
  int64_t len = max_len;
  if (ctx.has_input(0)) {
    const Tensor& lens = ctx.input(0);
    if (lens.dtype() != DataType::int64 || b >= lens.numel())
      ctx.fail("sequence_lens must be int64 with one entry per batch row");
    len = lens.data<int64_t>()[b];
    if (len < 0 || len > max_len) ctx.fail("sequence_lens entry is out of range");
  }
  std::vector<Value> states;
  for (std::size_t j = 0; j < l.states; ++j)
    states.emplace_back(slice_along(ctx.input(1 + j), 0, b));
  std::vector<Tensor> rows;
  for (std::size_t m = 0; m < l.scan_inputs; ++m)
    rows.push_back(slice_along(ctx.input(1 + l.states + m), 0, b));
  std::vector<std::vector<Tensor>> scans(l.scan_outputs);
  for (int64_t t = 0; t < len; ++t) {
    std::vector<Value> slices;
    for (std::size_t m = 0; m < l.scan_inputs; ++m)
      slices.emplace_back(slice_along(rows[m], 0, l.in_reverse[m] ? len - 1 - t : t));
    scan_step(ctx, body, states, std::move(slices), scans);
  }
  for (std::size_t j = 0; j < l.states; ++j) {
    if (!states[j].is_tensor()) ctx.fail("state " + std::to_string(j) + " is not a tensor");
    final_states[j].push_back(states[j].tensor());
  }
  for (std::size_t k = 0; k < l.scan_outputs; ++k) {
    auto& items = scans[k];
    if (items.empty()) ctx.fail("scan output of an empty sequence has no shape");
    while (static_cast<int64_t>(items.size()) < max_len)
      items.emplace_back(items.front().dtype(), items.front().shape());
    batch_scans[k].push_back(stack_along(items, 0));
  }
}

void scan8_kernel(KernelContext& ctx) {
  const onnx::GraphProto* body = ctx.attrs().graph("body");
  if (!body) ctx.fail("attribute body is missing");
  ScanLayout l;
  l.scan_inputs = static_cast<std::size_t>(ctx.attrs().get_int("num_scan_inputs"));
  if (ctx.num_inputs() < 1 + l.scan_inputs) ctx.fail("num_scan_inputs exceeds the inputs");
  l.states = ctx.num_inputs() - 1 - l.scan_inputs;
  if (l.states > ctx.num_outputs()) ctx.fail("the node has fewer outputs than states");
  l.scan_outputs = ctx.num_outputs() - l.states;
  l.in_reverse = ints_or(ctx, "directions", l.scan_inputs);
  const Tensor& first = ctx.input(1);
  if (first.rank() < 1) ctx.fail("inputs need a leading batch axis");
  const int64_t batch = first.shape()[0];
  int64_t max_len = 0;
  if (l.scan_inputs > 0) {
    const Tensor& x = ctx.input(1 + l.states);
    if (x.rank() < 2) ctx.fail("scan inputs need batch and sequence axes");
    max_len = x.shape()[1];
  }
  std::vector<std::vector<Tensor>> final_states(l.states), batch_scans(l.scan_outputs);
  for (int64_t b = 0; b < batch; ++b)
    scan8_batch(ctx, *body, l, b, max_len, final_states, batch_scans);
  for (std::size_t j = 0; j < l.states; ++j) ctx.set_output(j, stack_along(final_states[j], 0));
  for (std::size_t k = 0; k < l.scan_outputs; ++k)
    ctx.set_output(l.states + k, stack_along(batch_scans[k], 0));
}

}  // namespace

namespace {

Dims drop_axes(const Dims& d, std::size_t first, std::size_t count) {
  Dims out = d;
  out.erase(out.begin() + static_cast<std::ptrdiff_t>(first),
            out.begin() + static_cast<std::ptrdiff_t>(first + count));
  return out;
}

// The body's view of a scan input: one slice along its scan axis (Scan-9+), or along axis 1
// below a batch axis 0 (Scan-8, `batched`). Also unifies the sequence length.
Type scan_slice(InferContext& ctx, const Type& t, int64_t axis, bool batched, Dim& seq_len) {
  if (!t.is_tensor() || !t.has_shape()) return t.is_tensor() ? Type::tensor(t.elem) : t;
  const int64_t rank = t.rank();
  if (batched && rank < 2) ctx.fail("a Scan-8 scan input needs a batch and a sequence axis");
  const int64_t a = batched ? 1 : ctx.normalize_axis(axis, rank, "scan_input_axes");
  seq_len = ctx.unify_dims(seq_len, (*t.shape)[static_cast<std::size_t>(a)], "sequence length");
  return Type::tensor(
      t.elem, drop_axes(*t.shape, batched ? 0 : static_cast<std::size_t>(a), batched ? 2 : 1));
}

// A scan output: the body's per-iteration type with the sequence axis inserted (and the batch
// axis in front for Scan-8).
Type scan_stack(InferContext& ctx, const Type& each, int64_t axis, const Dim& seq_len,
                const std::optional<Dim>& batch) {
  if (!each.is_tensor() || !each.has_shape())
    return each.is_tensor() ? Type::tensor(each.elem) : each;
  Dims dims = *each.shape;
  const int64_t a = batch ? 0 : ctx.normalize_axis(axis, each.rank() + 1, "scan_output_axes");
  dims.insert(dims.begin() + a, seq_len);
  if (batch) dims.insert(dims.begin(), *batch);
  return Type::tensor(each.elem, dims);
}

std::vector<int64_t> axes_or_zero(const InferContext& ctx, const char* name, std::size_t n) {
  auto v = ctx.attrs().opt_ints(name);
  if (!v || v->empty()) return std::vector<int64_t>(n, 0);
  if (v->size() != n)
    ctx.fail(std::string(name) + " has " + std::to_string(v->size()) + " values, expected " +
             std::to_string(n));
  return *v;
}

// Scan: state values keep their type through the body; scan inputs are sliced along their scan
// axes and scan outputs stacked along theirs. Scan-8 has a leading sequence_lens input and a
// batch axis on every input and output.
void infer_scan(InferContext& ctx) {
  const onnx::GraphProto* body = ctx.attrs().graph("body");
  if (!body) ctx.fail("the body attribute is required");
  const bool batched = ctx.schema().since < 9;
  const std::size_t first = batched ? 1 : 0;
  const auto n_scan = static_cast<std::size_t>(ctx.attrs().get_int("num_scan_inputs"));
  if (ctx.num_inputs() < first + n_scan)
    ctx.fail("num_scan_inputs is " + std::to_string(n_scan) + " but there are only " +
             std::to_string(ctx.num_inputs() - first) + " inputs");
  const std::size_t n_state = ctx.num_inputs() - first - n_scan;
  const auto in_axes = axes_or_zero(ctx, "scan_input_axes", n_scan);
  std::optional<Dim> batch;
  if (batched) batch = Dim();
  std::vector<Type> body_in;
  for (std::size_t i = 0; i < n_state; ++i) {
    const Type& t = ctx.input_type(first + i);
    if (batched && t.is_tensor() && t.rank() >= 1) {
      batch = ctx.unify_dims(*batch, (*t.shape)[0], "batch size");
      body_in.push_back(Type::tensor(t.elem, drop_axes(*t.shape, 0, 1)));
    } else {
      body_in.push_back(batched && t.is_tensor() ? Type::tensor(t.elem) : t);
    }
  }
  Dim seq_len;
  for (std::size_t j = 0; j < n_scan; ++j)
    body_in.push_back(
        scan_slice(ctx, ctx.input_type(first + n_state + j), in_axes[j], batched, seq_len));
  const std::vector<Type> out = ctx.infer_graph(*body, body_in);
  const std::size_t n_out = std::min(out.size(), ctx.num_outputs());
  const auto out_axes =
      axes_or_zero(ctx, "scan_output_axes", n_out > n_state ? n_out - n_state : 0);
  for (std::size_t o = 0; o < n_out; ++o) {
    if (o < n_state) {
      const Type& s = out[o];
      ctx.set_output_type(
          o, batched && s.has_shape() ? scan_stack(ctx, s, 0, *batch, std::nullopt) : s);
      continue;
    }
    ctx.set_output_type(o, scan_stack(ctx, out[o], out_axes[o - n_state], seq_len, batch));
  }
}

// Plain check: the body takes the N states and the M scanned slices (the node's inputs, after
// Scan-8's sequence_lens) and gives the N states and K scan outputs (the node's outputs).
StructureCheckFn scan_structure(int leading_inputs) {
  return [leading_inputs](const StructureContext& s) {
    const onnx::GraphProto* body = body_attribute(s.node, "body");
    if (!body) return;
    const int carried = s.node.input_size() - leading_inputs;
    expect_body_count(s, "body", "inputs", body->input_size(), carried,
                      "the node's " + std::to_string(carried) + " states and scanned inputs");
    expect_body_count(s, "body", "outputs", body->output_size(), s.node.output_size(),
                      "the node's states and scan outputs");
  };
}

}  // namespace

void define_Scan(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(8)
      .attr_required("body", AttrType::g)
      .attr_optional("directions", AttrType::ints)
      .attr_required("num_scan_inputs", AttrType::i)
      .input_optional("sequence_lens", "I")
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("I", {"tensor(int64)"})
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(9)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(11)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(16)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  op.since(19)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)"});
  op.since(21)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)"});
  op.since(24)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)"});
  op.since(25)
      .attr_required("body", AttrType::g)
      .attr_required("num_scan_inputs", AttrType::i)
      .attr_optional("scan_input_axes", AttrType::ints)
      .attr_optional("scan_input_directions", AttrType::ints)
      .attr_optional("scan_output_axes", AttrType::ints)
      .attr_optional("scan_output_directions", AttrType::ints)
      .input_variadic("initial_state_and_scan_inputs", "V", 1, false)
      .output_variadic("final_state_and_scan_outputs", "V", 1, false)
      .constraint("V", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                        "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                        "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                        "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                        "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
  op.at(8).kernel(scan8_kernel);
  op.from(9).kernel(scan_kernel);
  op.all().infer(infer_scan);
  op.from(8, 8).check_structure(scan_structure(1));  // sequence_lens first
  op.from(9).check_structure(scan_structure(0));
  op.at(9)
      .refuse_upgrade(
          "Scan-8 scans a batch axis with per-batch sequence lengths, which Scan-9 "
          "does not have")
      .refuse_downgrade(
          "Scan-8 requires a batch axis on every scanned input and state, which "
          "Scan-9's have not");
}

}  // namespace onnxtool::ops
