// SPDX-License-Identifier: Apache-2.0
// Concat: the ai.onnx operator.
#include <optional>
#include <vector>

#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// Concat-1 defaults axis to 1; from version 4 it is required, and negative from 11.
int64_t axis_attr(const AttrView& attrs, int version) {
  if (version < 4) return attrs.get_int("axis", 1);
  return attrs.get_int("axis");
}

int64_t concat_axis(int64_t axis, int64_t rank, int version) {
  if (version < 11 && axis < 0)
    infer_fail("axis " + std::to_string(axis) + " is negative, which Concat-" +
               std::to_string(version) + " does not accept");
  return normalize_axis(axis, rank);
}

// The output's dims when some inputs' shapes are unknown: the other dims unified over the
// known shapes, the axis dim unknown.
Dims partial_concat(const std::vector<Dims>& known, int64_t axis) {
  Dims out(known.front().size());
  for (std::size_t k = 0; k < out.size(); ++k) {
    if (static_cast<int64_t>(k) == axis) continue;
    out[k] = known.front()[k];
    for (const Dims& s : known)
      out[k] = unify_dim(out[k], s[k], "dim " + std::to_string(k) + " of the inputs");
  }
  return out;
}

// Concatenated values of shape vectors (Concat of Shape pieces), when every input has them.
void concat_values(InferContext& ctx, const Dims& out) {
  if (out.size() != 1) return;
  Dims values;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    const auto v = input_dims_values(ctx, i);
    if (!v) return;
    values.insert(values.end(), v->begin(), v->end());
  }
  set_values(ctx, 0, std::move(values), false);
}

void infer_concat(InferContext& ctx) {
  const int32_t elem = unify_all_input_elem_types(ctx);
  std::vector<Dims> known;
  bool all_known = true;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Dims* s = input_shape(ctx, i);
    if (s && !known.empty() && s->size() != known.front().size())
      infer_fail("input " + std::to_string(i) + " has rank " + std::to_string(s->size()) +
                 " but input 0 has rank " + std::to_string(known.front().size()) +
                 " (expected equal ranks)");
    if (s) known.push_back(*s);
    all_known = all_known && s;
  }
  if (known.empty()) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const auto rank = static_cast<int64_t>(known.front().size());
  if (rank == 0) infer_fail("cannot concatenate scalars");
  const int64_t axis = concat_axis(axis_attr(ctx.attrs(), since(ctx)), rank, since(ctx));
  const Dims out = all_known ? concat_shapes(known, axis) : partial_concat(known, axis);
  set_output_tensor(ctx, 0, elem, out);
  if (all_known) concat_values(ctx, out);
}

// Rows (of all inputs) up to which each input's rows are listed as runs for copy_runs.
constexpr int64_t kMaxListedRows = 4096;

// Every input's rows (outer of them each, contiguous) copied by one parallel loop: a batch-1
// Concat copies each input as one block, and blocks too small to pay for the threads alone went
// one after the other on one thread. False where the rows are too many to list.
bool copy_input_rows(const KernelContext& ctx, std::size_t axis, int64_t outer, int64_t inner,
                     Tensor& y) {
  if (outer * static_cast<int64_t>(ctx.num_inputs()) > kMaxListedRows) return false;
  const auto width = static_cast<int64_t>(elem_width(y.dtype()));
  const int64_t row_bytes = y.shape()[axis] * inner * width;
  std::vector<ByteRun> runs;
  int64_t at = 0;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Tensor& x = ctx.input(i);
    const int64_t block = x.shape()[axis] * inner * width;
    for (int64_t r = 0; r < outer; ++r)
      runs.push_back({x.raw() + r * block, y.mutable_raw() + r * row_bytes + at, block});
    at += block;
  }
  copy_runs(ctx, runs);
  return true;
}

// Each input (where copy_input_rows does not take them all) is one strided copy into its place:
// rows of the dims before axis, each row the input's block (its axis dim times the inner dims).
void concat_kernel(KernelContext& ctx) {
  const Tensor& first = ctx.input(0);
  const int64_t rank = first.rank();
  if (rank == 0) ctx.fail("cannot concatenate scalars");
  const int64_t attr = axis_attr(ctx.attrs(), since(ctx));
  if (since(ctx) < 11 && attr < 0) ctx.fail("axis " + std::to_string(attr) + " is negative");
  const auto axis = static_cast<std::size_t>(kernel_axis(ctx, attr, rank));
  Shape out = first.shape();
  out[axis] = 0;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Tensor& x = ctx.input(i);
    bool fits = x.dtype() == first.dtype() && x.rank() == rank;
    for (std::size_t k = 0; fits && k < out.size(); ++k)
      fits = k == axis || x.shape()[k] == first.shape()[k];
    if (!fits)
      ctx.fail("input " + std::to_string(i) + " is " + std::string(type_name(x.dtype())) +
               shape_to_string(x.shape()) + ", which cannot be concatenated on axis " +
               std::to_string(axis) + " with input 0 " + std::string(type_name(first.dtype())) +
               shape_to_string(first.shape()));
    out[axis] += x.shape()[axis];
  }
  Tensor& y = ctx.output_uninitialized(0, first.dtype(), out);
  const int64_t outer = shape_product(out, 0, axis), inner = shape_product(out, axis + 1);
  const int64_t row = out[axis] * inner;
  if (first.dtype() != DataType::string && copy_input_rows(ctx, axis, outer, inner, y)) return;
  int64_t at = 0;
  for (std::size_t i = 0; i < ctx.num_inputs(); ++i) {
    const Tensor& x = ctx.input(i);
    const int64_t block = x.shape()[axis] * inner;
    strided_copy(x, Layout{0, {block, 1}}, y, Layout{at, {row, 1}}, {outer, block}, &ctx);
    at += block;
  }
}

// The axis the kernel takes, for the executor's in-place assembly; nullopt where the kernel
// would fail (no axis from version 4, a negative one before 11, one out of range).
std::optional<int64_t> joined_axis(const OpVersion& v, const AttrView& attrs, int64_t rank) {
  if (rank <= 0 || (v.since >= 4 && !attrs.has("axis"))) return std::nullopt;
  const int64_t axis = attrs.get_int("axis", 1);
  if ((v.since < 11 && axis < 0) || axis < -rank || axis >= rank) return std::nullopt;
  return axis < 0 ? axis + rank : axis;
}

}  // namespace

void define_Concat(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_optional("axis", AttrType::i)
      .input_variadic("inputs", "T", 1)
      .output("concat_result", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(4)
      .attr_required("axis", AttrType::i)
      .input_variadic("inputs", "T", 1)
      .output("concat_result", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(11)
      .attr_required("axis", AttrType::i)
      .input_variadic("inputs", "T", 1)
      .output("concat_result", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(13)
      .attr_required("axis", AttrType::i)
      .input_variadic("inputs", "T", 1, true, D::differentiable)
      .output("concat_result", "T", D::differentiable)
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                        "tensor(string)", "tensor(bool)", "tensor(complex64)",
                        "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(infer_concat).kernel(concat_kernel).concatenates(joined_axis);
  // Concat-1 concatenated along axis 1 by default; from 4 the axis is required; 11 counts a
  // negative axis from the end.
  op.at(4).upgrade(convert::set_attribute_if_absent("axis", 1)).downgrade(convert::unchanged(""));
  op.at(11).downgrade(convert::nonnegative_axes("axis"));
}

}  // namespace onnxtool::ops
