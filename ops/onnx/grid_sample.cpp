// SPDX-License-Identifier: Apache-2.0
// GridSample: the ai.onnx operator. Samples X (N, C, D1..Dr) at the normalised coordinates of
// grid (N, H1..Hs, r) (x first, i.e. the last spatial axis first) by nearest, (multi)linear or
// (multi)cubic interpolation, with zeros, border or reflection padding. Version 16 takes 4-D X
// and names the modes bilinear/bicubic; 20 on takes any spatial rank and names them
// linear/cubic (both spellings are accepted at every version).
#include <cmath>

#include "core/convert/adapter.h"
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_grid_sample(InferContext& ctx) {
  const int32_t elem = ctx.input_elem_type(0);
  const Dims* x = misc::input_dims(ctx, 0);
  const Dims* grid = misc::input_dims(ctx, 1);
  if (x && x->size() < 3) infer_fail("X must have rank >= 3 (N, C, spatial...)");
  if (ctx.schema().since < 20 && x && x->size() != 4) infer_fail("X must be 4-D before version 20");
  if (grid && grid->size() < 3) infer_fail("grid must have rank >= 3");
  if (x && grid) {
    if (x->size() != grid->size()) infer_fail("X and grid must have the same rank");
    ctx.unify_dims((*x)[0], (*grid)[0], "batch size");
    ctx.unify_dims(Dim::value(static_cast<int64_t>(x->size()) - 2), grid->back(),
                   "grid's last dim (the spatial rank)");
  }
  if (!x && !grid) {
    set_output_tensor(ctx, 0, elem);
    return;
  }
  const std::size_t rank = x ? x->size() : grid->size();
  Dims out{misc::dim_at(x, 0), misc::dim_at(x, 1)};
  if (x && grid)
    out[0] = ctx.unify_dims((*x)[0], (*grid)[0], "batch size");
  else if (grid)
    out[0] = (*grid)[0];
  for (std::size_t i = 1; i + 1 < rank; ++i) out.push_back(misc::dim_at(grid, i));
  set_output_tensor(ctx, 0, elem, out);
}

enum class Mode { nearest, linear, cubic };
enum class Padding { zeros, border, reflection };

struct Options {
  Mode mode = Mode::linear;
  Padding padding = Padding::zeros;
  bool align_corners = false;
};

Options grid_options(const KernelContext& ctx) {
  Options o;
  const std::string mode = ctx.attrs().get_string("mode", "linear");
  if (mode == "nearest")
    o.mode = Mode::nearest;
  else if (mode == "linear" || mode == "bilinear")
    o.mode = Mode::linear;
  else if (mode == "cubic" || mode == "bicubic")
    o.mode = Mode::cubic;
  else
    ctx.fail("mode must be nearest, linear or cubic, got \"" + mode + "\"");
  const std::string pad = ctx.attrs().get_string("padding_mode", "zeros");
  if (pad == "zeros")
    o.padding = Padding::zeros;
  else if (pad == "border")
    o.padding = Padding::border;
  else if (pad == "reflection")
    o.padding = Padding::reflection;
  else
    ctx.fail("padding_mode must be zeros, border or reflection, got \"" + pad + "\"");
  o.align_corners = ctx.attrs().get_int("align_corners", 0) != 0;
  return o;
}

// Reflects x into [lo, hi] by its nearer border until it lies inside (x finite). The reflections
// repeat with period 2 * range, so the distance past the border is taken modulo that: no integer
// conversion, whatever the magnitude.
double reflect(double x, double lo, double hi) {
  const double range = hi - lo;
  if (range <= 0) return lo;
  if (x < lo) {
    const double r = std::fmod(lo - x, 2 * range);
    return r <= range ? lo + r : hi - (r - range);
  }
  if (x > hi) {
    const double r = std::fmod(x - hi, 2 * range);
    return r <= range ? hi - r : lo + (r - range);
  }
  return x;
}

// One spatial axis of length `len`: the borders reflection works within.
struct Axis {
  int64_t len = 0;
  double lo = 0, hi = 0;
};

// The index actually read for integer position i, or -1 for a zero (outside, zeros padding).
int64_t fetch_index(int64_t i, const Axis& a, Padding p) {
  if (i >= 0 && i < a.len) return i;
  if (p == Padding::zeros) return -1;
  if (p == Padding::border) return std::clamp<int64_t>(i, 0, a.len - 1);
  const auto r = static_cast<int64_t>(reflect(static_cast<double>(i), a.lo, a.hi));
  return std::clamp<int64_t>(r, 0, a.len - 1);
}

void cubic_coeffs(double x, double c[4]) {
  constexpr double A = -0.75;
  x = std::abs(x);
  c[0] = ((A * (x + 1) - 5 * A) * (x + 1) + 8 * A) * (x + 1) - 4 * A;
  c[1] = ((A + 2) * x - (A + 3)) * x * x + 1;
  c[2] = ((A + 2) * (1 - x) - (A + 3)) * (1 - x) * (1 - x) + 1;
  c[3] = ((A * (2 - x) - 5 * A) * (2 - x) + 8 * A) * (2 - x) - 4 * A;
}

// The taps (indices read, -1 for zero, and weights) of one axis at normalised coordinate n.
struct Taps {
  int64_t index[4] = {0, 0, 0, 0};
  double weight[4] = {0, 0, 0, 0};
  int count = 0;
};

Taps axis_taps(double n, const Axis& a, const Options& o) {
  const auto len = static_cast<double>(a.len);
  double x = o.align_corners ? (n + 1) / 2.0 * (len - 1) : ((n + 1) * len - 1) / 2.0;
  if (o.mode == Mode::nearest) x = std::nearbyint(x);
  Taps t;
  // A NaN coordinate, or an infinite one that only a clamp can place, samples nothing: zero.
  if (std::isnan(x) || (std::isinf(x) && o.padding != Padding::border)) {
    t.count = 1;
    t.index[0] = -1;
    return t;
  }
  if (x < a.lo || x > a.hi) {
    if (o.padding == Padding::border)
      x = std::clamp(x, 0.0, len - 1);
    else if (o.padding == Padding::reflection)
      x = reflect(x, a.lo, a.hi);
  }
  // Past a few elements outside every tap reads the same padding (zeros here: border and
  // reflection have placed x inside), so far positions are brought nearer before they become
  // indices.
  x = std::clamp(x, a.lo - 4, a.hi + 4);
  if (o.mode == Mode::nearest) {
    t.count = 1;
    t.index[0] = fetch_index(static_cast<int64_t>(x), a, o.padding);
    t.weight[0] = 1;
    return t;
  }
  const double f = std::floor(x);
  const auto x0 = static_cast<int64_t>(f);
  if (o.mode == Mode::linear) {
    t.count = 2;
    t.index[0] = fetch_index(x0, a, o.padding);
    t.index[1] = fetch_index(x0 + 1, a, o.padding);
    t.weight[0] = 1 - (x - f);
    t.weight[1] = x - f;
    return t;
  }
  t.count = 4;
  cubic_coeffs(x - f, t.weight);
  for (int k = 0; k < 4; ++k) t.index[k] = fetch_index(x0 - 1 + k, a, o.padding);
  return t;
}

// Weighted sum over every combination of the axes' taps.
template <class T>
double interpolate(const T* plane, const std::vector<Taps>& taps,
                   const std::vector<int64_t>& strides, std::size_t axis, int64_t offset) {
  double sum = 0;
  const Taps& t = taps[axis];
  for (int k = 0; k < t.count; ++k) {
    if (t.index[k] < 0 || t.weight[k] == 0) continue;
    const int64_t at = offset + t.index[k] * strides[axis];
    const double v = axis + 1 == taps.size() ? static_cast<double>(plane[at])
                                             : interpolate(plane, taps, strides, axis + 1, at);
    sum += t.weight[k] * v;
  }
  return sum;
}

template <class T>
void sample_as(KernelContext& ctx, const Tensor& x, const std::vector<double>& grid,
               const Options& o, Tensor& y) {
  const auto r = static_cast<std::size_t>(x.rank() - 2);
  const int64_t n = x.shape()[0], c = x.shape()[1];
  std::vector<Axis> axes(r);
  std::vector<int64_t> strides(r);
  int64_t plane_size = 1;
  for (std::size_t i = r; i-- > 0;) {
    Axis& a = axes[i];
    a.len = x.shape()[i + 2];
    a.lo = o.align_corners ? 0.0 : -0.5;
    a.hi = o.align_corners ? static_cast<double>(a.len) - 1 : static_cast<double>(a.len) - 0.5;
    strides[i] = plane_size;
    plane_size *= a.len;
  }
  const int64_t points = misc::shape_size(y.shape(), 2);
  const T* in = x.data<T>();
  T* out = y.mutable_data<T>();
  ctx.parallel_for(n * points, 256, [&](int64_t begin, int64_t end) {
    std::vector<Taps> taps(r);
    for (int64_t np = begin; np < end; ++np) {
      const int64_t b = np / points, p = np % points;
      // The grid holds coordinates innermost axis first: grid[..., 0] is along the last axis.
      const double* g = grid.data() + np * static_cast<int64_t>(r);
      for (std::size_t i = 0; i < r; ++i) taps[i] = axis_taps(g[r - 1 - i], axes[i], o);
      for (int64_t ch = 0; ch < c; ++ch) {
        const T* plane = in + (b * c + ch) * plane_size;
        T& dst = out[(b * c + ch) * points + p];
        if (o.mode == Mode::nearest) {
          int64_t at = 0;
          bool zero = false;
          for (std::size_t i = 0; i < r; ++i) {
            zero = zero || taps[i].index[0] < 0;
            at += taps[i].index[0] * strides[i];
          }
          dst = zero ? T{} : plane[at];
        } else if constexpr (std::is_arithmetic_v<T>) {
          dst = static_cast<T>(interpolate(plane, taps, strides, 0, 0));
        }
      }
    }
  });
}

void grid_sample_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const Tensor& grid = ctx.input(1);
  const Options o = grid_options(ctx);
  if (x.rank() < 3) ctx.fail("X must have rank >= 3, got " + shape_to_string(x.shape()));
  if (ctx.schema().since < 20 && x.rank() != 4) ctx.fail("X must be 4-D before version 20");
  if (grid.rank() != x.rank() || grid.shape()[0] != x.shape()[0] ||
      grid.shape().back() != x.rank() - 2)
    ctx.fail("grid has shape " + shape_to_string(grid.shape()) + ", expected (" +
             std::to_string(x.shape()[0]) + ", ..., " + std::to_string(x.rank() - 2) +
             ") with rank " + std::to_string(x.rank()));
  Shape out_shape{x.shape()[0], x.shape()[1]};
  out_shape.insert(out_shape.end(), grid.shape().begin() + 1, grid.shape().end() - 1);
  misc::require_float(ctx, grid, "grid");
  const std::vector<double> g = misc::values_as<double>(ctx, grid, "grid");
  const DataType t = x.dtype();
  if (o.mode != Mode::nearest && !is_float(t) && !is_integer(t))
    ctx.fail("interpolating " + std::string(type_name(t)) + " values needs mode nearest");
  if (t == DataType::float16 || t == DataType::bfloat16) {
    // Interpolated in float and rounded back once.
    const std::vector<float> xf = misc::values_as<float>(ctx, x, "X");
    Tensor xt = Tensor::from_vector<float>(x.shape(), xf);
    Tensor yt(DataType::float32, out_shape);
    if (yt.numel() > 0) sample_as<float>(ctx, xt, g, o, yt);
    const std::vector<float> yv(yt.data<float>(), yt.data<float>() + yt.numel());
    misc::write_output<float>(ctx, 0, t, out_shape, yv);
    return;
  }
  Tensor& y = ctx.output(0, t, out_shape);
  if (y.numel() == 0) return;
  visit_type(t, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_arithmetic_v<T> || std::is_same_v<T, std::string>) {
      if constexpr (std::is_same_v<T, std::string>) {
        // Strings: nearest only (checked above); copy through a vector of indices.
        ctx.fail("GridSample on string tensors is not supported");
      } else {
        sample_as<T>(ctx, x, g, o, y);
      }
    } else {
      ctx.fail("GridSample on " + std::string(type_name(t)) + " tensors is not supported");
    }
  });
}

// ---- version adapters --------------------------------------------------------------------

void grid_sample_mode_names_20(AdapterContext& ctx) {
  const std::string mode = ctx.string_attribute("mode").value_or("bilinear");
  const std::string renamed = mode == "bilinear" ? "linear" : mode == "bicubic" ? "cubic" : mode;
  ctx.set_attribute("mode", renamed);
  ctx.describe("mode " + mode + " -> " + renamed);
}

void grid_sample_mode_names_16(AdapterContext& ctx) {
  const Type* t = ctx.input_type(0);
  if (!t || t->rank() != 4)
    ctx.refuse(ctx.to().id() + " samples 4-D inputs only, and input 0 is " +
               (t && t->rank() >= 0 ? std::to_string(t->rank()) + "-D" : "of unknown rank"));
  const std::string mode = ctx.string_attribute("mode").value_or("linear");
  const std::string renamed = mode == "linear" ? "bilinear" : mode == "cubic" ? "bicubic" : mode;
  ctx.set_attribute("mode", renamed);
  ctx.describe("mode " + mode + " -> " + renamed);
}

}  // namespace

void define_GridSample(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(16)
      .attr("align_corners", AttrType::i, int64_t{0})
      .attr("mode", AttrType::s, "bilinear")
      .attr("padding_mode", AttrType::s, "zeros")
      .input("X", "T1", D::differentiable)
      .input("grid", "T2", D::non_differentiable)
      .output("Y", "T1", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(20)
      .attr("align_corners", AttrType::i, int64_t{0})
      .attr("mode", AttrType::s, "linear")
      .attr("padding_mode", AttrType::s, "zeros")
      .input("X", "T1", D::differentiable)
      .input("grid", "T2", D::non_differentiable)
      .output("Y", "T1", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(float16)", "tensor(float)", "tensor(double)", "tensor(string)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr("align_corners", AttrType::i, int64_t{0})
      .attr("mode", AttrType::s, "linear")
      .attr("padding_mode", AttrType::s, "zeros")
      .input("X", "T1", D::differentiable)
      .input("grid", "T2", D::non_differentiable)
      .output("Y", "T1", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(complex64)",
                         "tensor(complex128)"})
      .constraint("T2", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_grid_sample).kernel(grid_sample_kernel);
  // Version 20 renamed the modes (bilinear -> linear, bicubic -> cubic) and took N-D inputs.
  op.at(20).upgrade(grid_sample_mode_names_20).downgrade(grid_sample_mode_names_16);
}

}  // namespace onnxtool::ops
