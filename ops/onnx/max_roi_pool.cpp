// SPDX-License-Identifier: Apache-2.0
// MaxRoiPool: the ai.onnx operator. Max-pools each region (batch_id, x1, y1, x2, y2), scaled by
// spatial_scale and rounded to whole pixels, into pooled_shape bins; an empty bin gives 0.
#include <cmath>
#include <limits>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_max_roi_pool(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 1});
  const Dims* x = misc::input_dims(ctx, 0);
  const Dims* rois = misc::input_dims(ctx, 1);
  if (x && x->size() != 4) infer_fail("X must be 4-D (N, C, H, W)");
  if (rois && rois->size() != 2) infer_fail("rois must be 2-D (num_rois, 5)");
  if (rois) ctx.unify_dims((*rois)[1], Dim::value(5), "rois' last dim");
  const std::vector<int64_t> pooled = ctx.attrs().get_ints("pooled_shape");
  if (pooled.size() != 2) infer_fail("pooled_shape must have 2 values");
  set_output_tensor(ctx, 0, elem,
                    Dims{misc::dim_at(rois, 0), misc::dim_at(x, 1), Dim::value(pooled[0]),
                         Dim::value(pooled[1])});
}

void max_roi_pool_kernel(KernelContext& ctx) {
  const Tensor& xt = ctx.input(0);
  const Tensor& rt = ctx.input(1);
  misc::require_float(ctx, xt, "X");
  if (xt.rank() != 4 || rt.rank() != 2 || rt.shape()[1] != 5)
    ctx.fail("X " + shape_to_string(xt.shape()) + " and rois " + shape_to_string(rt.shape()) +
             " must be (N, C, H, W) and (num_rois, 5)");
  const std::vector<int64_t> pooled = ctx.attrs().get_ints("pooled_shape");
  if (pooled.size() != 2 || pooled[0] <= 0 || pooled[1] <= 0)
    ctx.fail("pooled_shape must be 2 positive values");
  const double scale = ctx.attrs().get_float("spatial_scale", 1.0f);
  const int64_t n = xt.shape()[0], c = xt.shape()[1], h = xt.shape()[2], w = xt.shape()[3],
                rois = rt.shape()[0];
  const int64_t ph_n = pooled[0], pw_n = pooled[1];
  const std::vector<double> x = misc::values_as<double>(ctx, xt, "X");
  const std::vector<double> r = misc::values_as<double>(ctx, rt, "rois");
  std::vector<double> y(static_cast<std::size_t>(rois * c * ph_n * pw_n));
  for (int64_t i = 0; i < rois; ++i) {
    const double* roi = r.data() + i * 5;
    if (!(roi[0] >= 0 && roi[0] < static_cast<double>(n)))
      ctx.fail("roi " + std::to_string(i) + " has batch id " + std::to_string(roi[0]) +
               " out of range");
    // Corners beyond 2^52 pixels (or NaN) have no integer position to round to.
    for (int k = 1; k < 5; ++k)
      if (!(std::abs(roi[k] * scale) < 0x1p52))
        ctx.fail("roi " + std::to_string(i) + " has coordinate " + std::to_string(roi[k]) +
                 " beyond any image");
    const auto b = static_cast<int64_t>(roi[0]);
    const auto x1 = static_cast<int64_t>(std::round(roi[1] * scale)),
               y1 = static_cast<int64_t>(std::round(roi[2] * scale));
    const auto x2 = static_cast<int64_t>(std::round(roi[3] * scale)),
               y2 = static_cast<int64_t>(std::round(roi[4] * scale));
    const double bin_h =
        static_cast<double>(std::max<int64_t>(y2 - y1 + 1, 1)) / static_cast<double>(ph_n);
    const double bin_w =
        static_cast<double>(std::max<int64_t>(x2 - x1 + 1, 1)) / static_cast<double>(pw_n);
    for (int64_t ph = 0; ph < ph_n; ++ph)
      for (int64_t pw = 0; pw < pw_n; ++pw) {
        const int64_t hs = std::clamp<int64_t>(
            static_cast<int64_t>(std::floor(static_cast<double>(ph) * bin_h)) + y1, 0, h);
        const int64_t he = std::clamp<int64_t>(
            static_cast<int64_t>(std::ceil(static_cast<double>(ph + 1) * bin_h)) + y1, 0, h);
        const int64_t ws = std::clamp<int64_t>(
            static_cast<int64_t>(std::floor(static_cast<double>(pw) * bin_w)) + x1, 0, w);
        const int64_t we = std::clamp<int64_t>(
            static_cast<int64_t>(std::ceil(static_cast<double>(pw + 1) * bin_w)) + x1, 0, w);
        for (int64_t ch = 0; ch < c; ++ch) {
          const double* plane = x.data() + (b * c + ch) * h * w;
          double m = he <= hs || we <= ws ? 0.0 : -std::numeric_limits<double>::infinity();
          for (int64_t yy = hs; yy < he; ++yy)
            for (int64_t xx = ws; xx < we; ++xx) m = std::max(m, plane[yy * w + xx]);
          y[static_cast<std::size_t>(((i * c + ch) * ph_n + ph) * pw_n + pw)] = m;
        }
      }
  }
  misc::write_output<double>(ctx, 0, xt.dtype(), {rois, c, ph_n, pw_n}, y);
}

}  // namespace

void define_MaxRoiPool(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("pooled_shape", AttrType::ints)
      .attr("spatial_scale", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .input("rois", "T", D::non_differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr_required("pooled_shape", AttrType::ints)
      .attr("spatial_scale", AttrType::f, 1.0f)
      .input("X", "T", D::differentiable)
      .input("rois", "T", D::non_differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_max_roi_pool).kernel(max_roi_pool_kernel);
}

}  // namespace onnxtool::ops
