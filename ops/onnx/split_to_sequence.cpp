// SPDX-License-Identifier: Apache-2.0
// SplitToSequence: the ai.onnx operator. Splits a tensor along `axis` into a sequence: into
// pieces of length 1 (dropping the axis unless keepdims) when `split` is omitted, into pieces of
// `split` elements (the last may be shorter) when it is a scalar, or into pieces of the given
// lengths when it is a 1-D tensor.
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

// The pieces' length along the axis when every piece has the same one, else unknown.
Dim piece_length(const InferContext& ctx, const Dim& axis_dim) {
  const Type& split = ctx.input_type(1);
  const std::optional<std::vector<int64_t>> values = input_ints(ctx, 1);
  if (!values) return Dim();
  if (values->empty()) return Dim();
  const int64_t first = values->front();
  for (int64_t v : *values)
    if (v < 0) infer_fail("split lengths must be >= 0, got " + misc::ints_text(*values));
  if (split.rank() == 0 || values->size() == 1) {
    // A scalar split: pieces of `first`; the last is shorter unless the dim is a multiple.
    if (split.rank() != 0) return Dim::value(first);
    if (axis_dim.is_known() && first > 0 && axis_dim.value() % first == 0) return Dim::value(first);
    if (axis_dim.is_known() && axis_dim.value() <= first) return axis_dim;
    return Dim();
  }
  for (int64_t v : *values)
    if (v != first) return Dim();
  return Dim::value(first);
}

void infer_split_to_sequence(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = misc::input_dims(ctx, 0);
  if (!in) {
    ctx.set_output_type(0, Type::sequence(Type::tensor(elem)));
    return;
  }
  const auto rank = static_cast<int64_t>(in->size());
  const int64_t axis = ctx.normalize_axis(ctx.attrs().get_int("axis", 0), rank);
  const bool keepdims = ctx.attrs().get_int("keepdims", 1) != 0;
  Dims piece = *in;
  const auto a = static_cast<std::size_t>(axis);
  if (ctx.has_input(1)) {
    const Type& split = ctx.input_type(1);
    if (split.rank() > 1) infer_fail("split must be a scalar or a 1-D tensor");
    piece[a] = piece_length(ctx, (*in)[a]);
  } else if (keepdims) {
    piece[a] = Dim::value(1);
  } else {
    piece.erase(piece.begin() + axis);
  }
  ctx.set_output_type(0, Type::sequence(Type::tensor(elem, piece)));
}

// The lengths of the pieces along an axis of length `dim`.
std::vector<int64_t> piece_lengths(const KernelContext& ctx, int64_t dim) {
  if (!ctx.has_input(1)) return std::vector<int64_t>(static_cast<std::size_t>(dim), 1);
  const Tensor& split = ctx.input(1);
  if (split.dtype() != DataType::int64 && split.dtype() != DataType::int32)
    ctx.fail("split must be int32 or int64");
  if (split.rank() > 1) ctx.fail("split must be a scalar or a 1-D tensor");
  const std::vector<int64_t> values = misc::values_as<int64_t>(ctx, split, "split");
  for (int64_t v : values)
    if (v < 0) ctx.fail("split lengths must be >= 0, got " + misc::ints_text(values));
  if (split.rank() == 0) {
    const int64_t size = values[0];
    if (size <= 0) ctx.fail("a scalar split must be positive, got " + std::to_string(size));
    std::vector<int64_t> out;
    for (int64_t at = 0; at < dim; at += size) out.push_back(std::min(size, dim - at));
    return out;
  }
  int64_t total = 0;
  for (int64_t v : values) total += v;
  if (total != dim)
    ctx.fail("split lengths " + misc::ints_text(values) + " add up to " + std::to_string(total) +
             ", the axis has " + std::to_string(dim));
  return values;
}

void split_to_sequence_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.rank() == 0) ctx.fail("input must have rank >= 1");
  const int64_t axis_attr = ctx.attrs().get_int("axis", 0);
  if (axis_attr < -x.rank() || axis_attr >= x.rank())
    ctx.fail("axis " + std::to_string(axis_attr) + " is out of range for rank " +
             std::to_string(x.rank()));
  const int64_t axis = axis_attr < 0 ? axis_attr + x.rank() : axis_attr;
  const bool squeeze = !ctx.has_input(1) && ctx.attrs().get_int("keepdims", 1) == 0;
  std::vector<Value> items;
  int64_t at = 0;
  for (int64_t len : piece_lengths(ctx, x.shape()[static_cast<std::size_t>(axis)])) {
    Tensor piece = misc::slice_range(x, axis, at, len);
    if (squeeze) {
      Shape s = piece.shape();
      s.erase(s.begin() + axis);
      piece = piece.reshaped(s);
    }
    items.emplace_back(piece);
    at += len;
  }
  ctx.set_output(0, Value::sequence(std::move(items), x.dtype()));
}

}  // namespace

void define_SplitToSequence(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(11)
      .attr("axis", AttrType::i, int64_t{0})
      .attr("keepdims", AttrType::i, int64_t{1})
      .input("input", "T")
      .input_optional("split", "I")
      .output("output_sequence", "S")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("I", {"tensor(int32)", "tensor(int64)"})
      .constraint("S", {"seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(float16))",
                        "seq(tensor(float))", "seq(tensor(double))", "seq(tensor(string))",
                        "seq(tensor(bool))", "seq(tensor(complex64))", "seq(tensor(complex128))"});
  op.since(24)
      .attr("axis", AttrType::i, int64_t{0})
      .attr("keepdims", AttrType::i, int64_t{1})
      .input("input", "T")
      .input_optional("split", "I")
      .output("output_sequence", "S")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"})
      .constraint("I", {"tensor(int32)", "tensor(int64)"})
      .constraint("S", {"seq(tensor(uint8))", "seq(tensor(uint16))", "seq(tensor(uint32))",
                        "seq(tensor(uint64))", "seq(tensor(int8))", "seq(tensor(int16))",
                        "seq(tensor(int32))", "seq(tensor(int64))", "seq(tensor(bfloat16))",
                        "seq(tensor(float16))", "seq(tensor(float))", "seq(tensor(double))",
                        "seq(tensor(string))", "seq(tensor(bool))", "seq(tensor(complex64))",
                        "seq(tensor(complex128))"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_split_to_sequence).kernel(split_to_sequence_kernel);
}

}  // namespace onnxtool::ops
