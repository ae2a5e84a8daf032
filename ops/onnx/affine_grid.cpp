// SPDX-License-Identifier: Apache-2.0
// AffineGrid: the ai.onnx operator. Applies each batch entry's affine matrix theta ((N, 2, 3) or
// (N, 3, 4)) to a grid of positions evenly spaced in [-1, 1] over size's spatial dims (pixel
// centres; with align_corners the corner pixels' centres are -1 and 1): grid (N, H, W, 2) or
// (N, D, H, W, 3), x first.
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_affine_grid(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* theta = misc::input_dims(ctx, 0);
  if (theta && theta->size() != 3) infer_fail("theta must be 3-D: (N, 2, 3) or (N, 3, 4)");
  const std::optional<Dims> size = input_dims_values(ctx, 1);
  if (!size) {
    const Dims* s = misc::input_dims(ctx, 1);
    const Dim len = misc::dim_at(s, 0);
    if (len.is_known() && (len.value() == 4 || len.value() == 5))
      set_output_tensor(ctx, 0, elem, Dims(static_cast<std::size_t>(len.value()), Dim()));
    else
      set_output_tensor(ctx, 0, elem);
    ctx.explain(0, "the grid's shape is the value of input size");
    return;
  }
  if (size->size() != 4 && size->size() != 5) infer_fail("size must have 4 or 5 values");
  const auto spatial = static_cast<int64_t>(size->size()) - 2;
  if (theta) {
    ctx.unify_dims((*theta)[1], Dim::value(spatial), "theta's rows");
    ctx.unify_dims((*theta)[2], Dim::value(spatial + 1), "theta's columns");
  }
  Dims out{theta ? ctx.unify_dims((*theta)[0], (*size)[0], "batch size") : (*size)[0]};
  for (std::size_t i = 2; i < size->size(); ++i) out.push_back((*size)[i]);
  out.push_back(Dim::value(spatial));
  set_output_tensor(ctx, 0, elem, out);
}

// Position i of n along an axis, in [-1, 1].
double base_coordinate(int64_t i, int64_t n, bool align_corners) {
  if (align_corners)
    return n <= 1 ? 0.0 : -1.0 + 2.0 * static_cast<double>(i) / static_cast<double>(n - 1);
  return (2.0 * static_cast<double>(i) + 1.0) / static_cast<double>(n) - 1.0;
}

void affine_grid_kernel(KernelContext& ctx) {
  const Tensor& theta_t = ctx.input(0);
  misc::require_float(ctx, theta_t, "theta");
  const std::vector<int64_t> size = misc::values_as<int64_t>(ctx, ctx.input(1), "size");
  if (size.size() != 4 && size.size() != 5)
    ctx.fail("size must have 4 or 5 values, got " + misc::ints_text(size));
  const auto r = static_cast<int64_t>(size.size()) - 2;  // spatial rank
  const int64_t n = size[0];
  if (theta_t.shape() != Shape{n, r, r + 1})
    ctx.fail("theta has shape " + shape_to_string(theta_t.shape()) + ", expected " +
             shape_to_string(Shape{n, r, r + 1}));
  for (int64_t s : size)
    if (s < 0) ctx.fail("size has a negative value");
  const bool align = ctx.attrs().get_int("align_corners", 0) != 0;
  const std::vector<double> theta = misc::values_as<double>(ctx, theta_t, "theta");
  Shape out_shape{n};
  for (int64_t i = 2; i < static_cast<int64_t>(size.size()); ++i)
    out_shape.push_back(size[static_cast<std::size_t>(i)]);
  out_shape.push_back(r);
  const int64_t points = misc::shape_size(out_shape, 1, static_cast<std::size_t>(r + 1));
  std::vector<double> out(static_cast<std::size_t>(n * points * r));
  std::vector<double> pos(static_cast<std::size_t>(r + 1), 1.0);
  for (int64_t b = 0; b < n; ++b)
    for (int64_t p = 0; p < points; ++p) {
      // The point's homogeneous position: x (last spatial axis) first.
      int64_t rest = p;
      for (int64_t a = r - 1; a >= 0; --a) {
        const int64_t len = size[static_cast<std::size_t>(2 + a)];
        pos[static_cast<std::size_t>(r - 1 - a)] = base_coordinate(rest % len, len, align);
        rest /= len;
      }
      const double* th = theta.data() + b * r * (r + 1);
      for (int64_t k = 0; k < r; ++k) {
        double v = 0;
        for (int64_t j = 0; j <= r; ++j)
          v += th[k * (r + 1) + j] * pos[static_cast<std::size_t>(j)];
        out[static_cast<std::size_t>((b * points + p) * r + k)] = v;
      }
    }
  misc::write_output<double>(ctx, 0, theta_t.dtype(), out_shape, out);
}

}  // namespace

void define_AffineGrid(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(20)
      .is_function({20})
      .attr("align_corners", AttrType::i, int64_t{0})
      .input("theta", "T1", D::non_differentiable)
      .input("size", "T2", D::non_differentiable)
      .output("grid", "T1", D::differentiable)
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_affine_grid).kernel(affine_grid_kernel);
}

}  // namespace onnxtool::ops
