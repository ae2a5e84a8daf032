// SPDX-License-Identifier: Apache-2.0
// OneHot: the ai.onnx operator.
#include <cmath>

#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

namespace {

// depth is a one-element tensor of any numeric type.
std::optional<int64_t> infer_depth(const InferContext& ctx) {
  if (auto d = input_int(ctx, 1)) return d;
  const Tensor* t = ctx.input_constant(1);
  if (t && t->numel() == 1) return static_cast<int64_t>(element_as_double(*t, 0));
  return std::nullopt;
}

// The indices' shape with the depth inserted at axis; the element type is values'.
void infer_one_hot(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(2);
  const Dims* ind = input_shape(ctx, 0);
  if (!ind) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const auto r = static_cast<int64_t>(ind->size());
  const int64_t axis = normalize_axis(ctx.attrs().get_int("axis", -1), r + 1);
  const auto depth = infer_depth(ctx);
  if (depth && *depth < 1)
    infer_fail("depth is " + std::to_string(*depth) + " (expected at least 1)");
  Dims out = *ind;
  out.insert(out.begin() + axis, depth ? Dim::value(*depth) : Dim());
  set_output_tensor(ctx, 0, elem, out);
}

// Filled with the off value, then one on value per index (indices out of range stay off;
// negative ones count from the end from OneHot-11).
void one_hot_kernel(KernelContext& ctx) {
  const Tensor& ind = ctx.input(0);
  const Tensor& values = ctx.input(2);
  const Tensor& depth_t = ctx.input(1);
  if (depth_t.numel() != 1) ctx.fail("depth must hold exactly one value");
  const double depth_v = element_as_double(depth_t, 0);
  if (!(depth_v >= 1) || depth_v > 1e12)
    ctx.fail("depth is " + std::to_string(depth_v) + " (expected at least 1)");
  const auto depth = static_cast<int64_t>(depth_v);
  if (values.numel() != 2) ctx.fail("values must hold exactly two elements [off, on]");
  const int64_t axis = kernel_axis(ctx, ctx.attrs().get_int("axis", -1), ind.rank() + 1);
  Shape out = ind.shape();
  out.insert(out.begin() + axis, depth);
  Tensor& y = ctx.output(0, values.dtype(), out);
  fill_elements(y, 0, y.numel(), values);  // element 0 of values is the off value
  const int64_t inner = shape_product(ind.shape(), static_cast<std::size_t>(axis));
  const bool negative_ok = since(ctx) >= 11;
  for (int64_t f = 0; f < ind.numel(); ++f) {
    const double v = element_as_double(ind, f);
    if (std::isnan(v)) continue;
    auto i = static_cast<int64_t>(std::clamp(v, -1e15, 1e15));
    if (i < 0 && negative_ok) i += depth;
    if (i < 0 || i >= depth) continue;
    copy_elements(values, 1, y, (f / inner * depth + i) * inner + f % inner, 1);
  }
}

// Version 11 counts negative indices from the end of the depth; earlier versions give them all
// off values. Only indices known to be non-negative convert exactly.
void onehot_no_negative_indices(AdapterContext& ctx) {
  const auto t = ctx.constant_input(0);
  if (t && t->dtype() == DataType::int64) {
    for (int64_t i = 0; i < t->numel(); ++i)
      if (t->data<int64_t>()[i] < 0)
        ctx.refuse("negative indices have no equivalent in " + ctx.to().id());
    return;
  }
  ctx.approximate("negative indices, known only when the model runs, count from the end in " +
                  ctx.from().id() + " and give off values in " + ctx.to().id());
}

}  // namespace

void define_OneHot(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(9)
      .attr("axis", AttrType::i, int64_t{-1})
      .input("indices", "T1")
      .input("depth", "T2")
      .input("values", "T3")
      .output("output", "T3")
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T3", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(11)
      .attr("axis", AttrType::i, int64_t{-1})
      .input("indices", "T1", D::non_differentiable)
      .input("depth", "T2", D::non_differentiable)
      .input("values", "T3", D::non_differentiable)
      .output("output", "T3", D::non_differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T3", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_one_hot).kernel(one_hot_kernel);
  // The axis counts within the output, one dim more than the indices.
  op.at(11).downgrade(
      convert::all_of({convert::nonnegative_axes("axis", 1), onehot_no_negative_indices}));
}

}  // namespace onnxtool::ops
