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

// The function body. A 2-D grid is computed as a 3-D one with depth 1: the homogeneous
// coordinates (x, y, [z,] 1) of every output position, flattened, times theta transposed. Along
// an axis of length L, position i sits at (2i + 1 - L) / L, or with align_corners at
// (2i + 1 - L) / (L - 1) (0 when L is 1, as the kernel does): one formula with the divisor
// max(L - align_corners, 1).
constexpr const char kAffineGridBody[] = R"onnx(
<domain: "", opset_import: ["" : 20]>
AffineGrid <align_corners> (theta, size) => (grid) {
  zero = Constant <value_int = 0> ()
  one = Constant <value_int = 1> ()
  two_1d = Constant <value_ints = [2]> ()
  last_1d = Constant <value_ints = [9223372036854775807]> ()
  spatial = Slice (size, two_1d, last_1d)
  k_1d = Shape (spatial)
  k = Squeeze (k_1d)
  two = Constant <value_int = 2> ()
  is_2d = Equal (k, two)
  ones_3 = Constant <value_ints = [1, 1, 1]> ()
  padded_dims = Concat <axis = 0> (ones_3, spatial)
  minus_three_1d = Constant <value_ints = [-3]> ()
  dhw = Slice (padded_dims, minus_three_1d, last_1d)
  d_1d, h_1d, w_1d = Split <num_outputs = 3> (dhw)
  align_i = Constant <value_int: int = @align_corners> ()
  align_b = Cast <to = 9> (align_i)
  align = Cast <to = 7> (align_b)
  zero_f = CastLike (zero, theta)
  one_f = CastLike (one, theta)
  two_f = CastLike (two, theta)
  d = Squeeze (d_1d)
  d_idx = Range (zero, d, one)
  d_idx_f = CastLike (d_idx, theta)
  d_twice = Mul (d_idx_f, two_f)
  d_f = CastLike (d, theta)
  d_off = Sub (one_f, d_f)
  d_num = Add (d_twice, d_off)
  d_den_i = Sub (d, align)
  d_den_c = Max (d_den_i, one)
  d_den = CastLike (d_den_c, theta)
  zs = Div (d_num, d_den)
  h = Squeeze (h_1d)
  h_idx = Range (zero, h, one)
  h_idx_f = CastLike (h_idx, theta)
  h_twice = Mul (h_idx_f, two_f)
  h_f = CastLike (h, theta)
  h_off = Sub (one_f, h_f)
  h_num = Add (h_twice, h_off)
  h_den_i = Sub (h, align)
  h_den_c = Max (h_den_i, one)
  h_den = CastLike (h_den_c, theta)
  ys = Div (h_num, h_den)
  w = Squeeze (w_1d)
  w_idx = Range (zero, w, one)
  w_idx_f = CastLike (w_idx, theta)
  w_twice = Mul (w_idx_f, two_f)
  w_f = CastLike (w, theta)
  w_off = Sub (one_f, w_f)
  w_num = Add (w_twice, w_off)
  w_den_i = Sub (w, align)
  w_den_c = Max (w_den_i, one)
  w_den = CastLike (w_den_c, theta)
  xs = Div (w_num, w_den)
  along_d = Constant <value_ints = [-1, 1, 1]> ()
  along_h = Constant <value_ints = [1, -1, 1]> ()
  along_w = Constant <value_ints = [1, 1, -1]> ()
  zs_col = Reshape (zs, along_d)
  ys_col = Reshape (ys, along_h)
  xs_col = Reshape (xs, along_w)
  zero_grid = ConstantOfShape (dhw)
  zero_grid_f = CastLike (zero_grid, theta)
  z = Add (zero_grid_f, zs_col)
  y = Add (zero_grid_f, ys_col)
  x = Add (zero_grid_f, xs_col)
  o = Add (zero_grid_f, one_f)
  minus_one_1d = Constant <value_ints = [-1]> ()
  z_e = Unsqueeze (z, minus_one_1d)
  y_e = Unsqueeze (y, minus_one_1d)
  x_e = Unsqueeze (x, minus_one_1d)
  o_e = Unsqueeze (o, minus_one_1d)
  points = If (is_2d) <
    then_branch = points_2d () => (points_xy1) {
      xy1 = Concat <axis = -1> (x_e, y_e, o_e)
      rows_3 = Constant <value_ints = [-1, 3]> ()
      points_xy1 = Reshape (xy1, rows_3)
    },
    else_branch = points_3d () => (points_xyz1) {
      xyz1 = Concat <axis = -1> (x_e, y_e, z_e, o_e)
      rows_4 = Constant <value_ints = [-1, 4]> ()
      points_xyz1 = Reshape (xyz1, rows_4)
    }
  >
  theta_t = Transpose <perm = [0, 2, 1]> (theta)
  mapped = MatMul (points, theta_t)
  zero_1d = Constant <value_ints = [0]> ()
  one_1d = Constant <value_ints = [1]> ()
  n_1d = Slice (size, zero_1d, one_1d)
  grid_shape = Concat <axis = 0> (n_1d, spatial, k_1d)
  grid = Reshape (mapped, grid_shape)
}
)onnx";

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
  op.at(20).function(kAffineGridBody, 20);
  op.all().infer(infer_affine_grid).kernel(affine_grid_kernel);
}

}  // namespace onnxtool::ops
