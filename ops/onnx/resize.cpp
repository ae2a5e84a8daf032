// SPDX-License-Identifier: Apache-2.0
// Resize: the ai.onnx operator.
#include <cmath>
#include <cstring>
#include <numeric>

#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "ops/onnx/tensor_common.h"

namespace onnxtool::ops {

// ---- the engine: per-axis sampling taps, then nearest gathers or separable passes ----------
//
// The sampling follows the ONNX reference implementation (onnx/reference/ops/op_resize.py),
// from which the backend tests' expected outputs come: the coordinate transforms use the
// fractional output width (scale * input length) where the spec writes length_resized, taps
// read past the edges repeat the edge element, and the result is computed in double and
// converted once (truncating toward zero for integer types).

namespace {

// A sampling position's input elements: w[j] weighs input index first + j (clamped to the
// axis when read); `outside` marks tf_crop_and_resize positions outside the input.
struct Taps {
  int64_t first = 0;
  std::vector<double> w;
  bool outside = false;
};

struct AxisGeometry {
  int64_t in = 0, out = 0;
  double scale = 1, roi_start = 0, roi_end = 1;
};

// x_original for output position x; nullopt when tf_crop_and_resize lands outside the input.
std::optional<double> original_coordinate(const ResizeSpec& s, const AxisGeometry& g, double x) {
  const auto in = static_cast<double>(g.in);
  const double width = g.scale * in;
  switch (s.coord) {
    case CoordMode::half_pixel:
      return (x + 0.5) / g.scale - 0.5;
    case CoordMode::half_pixel_symmetric: {
      const double adjustment = static_cast<double>(g.out) / width;
      return in / 2 * (1 - adjustment) + (x + 0.5) / g.scale - 0.5;
    }
    case CoordMode::pytorch_half_pixel:
      return width == 1 ? -0.5 : (x + 0.5) / g.scale - 0.5;
    case CoordMode::align_corners:
      return width == 1 ? 0.0 : x * (in - 1) / (width - 1);
    case CoordMode::asymmetric:
      return x / g.scale;
    case CoordMode::tf_half_pixel_for_nn:
      return (x + 0.5) / g.scale;
    case CoordMode::tf_crop_and_resize: {
      const double span = (g.roi_end - g.roi_start) * (in - 1);
      const double v = (width == 1 ? span / 2 : x * span / (width - 1)) + g.roi_start * (in - 1);
      if (v < 0 || v > in - 1) return std::nullopt;
      return v;
    }
  }
  return std::nullopt;
}

double cubic_weight(double x, double a) {
  x = std::abs(x);
  if (x <= 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a;
  return 0;
}

// Interpolation weights around x_original = base + ratio, ratio in (0, 1]: linear and cubic,
// each widened by 1/scale when antialiasing a downscale.
Taps interpolation_taps(const ResizeSpec& s, double scale, int64_t base, double ratio) {
  Taps t;
  const double f = s.antialias ? std::min(scale, 1.0) : 1.0;
  const bool linear = s.mode == ResizeMode::linear;
  const int64_t start = static_cast<int64_t>(std::floor((linear ? -1 : -2) / f)) + 1;
  const int64_t n = 2 - 2 * start;
  t.first = base + start;
  double sum = 0;
  for (int64_t j = 0; j < n; ++j) {
    const double d = f * (static_cast<double>(start + j) - ratio);
    const double w = linear ? std::clamp(1 - std::abs(d), 0.0, 1.0) : cubic_weight(d, s.cubic_a);
    t.w.push_back(w);
    sum += w;
  }
  if (s.antialias)
    for (double& w : t.w) w /= sum;
  return t;
}

// exclude_outside: weights of taps outside the axis are dropped and the rest renormalised.
void exclude_outside(Taps& t, int64_t in) {
  double sum = 0;
  for (std::size_t j = 0; j < t.w.size(); ++j) {
    const int64_t i = t.first + static_cast<int64_t>(j);
    if (i < 0 || i >= in) t.w[j] = 0;
    sum += t.w[j];
  }
  for (double& w : t.w) w /= sum;
}

std::vector<Taps> axis_taps(const ResizeSpec& s, const AxisGeometry& g) {
  std::vector<Taps> taps(static_cast<std::size_t>(g.out));
  for (int64_t x = 0; x < g.out; ++x) {
    Taps& t = taps[static_cast<std::size_t>(x)];
    const auto xo = original_coordinate(s, g, static_cast<double>(x));
    if (!xo) {
      t.outside = true;
      continue;
    }
    const double c = std::clamp(*xo, -1e9, 1e9);
    const double fl = std::floor(c);
    const bool integral = fl == c;
    t = interpolation_taps(s, g.scale, static_cast<int64_t>(integral ? c - 1 : fl),
                           integral ? 1.0 : c - fl);
    if (s.exclude_outside) exclude_outside(t, g.in);
  }
  return taps;
}

// The input index nearest_mode picks for output position x; -1 outside (tf_crop_and_resize).
int64_t nearest_index(const ResizeSpec& s, const AxisGeometry& g, int64_t x) {
  const auto xo = original_coordinate(s, g, static_cast<double>(x));
  if (!xo) return -1;
  const double c = std::clamp(*xo, -1.0, static_cast<double>(g.in));
  const double fl = std::floor(c), ratio = c - fl;
  double i = fl;
  switch (s.nearest) {
    case NearestMode::round_prefer_floor:
      i = ratio > 0.5 ? fl + 1 : fl;
      break;
    case NearestMode::round_prefer_ceil:
      i = ratio >= 0.5 ? fl + 1 : fl;
      break;
    case NearestMode::floor:
      break;
    case NearestMode::ceil:
      i = std::ceil(c);
      break;
    case NearestMode::simple:
      i = g.scale < 1 ? std::ceil(c) : fl;
      break;
  }
  return std::clamp<int64_t>(static_cast<int64_t>(i), 0, g.in - 1);
}

std::vector<AxisGeometry> geometries(const Tensor& x, const ResizeSpec& s) {
  std::vector<AxisGeometry> g(x.shape().size());
  for (std::size_t a = 0; a < g.size(); ++a)
    g[a] = AxisGeometry{x.shape()[a], s.out[a], s.scales[a], s.roi_start[a], s.roi_end[a]};
  return g;
}

// An axis that maps every output position to the same input position needs no work.
bool identity_axis(const ResizeSpec& s, const AxisGeometry& g) {
  return g.in == g.out && g.scale == 1 && s.coord != CoordMode::tf_crop_and_resize;
}

template <std::size_t W>
void gather_run(const std::byte* src, const int64_t* offsets, std::byte* dst, int64_t n) {
  for (int64_t i = 0; i < n; ++i, dst += W)
    std::memcpy(dst, src + offsets[i] * static_cast<int64_t>(W), W);
}

// Nearest: per axis a table of input offsets; each output row gathers through the last one.
void resize_nearest(KernelContext& ctx, const Tensor& x, Tensor& y, const ResizeSpec& s) {
  const auto g = geometries(x, s);
  const auto strides = contiguous_strides(x.shape());
  const std::size_t r = g.size();
  std::vector<std::vector<int64_t>> offsets(r);
  for (std::size_t a = 0; a < r; ++a)
    for (int64_t o = 0; o < g[a].out; ++o) {
      const int64_t i = nearest_index(s, g[a], o);
      offsets[a].push_back(i < 0 ? -1 : i * strides[a]);
    }
  const int64_t inner = s.out.back(), rows = shape_product(s.out) / std::max<int64_t>(inner, 1);
  const Tensor fill = x.dtype() == DataType::string ? Tensor::from_strings({}, {""})
                                                    : scalar_of(x.dtype(), s.extrapolation);
  const auto w = static_cast<int64_t>(elem_width(x.dtype()));
  const std::vector<int64_t>& last = offsets.back();
  const bool any_outside = std::any_of(offsets.begin(), offsets.end(), [](const auto& v) {
    return std::find(v.begin(), v.end(), -1) != v.end();
  });
  parallel_rows(&ctx, rows, inner * std::max<int64_t>(w, 8), [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      int64_t base = 0, rem = row;
      bool outside = false;
      for (std::size_t a = r - 1; a-- > 0;) {
        const int64_t o = offsets[a][static_cast<std::size_t>(rem % s.out[a])];
        rem /= s.out[a];
        outside = outside || o < 0;
        base += o;
      }
      if (any_outside || w == 0) {
        for (int64_t i = 0; i < inner; ++i) {
          const int64_t o = last[static_cast<std::size_t>(i)];
          if (outside || o < 0)
            copy_elements(fill, 0, y, row * inner + i, 1);
          else
            copy_elements(x, base + o, y, row * inner + i, 1);
        }
        continue;
      }
      const std::byte* src = x.raw() + base * w;
      std::byte* dst = y.mutable_raw() + row * inner * w;
      switch (w) {
        case 1:
          gather_run<1>(src, last.data(), dst, inner);
          break;
        case 2:
          gather_run<2>(src, last.data(), dst, inner);
          break;
        case 4:
          gather_run<4>(src, last.data(), dst, inner);
          break;
        case 8:
          gather_run<8>(src, last.data(), dst, inner);
          break;
        default:
          gather_run<16>(src, last.data(), dst, inner);
          break;
      }
    }
  });
}

// One separable pass along axis a: shape `in` becomes `in` with dim a = taps.size().
std::vector<double> resize_pass(const KernelContext& ctx, const std::vector<double>& src,
                                Shape& shape, std::size_t a, const std::vector<Taps>& taps,
                                double extrapolation) {
  const int64_t n = shape[a], m = static_cast<int64_t>(taps.size());
  const int64_t outer = shape_product(shape, 0, a), inner = shape_product(shape, a + 1);
  std::vector<double> dst(static_cast<std::size_t>(outer * m * inner));
  parallel_rows(&ctx, outer * m, inner * 8 * 4, [&](int64_t b, int64_t e) {
    for (int64_t row = b; row < e; ++row) {
      const int64_t o = row / m;
      const Taps& t = taps[static_cast<std::size_t>(row % m)];
      double* out = dst.data() + row * inner;
      if (t.outside) {
        std::fill(out, out + inner, extrapolation);
        continue;
      }
      for (std::size_t j = 0; j < t.w.size(); ++j) {
        const int64_t i = std::clamp<int64_t>(t.first + static_cast<int64_t>(j), 0, n - 1);
        const double wj = t.w[j];
        const double* in = src.data() + (o * n + i) * inner;
        for (int64_t k = 0; k < inner; ++k) out[k] += wj * in[k];
      }
    }
  });
  shape[a] = m;
  return dst;
}

// An axis's taps as a table: tap j of output position o reads input index[o * n + j] (clamped
// to the axis) with weight w[o * n + j]. nullopt where a position is outside the input or the
// positions' tap counts differ (interpolation_taps gives every position of an axis the same).
struct TapTable {
  int64_t n = 0;
  std::vector<int64_t> index;
  std::vector<double> w;
};

std::optional<TapTable> tap_table(const std::vector<Taps>& taps, int64_t in) {
  TapTable t;
  if (taps.empty()) return std::nullopt;
  t.n = static_cast<int64_t>(taps.front().w.size());
  for (const Taps& tp : taps) {
    if (tp.outside || static_cast<int64_t>(tp.w.size()) != t.n) return std::nullopt;
    for (int64_t j = 0; j < t.n; ++j) {
      t.index.push_back(std::clamp<int64_t>(tp.first + j, 0, in - 1));
      t.w.push_back(tp.w[static_cast<std::size_t>(j)]);
    }
  }
  return t;
}

// One input row's width pass into `row` (out_w sums): through the taps, or as it is where the
// width is kept (no taps).
void width_pass(const float* xr, const std::optional<TapTable>& tw, int64_t out_w, double* row) {
  if (!tw) {
    for (int64_t ox = 0; ox < out_w; ++ox) row[ox] = static_cast<double>(xr[ox]);
    return;
  }
  for (int64_t ox = 0; ox < out_w; ++ox) {
    double sum = 0;
    for (int64_t j = 0; j < tw->n; ++j) {
      const auto k = static_cast<std::size_t>(ox * tw->n + j);
      sum += tw->w[k] * static_cast<double>(xr[tw->index[k]]);
    }
    row[ox] = sum;
  }
}

// Float32 planes (every axis but the last two kept, no position outside the input): per plane
// the width pass into a scratch of its rows, then the height pass into Y, each output element
// the sums resize_pass makes in the same order (in double, from 0, tap by tap), rounded to
// float once, without its whole-tensor buffers. False where it does not apply. A 64-channel
// 56x56 plane twice as large, one thread: 3.83 -> 1.60 ms.
bool resize_float_planes(KernelContext& ctx, const Tensor& x, Tensor& y, const ResizeSpec& s) {
  const auto g = geometries(x, s);
  const std::size_t r = g.size();
  if (r < 2) return false;
  for (std::size_t a = 0; a + 2 < r; ++a)
    if (!identity_axis(s, g[a])) return false;
  const AxisGeometry &gh = g[r - 2], &gw = g[r - 1];
  const bool width_kept = identity_axis(s, gw), height_kept = identity_axis(s, gh);
  std::optional<TapTable> tw, th;
  if (!width_kept && !(tw = tap_table(axis_taps(s, gw), gw.in))) return false;
  if (!height_kept && !(th = tap_table(axis_taps(s, gh), gh.in))) return false;
  const int64_t in_h = gh.in, in_w = gw.in, out_h = gh.out, out_w = gw.out;
  const int64_t planes = shape_product(x.shape(), 0, r - 2);
  const float* src = x.data<float>();
  float* dst = y.mutable_data<float>();
  parallel_rows(&ctx, planes, in_h * out_w * 8, [&](int64_t p0, int64_t p1) {
    thread_local std::vector<double> rows, acc;
    rows.resize(static_cast<std::size_t>(in_h * out_w));
    acc.resize(static_cast<std::size_t>(out_w));
    for (int64_t p = p0; p < p1; ++p) {
      const float* xp = src + p * in_h * in_w;
      float* yp = dst + p * out_h * out_w;
      for (int64_t iy = 0; iy < in_h; ++iy) {
        const float* xr = xp + iy * in_w;
        double* row = rows.data() + iy * out_w;
        width_pass(xr, tw, out_w, row);
      }
      for (int64_t oy = 0; oy < out_h; ++oy) {
        float* out = yp + oy * out_w;
        if (height_kept) {
          const double* row = rows.data() + oy * out_w;
          for (int64_t ox = 0; ox < out_w; ++ox) out[ox] = static_cast<float>(row[ox]);
          continue;
        }
        std::fill(acc.begin(), acc.end(), 0.0);
        for (int64_t j = 0; j < th->n; ++j) {
          const auto k = static_cast<std::size_t>(oy * th->n + j);
          const double wj = th->w[k];
          const double* row = rows.data() + th->index[k] * out_w;
          for (int64_t ox = 0; ox < out_w; ++ox) acc[static_cast<std::size_t>(ox)] += wj * row[ox];
        }
        for (int64_t ox = 0; ox < out_w; ++ox)
          out[ox] = static_cast<float>(acc[static_cast<std::size_t>(ox)]);
      }
    }
  });
  return true;
}

template <class T>
void resize_interpolate(KernelContext& ctx, const Tensor& x, Tensor& y, const ResizeSpec& s) {
  const auto g = geometries(x, s);
  std::vector<double> buf(static_cast<std::size_t>(x.numel()));
  const T* p = x.data<T>();
  for (std::size_t i = 0; i < buf.size(); ++i) buf[i] = to_double<T>(p[i]);
  Shape shape = x.shape();
  for (std::size_t a = g.size(); a-- > 0;) {
    if (identity_axis(s, g[a])) continue;
    buf = resize_pass(ctx, buf, shape, a, axis_taps(s, g[a]), s.extrapolation);
  }
  T* out = y.mutable_data<T>();
  for (std::size_t i = 0; i < buf.size(); ++i) out[i] = from_double<T>(buf[i]);
}

}  // namespace

void resize_into(KernelContext& ctx, const Tensor& x, const ResizeSpec& spec) {
  Tensor& y = ctx.output(0, x.dtype(), spec.out);
  if (y.numel() == 0) return;
  if (x.numel() == 0)
    ctx.fail("cannot resize an empty input " + shape_to_string(x.shape()) +
             " to a non-empty output");
  if (spec.mode == ResizeMode::nearest) {
    resize_nearest(ctx, x, y, spec);
    return;
  }
  visit_type(x.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, float>)
      if (resize_float_planes(ctx, x, y, spec)) return;
    if constexpr (is_real_v<T> && !std::is_same_v<T, bool>)
      resize_interpolate<T>(ctx, x, y, spec);
    else
      ctx.fail("linear and cubic interpolation need a numeric type, got " +
               std::string(type_name(x.dtype())));
  });
}

// ---- Resize: its inputs and attributes by version ------------------------------------------

namespace {

template <class Fail>
ResizeMode parse_mode(const std::string& m, int version, Fail&& fail) {
  if (m == "nearest") return ResizeMode::nearest;
  if (m == "linear") return ResizeMode::linear;
  if (m == "cubic" && version >= 11) return ResizeMode::cubic;
  fail("mode \"" + m + "\" is not one Resize-" + std::to_string(version) + " knows");
  return {};  // not reached: fail() throws
}

template <class Fail>
CoordMode parse_coord(const std::string& m, int version, Fail&& fail) {
  if (m == "half_pixel") return CoordMode::half_pixel;
  if (m == "half_pixel_symmetric" && version >= 19) return CoordMode::half_pixel_symmetric;
  if (m == "pytorch_half_pixel") return CoordMode::pytorch_half_pixel;
  if (m == "align_corners") return CoordMode::align_corners;
  if (m == "asymmetric") return CoordMode::asymmetric;
  if (m == "tf_half_pixel_for_nn" && version == 11) return CoordMode::tf_half_pixel_for_nn;
  if (m == "tf_crop_and_resize") return CoordMode::tf_crop_and_resize;
  fail("coordinate_transformation_mode \"" + m + "\" is not one Resize-" + std::to_string(version) +
       " knows");
  return {};  // not reached: fail() throws
}

template <class Fail>
NearestMode parse_nearest(const std::string& m, Fail&& fail) {
  if (m == "round_prefer_floor") return NearestMode::round_prefer_floor;
  if (m == "round_prefer_ceil") return NearestMode::round_prefer_ceil;
  if (m == "floor") return NearestMode::floor;
  if (m == "ceil") return NearestMode::ceil;
  fail("nearest_mode \"" + m + "\" is not round_prefer_floor, round_prefer_ceil, floor or ceil");
  return {};  // not reached: fail() throws
}

// The attributes' part of the spec (everything but sizes, scales and roi).
template <class Fail>
ResizeSpec attribute_spec(const AttrView& attrs, int version, Fail&& fail) {
  ResizeSpec s;
  s.mode = parse_mode(attrs.get_string("mode", "nearest"), version, fail);
  if (version < 11) return s;  // asymmetric coordinates, legacy nearest rounding
  s.coord =
      parse_coord(attrs.get_string("coordinate_transformation_mode", "half_pixel"), version, fail);
  s.nearest = parse_nearest(attrs.get_string("nearest_mode", "round_prefer_floor"), fail);
  s.cubic_a = attrs.get_float("cubic_coeff_a", -0.75f);
  s.exclude_outside = attrs.get_int("exclude_outside", 0) != 0;
  s.extrapolation = attrs.get_float("extrapolation_value", 0.0f);
  s.antialias = version >= 18 && attrs.get_int("antialias", 0) != 0;
  return s;
}

std::size_t scales_input(int version) {
  return version < 11 ? 1 : 2;
}

// Output sizes from `sizes` for `axes`, with keep_aspect_ratio_policy: returns per-axis scales
// and fills out.
template <class Fail>
std::vector<double> sizes_to_scales(const Shape& in, const std::vector<int64_t>& axes,
                                    const std::vector<int64_t>& sizes, const std::string& policy,
                                    Shape& out, Fail&& fail) {
  std::vector<double> scales(in.size(), 1.0);
  out = in;
  if (sizes.size() != axes.size())
    fail("sizes has " + std::to_string(sizes.size()) + " entries, expected " +
         std::to_string(axes.size()));
  for (std::size_t i = 0; i < axes.size(); ++i) {
    const auto a = static_cast<std::size_t>(axes[i]);
    if (sizes[i] < 0) fail(indexed("sizes", i) + " is negative");
    out[a] = sizes[i];
    scales[a] = static_cast<double>(sizes[i]) / static_cast<double>(in[a]);
  }
  if (policy == "stretch") return scales;
  if (policy != "not_larger" && policy != "not_smaller")
    fail("keep_aspect_ratio_policy \"" + policy + "\" is not stretch, not_larger or not_smaller");
  double scale = policy == "not_larger" ? INFINITY : -INFINITY;
  for (int64_t a : axes)
    scale = policy == "not_larger" ? std::min(scale, scales[static_cast<std::size_t>(a)])
                                   : std::max(scale, scales[static_cast<std::size_t>(a)]);
  for (int64_t a : axes) {
    const auto k = static_cast<std::size_t>(a);
    scales[k] = scale;
    const auto extent = scaled_extent(scale, in[k]);
    if (!extent) fail("sizes give a scale of " + std::to_string(scale) + ", too large");
    out[k] = static_cast<int64_t>(scale * static_cast<double>(in[k]) + 0.5);
  }
  return scales;
}

template <class Fail>
std::vector<double> full_scales(const Shape& in, const std::vector<int64_t>& axes,
                                const std::vector<double>& given, Shape& out, Fail&& fail) {
  if (given.size() != axes.size())
    fail("scales has " + std::to_string(given.size()) + " entries, expected " +
         std::to_string(axes.size()));
  std::vector<double> scales(in.size(), 1.0);
  out = in;
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (!(given[i] > 0))
      fail(indexed("scales", i) + " = " + std::to_string(given[i]) + " is not positive");
    const auto a = static_cast<std::size_t>(axes[i]);
    scales[a] = given[i];
    const auto extent = scaled_extent(given[i], in[a]);
    if (!extent) fail(indexed("scales", i) + " = " + std::to_string(given[i]) + " is too large");
    out[a] = *extent;
  }
  return scales;
}

std::vector<double> read_doubles(const Tensor& t) {
  std::vector<double> v(static_cast<std::size_t>(t.numel()));
  for (std::size_t i = 0; i < v.size(); ++i) v[i] = element_as_double(t, static_cast<int64_t>(i));
  return v;
}

bool present(const KernelContext& ctx, std::size_t i) {
  return ctx.num_inputs() > i && ctx.has_input(i) && ctx.input(i).numel() > 0;
}

std::vector<int64_t> kernel_resize_axes(const KernelContext& ctx, int64_t rank) {
  if (since(ctx) >= 18 && ctx.attrs().has("axes"))
    return kernel_axes(ctx, ctx.attrs().get_ints("axes"), rank);
  std::vector<int64_t> all(static_cast<std::size_t>(rank));
  std::iota(all.begin(), all.end(), 0);
  return all;
}

void kernel_roi(const KernelContext& ctx, const std::vector<int64_t>& axes, ResizeSpec& s) {
  s.roi_start.assign(s.out.size(), 0.0);
  s.roi_end.assign(s.out.size(), 1.0);
  if (since(ctx) < 11 || !present(ctx, 1) || s.coord != CoordMode::tf_crop_and_resize) return;
  const std::vector<double> roi = read_doubles(ctx.input(1));
  if (roi.size() != 2 * axes.size())
    ctx.fail("roi has " + std::to_string(roi.size()) + " entries, expected " +
             std::to_string(2 * axes.size()));
  for (std::size_t i = 0; i < axes.size(); ++i) {
    s.roi_start[static_cast<std::size_t>(axes[i])] = roi[i];
    s.roi_end[static_cast<std::size_t>(axes[i])] = roi[axes.size() + i];
  }
}

void resize_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const int version = since(ctx);
  auto fail = [&](const std::string& m) { ctx.fail(m); };
  ResizeSpec s = attribute_spec(ctx.attrs(), version, fail);
  const std::vector<int64_t> axes = kernel_resize_axes(ctx, x.rank());
  const bool has_scales = present(ctx, scales_input(version));
  const bool has_sizes = version >= 11 && present(ctx, 3);
  if (has_scales == has_sizes)
    ctx.fail("exactly one of scales and sizes must be given (and not empty)");
  if (has_sizes)
    s.scales = sizes_to_scales(
        x.shape(), axes, read_ints(ctx, ctx.input(3), "sizes"),
        version >= 18 ? ctx.attrs().get_string("keep_aspect_ratio_policy", "stretch") : "stretch",
        s.out, fail);
  else
    s.scales =
        full_scales(x.shape(), axes, read_doubles(ctx.input(scales_input(version))), s.out, fail);
  kernel_roi(ctx, axes, s);
  resize_into(ctx, x, s);
}

// ---- inference ----

// A dim times a scale: known dims exactly as the kernel computes them; symbolic ones only for
// a whole scale (N*2).
Dim scaled_dim(const Dim& d, double scale) {
  if (d.is_known()) {
    const auto extent = scaled_extent(scale, d.value());
    return extent ? Dim::value(*extent) : Dim();
  }
  if (scale >= 1 && scale == std::floor(scale) && scale < 1e6)
    return d * Dim::value(static_cast<int64_t>(scale));
  return Dim();
}

std::vector<int64_t> infer_resize_axes(const InferContext& ctx, int64_t rank) {
  if (since(ctx) >= 18 && ctx.attrs().has("axes"))
    return infer_axes(ctx.attrs().get_ints("axes"), rank);
  std::vector<int64_t> all(static_cast<std::size_t>(rank));
  std::iota(all.begin(), all.end(), 0);
  return all;
}

// Whether input i is given with (maybe) elements: an empty constant counts as absent.
bool given(const InferContext& ctx, std::size_t i) {
  if (ctx.num_inputs() <= i || !ctx.has_input(i)) return false;
  const Tensor* c = ctx.input_constant(i);
  if (c) return c->numel() > 0;
  const Dims* s = input_shape(ctx, i);
  return !(s && s->size() == 1 && (*s)[0].is_known() && (*s)[0].value() == 0);
}

Dims sizes_dims(const InferContext& ctx, const Dims& in, const std::vector<int64_t>& axes) {
  Dims out = in;
  for (int64_t a : axes) out[static_cast<std::size_t>(a)] = Dim();
  const auto sizes = input_dims_values(ctx, 3);
  if (!sizes) return out;
  if (sizes->size() != axes.size())
    infer_fail("sizes has " + std::to_string(sizes->size()) + " entries, expected " +
               std::to_string(axes.size()));
  const std::string policy =
      since(ctx) >= 18 ? ctx.attrs().get_string("keep_aspect_ratio_policy", "stretch") : "stretch";
  const auto known_sizes = known_values(*sizes);
  if (policy == "stretch" || !known_sizes) {
    if (policy == "stretch")
      for (std::size_t i = 0; i < axes.size(); ++i)
        out[static_cast<std::size_t>(axes[i])] = dims_from_values(*sizes)[i];
    return out;
  }
  Shape concrete;
  for (const Dim& d : in) {
    if (!d.is_known()) return out;
    concrete.push_back(d.value());
  }
  Shape result;
  sizes_to_scales(concrete, axes, *known_sizes, policy, result,
                  [](const std::string& m) { infer_fail(m); });
  return dims_of(result);
}

void infer_resize(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* in = input_shape(ctx, 0);
  const int version = since(ctx);
  attribute_spec(ctx.attrs(), version, [](const std::string& m) { infer_fail(m); });
  if (!in) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const auto axes = infer_resize_axes(ctx, static_cast<int64_t>(in->size()));
  if (version >= 11 && given(ctx, 3)) {
    set_output_tensor(ctx, 0, elem, sizes_dims(ctx, *in, axes));
    return;
  }
  Dims out = *in;
  const Tensor* sc = ctx.input_constant(scales_input(version));
  if (!sc) {
    for (int64_t a : axes) out[static_cast<std::size_t>(a)] = Dim();
    set_output_tensor(ctx, 0, elem, out);
    ctx.explain(0, "the scales are not known");
    return;
  }
  const std::vector<double> scales = read_doubles(*sc);
  if (scales.size() != axes.size())
    infer_fail("scales has " + std::to_string(scales.size()) + " entries, expected " +
               std::to_string(axes.size()));
  for (std::size_t i = 0; i < axes.size(); ++i) {
    if (!(scales[i] > 0)) infer_fail(indexed("scales", i) + " is not positive");
    auto& d = out[static_cast<std::size_t>(axes[i])];
    d = scaled_dim(d, scales[i]);
  }
  set_output_tensor(ctx, 0, elem, out);
}

// ---- version adapters --------------------------------------------------------------------

void resize_to_upsample(AdapterContext& ctx) {
  ctx.set_op_type("Upsample");
  ctx.describe("Resize -> Upsample (the same inputs and modes)");
}

// Resize-10 maps an output coordinate to x / scale and, in nearest mode, takes its floor:
// version 11 says that with asymmetric coordinates and nearest_mode=floor; roi is unused.
void resize_10_to_11(AdapterContext& ctx) {
  const std::string scales = ctx.input(1);
  const std::string roi =
      ctx.add_constant(ctx.name_base() + "_roi", Tensor::from_vector<float>({0}, {}));
  ctx.set_input(1, roi);
  ctx.set_input(2, scales);
  ctx.set_attribute("coordinate_transformation_mode", std::string("asymmetric"));
  if (ctx.string_attribute("mode").value_or("nearest") == "nearest")
    ctx.set_attribute("nearest_mode", std::string("floor"));
  ctx.describe("asymmetric coordinates (and floor in nearest mode), as version 10 computed");
}

void resize_11_to_10(AdapterContext& ctx) {
  const std::string mode = ctx.string_attribute("mode").value_or("nearest");
  const std::string coords =
      ctx.string_attribute("coordinate_transformation_mode").value_or("half_pixel");
  if (mode != "nearest" && mode != "linear")
    ctx.refuse("mode " + mode + " does not exist in " + ctx.to().id());
  if (coords != "asymmetric")
    ctx.refuse("coordinate_transformation_mode " + coords + " has no equivalent in " +
               ctx.to().id() + ", which maps coordinates asymmetrically");
  if (mode == "nearest" &&
      ctx.string_attribute("nearest_mode").value_or("round_prefer_floor") != "floor")
    ctx.refuse("nearest_mode other than floor has no equivalent in " + ctx.to().id());
  if (ctx.has_input(3) || !ctx.has_input(2))
    ctx.refuse("sizes have no equivalent in " + ctx.to().id() + ", which takes scales");
  for (const char* a : {"coordinate_transformation_mode", "nearest_mode", "cubic_coeff_a",
                        "exclude_outside", "extrapolation_value"})
    ctx.remove_attribute(a);
  const std::string scales = ctx.input(2);
  ctx.truncate_inputs(1);
  ctx.set_input(1, scales);
  ctx.describe("roi dropped; asymmetric coordinates are what " + ctx.to().id() + " computes");
}

// Down to 11: roi and scales are required inputs there, empty when unused.
void resize_empty_roi_and_scales(AdapterContext& ctx) {
  if (!ctx.has_input(1))
    ctx.set_input(1,
                  ctx.add_constant(ctx.name_base() + "_roi", Tensor::from_vector<float>({0}, {})));
  if (!ctx.has_input(2))
    ctx.set_input(
        2, ctx.add_constant(ctx.name_base() + "_scales", Tensor::from_vector<float>({0}, {})));
}

}  // namespace

void define_Resize(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("mode", AttrType::s, "nearest")
      .input("X", "T")
      .input("scales", "tensor(float)")
      .output("Y", "T")
      .constraint("T", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                        "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                        "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                        "tensor(bool)", "tensor(complex64)", "tensor(complex128)"});
  op.since(11)
      .attr("coordinate_transformation_mode", AttrType::s, "half_pixel")
      .attr("cubic_coeff_a", AttrType::f, -0.75f)
      .attr("exclude_outside", AttrType::i, int64_t{0})
      .attr("extrapolation_value", AttrType::f, 0.0f)
      .attr("mode", AttrType::s, "nearest")
      .attr("nearest_mode", AttrType::s, "round_prefer_floor")
      .input("X", "T1")
      .input("roi", "T2")
      .input("scales", "tensor(float)")
      .input_optional("sizes", "tensor(int64)")
      .output("Y", "T1")
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(13)
      .attr("coordinate_transformation_mode", AttrType::s, "half_pixel")
      .attr("cubic_coeff_a", AttrType::f, -0.75f)
      .attr("exclude_outside", AttrType::i, int64_t{0})
      .attr("extrapolation_value", AttrType::f, 0.0f)
      .attr("mode", AttrType::s, "nearest")
      .attr("nearest_mode", AttrType::s, "round_prefer_floor")
      .input("X", "T1", D::differentiable)
      .input_optional("roi", "T2", D::non_differentiable)
      .input_optional("scales", "tensor(float)", D::non_differentiable)
      .input_optional("sizes", "tensor(int64)", D::non_differentiable)
      .output("Y", "T1", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(complex64)",
                         "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(18)
      .attr("antialias", AttrType::i, int64_t{0})
      .attr_optional("axes", AttrType::ints)
      .attr("coordinate_transformation_mode", AttrType::s, "half_pixel")
      .attr("cubic_coeff_a", AttrType::f, -0.75f)
      .attr("exclude_outside", AttrType::i, int64_t{0})
      .attr("extrapolation_value", AttrType::f, 0.0f)
      .attr("keep_aspect_ratio_policy", AttrType::s, "stretch")
      .attr("mode", AttrType::s, "nearest")
      .attr("nearest_mode", AttrType::s, "round_prefer_floor")
      .input("X", "T1", D::differentiable)
      .input_optional("roi", "T2", D::non_differentiable)
      .input_optional("scales", "tensor(float)", D::non_differentiable)
      .input_optional("sizes", "tensor(int64)", D::non_differentiable)
      .output("Y", "T1", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(complex64)",
                         "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(19)
      .attr("antialias", AttrType::i, int64_t{0})
      .attr_optional("axes", AttrType::ints)
      .attr("coordinate_transformation_mode", AttrType::s, "half_pixel")
      .attr("cubic_coeff_a", AttrType::f, -0.75f)
      .attr("exclude_outside", AttrType::i, int64_t{0})
      .attr("extrapolation_value", AttrType::f, 0.0f)
      .attr("keep_aspect_ratio_policy", AttrType::s, "stretch")
      .attr("mode", AttrType::s, "nearest")
      .attr("nearest_mode", AttrType::s, "round_prefer_floor")
      .input("X", "T1", D::differentiable)
      .input_optional("roi", "T2", D::non_differentiable)
      .input_optional("scales", "tensor(float)", D::non_differentiable)
      .input_optional("sizes", "tensor(int64)", D::non_differentiable)
      .output("Y", "T1", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(complex64)",
                         "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all().infer(infer_resize).kernel(resize_kernel);
  // Resize-10 is Upsample-9 renamed (going below 10 it is Upsample again); 11 adds roi, sizes
  // and the coordinate modes; 13 makes roi and scales optional; 19 adds half_pixel_symmetric.
  op.at(10).downgrade(resize_to_upsample);
  op.at(11).upgrade(resize_10_to_11).downgrade(resize_11_to_10);
  op.at(13).upgrade(convert::unchanged("")).downgrade(resize_empty_roi_and_scales);
  op.at(19).downgrade(
      convert::refuse_values("coordinate_transformation_mode", {"half_pixel_symmetric"}));
}

}  // namespace onnxtool::ops
