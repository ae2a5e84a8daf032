// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/quant_common.h"

#include <algorithm>

namespace onnxtool::ops::quant {

ScaleIndex::ScaleIndex(const KernelContext& ctx, const Shape& x, const Shape& scale, int64_t axis,
                       int64_t block_size) {
  const int64_t scale_count = misc::shape_size(scale);
  const auto rank = static_cast<int64_t>(x.size());
  if (scale.empty() || (scale_count == 1 && block_size <= 0 && (scale.size() == 1 || rank <= 1))) {
    if (scale_count != 1) ctx.fail("the scale has no element");
    return;  // per tensor
  }
  if (axis < -rank || axis >= rank)
    ctx.fail("axis " + std::to_string(axis) + " is out of range for input rank " +
             std::to_string(rank));
  if (axis < 0) axis += rank;
  const auto a = static_cast<std::size_t>(axis);
  axis_dim_ = x[a];
  inner_ = misc::shape_size(x, a + 1);
  if (block_size <= 0) {
    if (scale.size() != 1 || scale[0] != axis_dim_)
      ctx.fail("a per-axis scale must be 1-D of length " + std::to_string(axis_dim_) + " (axis " +
               std::to_string(axis) + " of " + shape_to_string(x) + "), got " +
               shape_to_string(scale));
    mode_ = Mode::axis;
    return;
  }
  if (scale.size() != x.size())
    ctx.fail("a blocked scale must have the input's rank " + std::to_string(rank) + ", got " +
             shape_to_string(scale));
  for (std::size_t d = 0; d < x.size(); ++d)
    if (d != a && scale[d] != x[d])
      ctx.fail("the blocked scale " + shape_to_string(scale) + " differs from the input " +
               shape_to_string(x) + " outside axis " + std::to_string(axis));
  const int64_t want = (axis_dim_ + block_size - 1) / block_size;
  if (scale[a] != want)
    ctx.fail("the blocked scale has " + std::to_string(scale[a]) + " blocks along axis " +
             std::to_string(axis) + ", expected ceil(" + std::to_string(axis_dim_) + "/" +
             std::to_string(block_size) + ") = " + std::to_string(want));
  mode_ = Mode::blocked;
  block_ = block_size;
  scale_axis_ = scale[a];
}

bool zero_point_fits_scale(const Shape& zero, const Shape& scale) {
  const auto one_element = [](const Shape& s) {
    return s.size() <= 1 && std::all_of(s.begin(), s.end(), [](int64_t d) { return d == 1; });
  };
  return zero == scale || (one_element(zero) && one_element(scale));
}

namespace {

// Known to hold one element: rank 0, or rank 1 with the dim 1.
bool one_element_dims(const Dims& d) {
  return d.empty() || (d.size() == 1 && d[0].is_known() && d[0].value() == 1);
}

}  // namespace

void infer_scale_shape(InferContext& ctx, std::size_t scale_input, std::size_t zero_input) {
  const Dims* scale = misc::input_dims(ctx, scale_input);
  const Dims* zero = misc::input_dims(ctx, zero_input);
  if (scale && zero && one_element_dims(*scale) && one_element_dims(*zero)) {
    // per tensor either way: nothing to unify
  } else if (scale && zero && scale->size() == zero->size())
    for (std::size_t i = 0; i < scale->size(); ++i)
      ctx.unify_dims((*scale)[i], (*zero)[i], "the zero point's shape");
  else if (scale && zero)
    infer_fail("the scale " + dims_to_string(*scale) + " and zero point " + dims_to_string(*zero) +
               " must have the same shape");
  const Dims* x = misc::input_dims(ctx, 0);
  if (!x || !scale || scale->size() != 1 || x->empty()) return;
  if (ctx.attrs().get_int("block_size", 0) > 0) return;
  const auto rank = static_cast<int64_t>(x->size());
  const int64_t axis = ctx.attrs().get_int("axis", 1);
  if (rank == 1 || axis < -rank || axis >= rank) return;
  const Dim& s = (*scale)[0];
  if (s.is_known() && s.value() == 1) return;  // one scale for all
  ctx.unify_dims(s, (*x)[static_cast<std::size_t>(axis < 0 ? axis + rank : axis)],
                 "the per-axis scale's length");
}

}  // namespace onnxtool::ops::quant
