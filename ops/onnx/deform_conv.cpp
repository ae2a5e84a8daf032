// SPDX-License-Identifier: Apache-2.0
// DeformConv: the ai.onnx operator. A grouped convolution whose kernel taps are displaced by
// learned offsets (per output position, per offset group): each tap reads X by (multi)linear
// interpolation at its displaced position, zero outside the input, scaled by the mask when
// given; then the bias is added. Any number of spatial dims.
#include <cmath>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_deform_conv(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* x = misc::input_dims(ctx, 0);
  const Dims* w = misc::input_dims(ctx, 1);
  const Dims* offset = misc::input_dims(ctx, 2);
  if (x && x->size() < 3) infer_fail("X must have rank >= 3 (N, C, spatial...)");
  if (x && w && x->size() != w->size()) infer_fail("X and W must have the same rank");
  const std::size_t rank = x ? x->size() : w ? w->size() : offset ? offset->size() : 0;
  if (rank == 0) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  Dims out{misc::dim_at(x, 0), misc::dim_at(w, 0)};
  // The offset tensor carries the output's spatial dims; else compute them as Conv does.
  const std::size_t spatial = rank - 2;
  std::optional<std::vector<int64_t>> kernel;
  if (w) {
    std::vector<int64_t> k;
    for (std::size_t i = 2; i < w->size(); ++i)
      k.push_back((*w)[i].is_known() ? (*w)[i].value() : -1);
    if (std::find(k.begin(), k.end(), -1) == k.end()) kernel = k;
  }
  if (ctx.attrs().has("kernel_shape")) kernel = ctx.attrs().get_ints("kernel_shape");
  Dims spatial_out(spatial);
  if (x && kernel) {
    const WindowParams p = window_params(ctx.attrs(), spatial, kernel);
    spatial_out = window_output_dims(Dims(x->begin() + 2, x->end()), p);
  }
  for (std::size_t i = 0; i < spatial; ++i) {
    if (offset && offset->size() == rank)
      spatial_out[i] = ctx.unify_dims(spatial_out[i], (*offset)[i + 2], "output dim");
    out.push_back(spatial_out[i]);
  }
  if (offset && x) ctx.unify_dims((*offset)[0], (*x)[0], "batch size");
  set_output_tensor(ctx, 0, elem, out);
}

struct Geometry {
  int64_t n = 0, c = 0, oc = 0, group = 1, offset_group = 1;
  Shape in, kernel, out;  // spatial
  std::vector<int64_t> strides, dilations, pads;
  int64_t taps = 1, in_size = 1, out_size = 1;
};

Geometry geometry(const KernelContext& ctx, const Tensor& x, const Tensor& w,
                  const Tensor& offset) {
  Geometry g;
  if (x.rank() < 3 || w.rank() != x.rank() || offset.rank() != x.rank())
    ctx.fail("X " + shape_to_string(x.shape()) + ", W " + shape_to_string(w.shape()) +
             " and offset " + shape_to_string(offset.shape()) + " must have the same rank >= 3");
  const auto r = static_cast<std::size_t>(x.rank() - 2);
  g.n = x.shape()[0], g.c = x.shape()[1], g.oc = w.shape()[0];
  g.group = ctx.attrs().get_int("group", 1);
  g.offset_group = ctx.attrs().get_int("offset_group", 1);
  if (g.group <= 0 || g.offset_group <= 0 || g.c % g.group || g.oc % g.group ||
      g.c % g.offset_group || w.shape()[1] != g.c / g.group)
    ctx.fail("the channels (X " + std::to_string(g.c) + ", W " + shape_to_string(w.shape()) +
             ") do not fit group " + std::to_string(g.group) + " and offset_group " +
             std::to_string(g.offset_group));
  g.in.assign(x.shape().begin() + 2, x.shape().end());
  g.kernel.assign(w.shape().begin() + 2, w.shape().end());
  if (ctx.attrs().has("kernel_shape") && ctx.attrs().get_ints("kernel_shape") != g.kernel)
    ctx.fail("kernel_shape differs from W's spatial dims");
  g.strides = ctx.attrs().get_ints("strides", std::vector<int64_t>(r, 1));
  g.dilations = ctx.attrs().get_ints("dilations", std::vector<int64_t>(r, 1));
  g.pads = ctx.attrs().get_ints("pads", std::vector<int64_t>(2 * r, 0));
  if (g.strides.size() != r || g.dilations.size() != r || g.pads.size() != 2 * r)
    ctx.fail("strides, dilations and pads must have " + std::to_string(r) + ", " +
             std::to_string(r) + " and " + std::to_string(2 * r) + " values");
  for (std::size_t i = 0; i < r; ++i) {
    const int64_t o =
        (g.in[i] + g.pads[i] + g.pads[i + r] - g.dilations[i] * (g.kernel[i] - 1) - 1) /
            g.strides[i] +
        1;
    g.out.push_back(std::max<int64_t>(o, 0));
    g.taps *= g.kernel[i];
    g.in_size *= g.in[i];
    g.out_size *= g.out[i];
  }
  Shape want_offset{g.n, g.offset_group * g.taps * static_cast<int64_t>(r)};
  want_offset.insert(want_offset.end(), g.out.begin(), g.out.end());
  if (offset.shape() != want_offset)
    ctx.fail("offset has shape " + shape_to_string(offset.shape()) + ", expected " +
             shape_to_string(want_offset));
  return g;
}

// Multilinear interpolation of one plane at a fractional position; zero outside. A NaN position
// (a NaN offset) gives NaN. A position more than one element outside reads only zeros, so it is
// answered before any conversion to an index (an infinite or huge offset must not reach one).
double interpolate(const double* plane, const Shape& dims, const std::vector<double>& pos) {
  const std::size_t r = dims.size();
  for (std::size_t d = 0; d < r; ++d) {
    if (std::isnan(pos[d])) return pos[d];
    if (!(pos[d] > -1 && pos[d] < static_cast<double>(dims[d]))) return 0;
  }
  double sum = 0;
  for (std::size_t corner = 0; corner < (std::size_t{1} << r); ++corner) {
    double weight = 1;
    int64_t at = 0;
    bool inside = true;
    for (std::size_t d = 0; d < r && inside; ++d) {
      const double f = std::floor(pos[d]);
      const bool up = (corner >> d) & 1;
      const auto i = static_cast<int64_t>(f) + (up ? 1 : 0);
      weight *= up ? pos[d] - f : 1 - (pos[d] - f);
      inside = i >= 0 && i < dims[d];
      if (inside) at = at * dims[d] + i;
    }
    if (inside && weight != 0) sum += weight * plane[at];
  }
  return sum;
}

void deform_conv_kernel(KernelContext& ctx) {
  const Tensor& xt = ctx.input(0);
  const Tensor& wt = ctx.input(1);
  const Tensor& ot = ctx.input(2);
  misc::require_float(ctx, xt, "X");
  const Geometry g = geometry(ctx, xt, wt, ot);
  const auto r = g.in.size();
  const std::vector<double> x = misc::values_as<double>(ctx, xt, "X");
  const std::vector<double> w = misc::values_as<double>(ctx, wt, "W");
  const std::vector<double> off = misc::values_as<double>(ctx, ot, "offset");
  std::vector<double> bias(static_cast<std::size_t>(g.oc), 0.0), mask;
  if (ctx.num_inputs() > 3 && ctx.has_input(3)) {
    if (ctx.input(3).shape() != Shape{g.oc})
      ctx.fail("B must have shape [" + std::to_string(g.oc) + "]");
    bias = misc::values_as<double>(ctx, ctx.input(3), "B");
  }
  if (ctx.num_inputs() > 4 && ctx.has_input(4)) {
    Shape want{g.n, g.offset_group * g.taps};
    want.insert(want.end(), g.out.begin(), g.out.end());
    if (ctx.input(4).shape() != want) ctx.fail("mask must have shape " + shape_to_string(want));
    mask = misc::values_as<double>(ctx, ctx.input(4), "mask");
  }
  const int64_t cpg = g.c / g.group, opg = g.oc / g.group, cpo = g.c / g.offset_group;
  std::vector<double> y(static_cast<std::size_t>(g.n * g.oc * g.out_size));
  // sampled[c][tap] for one output position, reused.
  std::vector<double> sampled(static_cast<std::size_t>(g.c * g.taps));
  std::vector<int64_t> o_idx(r), k_idx(r);
  std::vector<double> pos(r);
  for (int64_t b = 0; b < g.n; ++b)
    for (int64_t p = 0; p < g.out_size; ++p) {
      for (int64_t rest = p, d = static_cast<int64_t>(r) - 1; d >= 0; --d) {
        o_idx[static_cast<std::size_t>(d)] = rest % g.out[static_cast<std::size_t>(d)];
        rest /= g.out[static_cast<std::size_t>(d)];
      }
      for (int64_t og = 0; og < g.offset_group; ++og)
        for (int64_t t = 0; t < g.taps; ++t) {
          for (int64_t rest = t, d = static_cast<int64_t>(r) - 1; d >= 0; --d) {
            k_idx[static_cast<std::size_t>(d)] = rest % g.kernel[static_cast<std::size_t>(d)];
            rest /= g.kernel[static_cast<std::size_t>(d)];
          }
          for (std::size_t d = 0; d < r; ++d) {
            const int64_t ch =
                (og * g.taps + t) * static_cast<int64_t>(r) + static_cast<int64_t>(d);
            pos[d] =
                static_cast<double>(o_idx[d] * g.strides[d] - g.pads[d] +
                                    k_idx[d] * g.dilations[d]) +
                off[static_cast<std::size_t>(
                    (b * g.offset_group * g.taps * static_cast<int64_t>(r) + ch) * g.out_size + p)];
          }
          const double m =
              mask.empty() ? 1.0
                           : mask[static_cast<std::size_t>(
                                 (b * g.offset_group * g.taps + og * g.taps + t) * g.out_size + p)];
          for (int64_t c = og * cpo; c < (og + 1) * cpo; ++c)
            sampled[static_cast<std::size_t>(c * g.taps + t)] =
                m * interpolate(x.data() + (b * g.c + c) * g.in_size, g.in, pos);
        }
      for (int64_t oc = 0; oc < g.oc; ++oc) {
        const int64_t grp = oc / opg;
        double acc = bias[static_cast<std::size_t>(oc)];
        for (int64_t ci = 0; ci < cpg; ++ci)
          for (int64_t t = 0; t < g.taps; ++t)
            acc += w[static_cast<std::size_t>((oc * cpg + ci) * g.taps + t)] *
                   sampled[static_cast<std::size_t>((grp * cpg + ci) * g.taps + t)];
        y[static_cast<std::size_t>((b * g.oc + oc) * g.out_size + p)] = acc;
      }
    }
  Shape out_shape{g.n, g.oc};
  out_shape.insert(out_shape.end(), g.out.begin(), g.out.end());
  misc::write_output<double>(ctx, 0, xt.dtype(), out_shape, y);
}

}  // namespace

void define_DeformConv(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(19)
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr("offset_group", AttrType::i, int64_t{1})
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .input("W", "T")
      .input("offset", "T")
      .input_optional("B", "T")
      .input_optional("mask", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr("offset_group", AttrType::i, int64_t{1})
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .input("W", "T")
      .input("offset", "T")
      .input_optional("B", "T")
      .input_optional("mask", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_deform_conv).kernel(deform_conv_kernel);
}

}  // namespace onnxtool::ops
