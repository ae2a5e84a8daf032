// SPDX-License-Identifier: Apache-2.0
// RoiAlign: the ai.onnx operator. Pools each region of X (N, C, H, W) into
// output_height x output_width bins, each the average (or, as onnxruntime computes it, the
// maximum of the weighted corner values) of sampling_ratio^2 bilinearly interpolated points
// (adaptive when 0). Version 16 shifts the coordinates by -0.5 (half_pixel) unless
// coordinate_transformation_mode is output_half_pixel; version 10 never does.
#include <cmath>

#include "core/convert/adapter.h"
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_roi_align(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* x = misc::input_dims(ctx, 0);
  const Dims* rois = misc::input_dims(ctx, 1);
  const Dims* idx = misc::input_dims(ctx, 2);
  if (x && x->size() != 4) infer_fail("X must be 4-D (N, C, H, W)");
  if (rois && (rois->size() != 2)) infer_fail("rois must be 2-D (num_rois, 4)");
  if (rois) ctx.unify_dims((*rois)[1], Dim::value(4), "rois' last dim");
  if (idx && idx->size() != 1) infer_fail("batch_indices must be 1-D");
  const Dim n = ctx.unify_dims(misc::dim_at(rois, 0), misc::dim_at(idx, 0), "the number of rois");
  set_output_tensor(ctx, 0, elem,
                    Dims{n, misc::dim_at(x, 1), Dim::value(ctx.attrs().get_int("output_height", 1)),
                         Dim::value(ctx.attrs().get_int("output_width", 1))});
}

// The bilinear sample at (y, x) as four weighted corners, as onnxruntime's RoiAlign computes it
// (points beyond one pixel outside contribute nothing; coordinates clamp at the far edge).
struct Sample {
  int64_t pos[4] = {0, 0, 0, 0};
  double w[4] = {0, 0, 0, 0};
};

Sample sample_at(double y, double x, int64_t height, int64_t width) {
  Sample s;
  // Written so that NaN positions sample nothing too.
  if (!(y >= -1.0 && y <= static_cast<double>(height) && x >= -1.0 &&
        x <= static_cast<double>(width)))
    return s;
  y = std::max(y, 0.0);
  x = std::max(x, 0.0);
  auto low = static_cast<int64_t>(y), left = static_cast<int64_t>(x);
  int64_t high = low + 1, right = left + 1;
  if (low >= height - 1) {
    high = low = height - 1;
    y = static_cast<double>(low);
  }
  if (left >= width - 1) {
    right = left = width - 1;
    x = static_cast<double>(left);
  }
  const double ly = y - static_cast<double>(low), lx = x - static_cast<double>(left), hy = 1 - ly,
               hx = 1 - lx;
  s.pos[0] = low * width + left, s.pos[1] = low * width + right;
  s.pos[2] = high * width + left, s.pos[3] = high * width + right;
  s.w[0] = hy * hx, s.w[1] = hy * lx, s.w[2] = ly * hx, s.w[3] = ly * lx;
  return s;
}

struct RoiOptions {
  int64_t out_h = 1, out_w = 1, ratio = 0;
  double scale = 1;
  bool max = false, half_pixel = false;
};

RoiOptions roi_options(const KernelContext& ctx) {
  RoiOptions o;
  o.out_h = ctx.attrs().get_int("output_height", 1);
  o.out_w = ctx.attrs().get_int("output_width", 1);
  o.ratio = ctx.attrs().get_int("sampling_ratio", 0);
  o.scale = ctx.attrs().get_float("spatial_scale", 1.0f);
  const std::string mode = ctx.attrs().get_string("mode", "avg");
  if (mode != "avg" && mode != "max") ctx.fail("mode must be avg or max, got \"" + mode + "\"");
  o.max = mode == "max";
  if (ctx.schema().since >= 16) {
    const std::string c = ctx.attrs().get_string("coordinate_transformation_mode", "half_pixel");
    if (c != "half_pixel" && c != "output_half_pixel")
      ctx.fail("coordinate_transformation_mode must be half_pixel or output_half_pixel");
    o.half_pixel = c == "half_pixel";
  }
  if (o.out_h <= 0 || o.out_w <= 0 || o.ratio < 0)
    ctx.fail("output sizes must be positive and sampling_ratio >= 0");
  return o;
}

// Samples times channels one roi may take (sampling_ratio 0 grows with the roi): a bound that a
// real detector's rois stay far below, so a hostile roi cannot stall the run.
constexpr double kMaxSamples = 0x1p32;

// sampling_ratio 0: ceil(bin extent) samples along an axis. A negative extent (an inverted roi)
// keeps its sign as before; a NaN one takes no samples.
int64_t adaptive_ratio(const KernelContext& ctx, int64_t roi, double extent, int64_t bins) {
  const double r = std::ceil(extent / static_cast<double>(bins));
  if (std::isnan(r)) return 0;
  if (std::abs(r) > 0x1p20)
    ctx.fail("roi " + std::to_string(roi) + " spans " + std::to_string(extent) +
             " pixels, too many samples per bin; give sampling_ratio");
  return static_cast<int64_t>(r);
}

void roi_align_kernel(KernelContext& ctx) {
  const Tensor& xt = ctx.input(0);
  const Tensor& rt = ctx.input(1);
  const Tensor& bt = ctx.input(2);
  misc::require_float(ctx, xt, "X");
  if (xt.rank() != 4) ctx.fail("X must be 4-D, got " + shape_to_string(xt.shape()));
  const int64_t rois = rt.rank() == 2 ? rt.shape()[0] : -1;
  if (rt.rank() != 2 || rt.shape()[1] != 4 || bt.shape() != Shape{rois})
    ctx.fail("rois " + shape_to_string(rt.shape()) + " and batch_indices " +
             shape_to_string(bt.shape()) + " must be (num_rois, 4) and (num_rois)");
  const RoiOptions o = roi_options(ctx);
  const int64_t n = xt.shape()[0], c = xt.shape()[1], h = xt.shape()[2], w = xt.shape()[3];
  const std::vector<double> x = misc::values_as<double>(ctx, xt, "X");
  const std::vector<double> r = misc::values_as<double>(ctx, rt, "rois");
  const std::vector<int64_t> b = misc::values_as<int64_t>(ctx, bt, "batch_indices");
  std::vector<double> y(static_cast<std::size_t>(rois * c * o.out_h * o.out_w));
  const double offset = o.half_pixel ? 0.5 : 0.0;
  for (int64_t i = 0; i < rois; ++i) {
    const int64_t bi = b[static_cast<std::size_t>(i)];
    if (bi < 0 || bi >= n) ctx.fail("batch index " + std::to_string(bi) + " is out of range");
    const double* roi = r.data() + i * 4;
    const double x0 = roi[0] * o.scale - offset, y0 = roi[1] * o.scale - offset;
    double rw = roi[2] * o.scale - offset - x0, rh = roi[3] * o.scale - offset - y0;
    if (!o.half_pixel) rw = std::max(rw, 1.0), rh = std::max(rh, 1.0);
    const double bin_h = rh / static_cast<double>(o.out_h),
                 bin_w = rw / static_cast<double>(o.out_w);
    const int64_t gh = o.ratio > 0 ? o.ratio : adaptive_ratio(ctx, i, rh, o.out_h);
    const int64_t gw = o.ratio > 0 ? o.ratio : adaptive_ratio(ctx, i, rw, o.out_w);
    if (static_cast<double>(gh) * static_cast<double>(gw) * static_cast<double>(o.out_h * o.out_w) *
            static_cast<double>(c) >
        kMaxSamples)
      ctx.fail("roi " + std::to_string(i) + " needs " + std::to_string(gh) + " x " +
               std::to_string(gw) + " samples per bin, too many to compute; give sampling_ratio");
    const double count = static_cast<double>(std::max<int64_t>(gh * gw, 1));
    for (int64_t ph = 0; ph < o.out_h; ++ph)
      for (int64_t pw = 0; pw < o.out_w; ++pw) {
        std::vector<Sample> samples;
        for (int64_t iy = 0; iy < gh; ++iy)
          for (int64_t ix = 0; ix < gw; ++ix)
            samples.push_back(
                sample_at(y0 + static_cast<double>(ph) * bin_h +
                              (static_cast<double>(iy) + 0.5) * bin_h / static_cast<double>(gh),
                          x0 + static_cast<double>(pw) * bin_w +
                              (static_cast<double>(ix) + 0.5) * bin_w / static_cast<double>(gw),
                          h, w));
        for (int64_t ch = 0; ch < c; ++ch) {
          const double* plane = x.data() + (bi * c + ch) * h * w;
          double acc = 0;
          bool first = true;
          for (const Sample& s : samples) {
            if (o.max) {
              double v = s.w[0] * plane[s.pos[0]];
              for (int k = 1; k < 4; ++k) v = std::max(v, s.w[k] * plane[s.pos[k]]);
              acc = first ? v : std::max(acc, v);
              first = false;
            } else {
              for (int k = 0; k < 4; ++k) acc += s.w[k] * plane[s.pos[k]];
            }
          }
          y[static_cast<std::size_t>(((i * c + ch) * o.out_h + ph) * o.out_w + pw)] =
              o.max ? acc : acc / count;
        }
      }
  }
  misc::write_output<double>(ctx, 0, xt.dtype(), {rois, c, o.out_h, o.out_w}, y);
}

void roi_align_old_coordinates(AdapterContext& ctx) {
  ctx.set_attribute("coordinate_transformation_mode", std::string("output_half_pixel"));
  ctx.describe("coordinate_transformation_mode=output_half_pixel (what version 10 computed)");
}

void roi_align_needs_old_coordinates(AdapterContext& ctx) {
  const std::string mode =
      ctx.string_attribute("coordinate_transformation_mode").value_or("half_pixel");
  if (mode != "output_half_pixel")
    ctx.refuse("coordinate_transformation_mode " + mode + " has no equivalent in " + ctx.to().id());
  ctx.remove_attribute("coordinate_transformation_mode");
  ctx.describe("coordinate_transformation_mode=output_half_pixel is what " + ctx.to().id() +
               " computes");
}

}  // namespace

void define_RoiAlign(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("mode", AttrType::s, "avg")
      .attr("output_height", AttrType::i, int64_t{1})
      .attr("output_width", AttrType::i, int64_t{1})
      .attr("sampling_ratio", AttrType::i, int64_t{0})
      .attr("spatial_scale", AttrType::f, 1.0f)
      .input("X", "T1")
      .input("rois", "T1")
      .input("batch_indices", "T2")
      .output("Y", "T1")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  op.since(16)
      .attr("coordinate_transformation_mode", AttrType::s, "half_pixel")
      .attr("mode", AttrType::s, "avg")
      .attr("output_height", AttrType::i, int64_t{1})
      .attr("output_width", AttrType::i, int64_t{1})
      .attr("sampling_ratio", AttrType::i, int64_t{0})
      .attr("spatial_scale", AttrType::f, 1.0f)
      .input("X", "T1")
      .input("rois", "T1")
      .input("batch_indices", "T2")
      .output("Y", "T1")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  op.since(22)
      .attr("coordinate_transformation_mode", AttrType::s, "half_pixel")
      .attr("mode", AttrType::s, "avg")
      .attr("output_height", AttrType::i, int64_t{1})
      .attr("output_width", AttrType::i, int64_t{1})
      .attr("sampling_ratio", AttrType::i, int64_t{0})
      .attr("spatial_scale", AttrType::f, 1.0f)
      .input("X", "T1")
      .input("rois", "T1")
      .input("batch_indices", "T2")
      .output("Y", "T1")
      .constraint("T1", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"})
      .constraint("T2", {"tensor(int64)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_roi_align).kernel(roi_align_kernel);
  // Version 16 adds coordinate_transformation_mode, whose default (half_pixel) is not what
  // version 10 computed (output_half_pixel): the old behaviour is made explicit going up, and
  // only it converts down.
  op.at(16).upgrade(roi_align_old_coordinates).downgrade(roi_align_needs_old_coordinates);
}

}  // namespace onnxtool::ops
