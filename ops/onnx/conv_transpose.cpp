// SPDX-License-Identifier: Apache-2.0
// ConvTranspose: the ai.onnx operator.
//
// The gradient of a convolution with respect to its input: every input value scatters
// w * x over the output window it would have been computed from. The kernel computes, per batch
// item and group, col [M/G*kernel, input positions] = W_g^T x X_g with one GEMM, then adds each
// row of col into the output at its kernel offset (col2im), then the bias.
#include <algorithm>

#include "core/infer/helpers.h"
#include "ops/onnx/nn_common.h"
#include "ops/onnx/nn_reference.h"
#include "ops/op.h"

namespace onnxtool::ops {

namespace {

using nn::ConvGeometry;
using nn::Window;

// ---- inference -------------------------------------------------------------------------------

std::vector<int64_t> list_or(const AttrView& a, const char* name, std::size_t n, int64_t v) {
  auto l = a.opt_ints(name);
  if (!l || l->empty()) return std::vector<int64_t>(n, v);
  if (l->size() != n)
    infer_fail(std::string("attribute ") + name + " has " + std::to_string(l->size()) +
               " values, expected " + std::to_string(n));
  return *l;
}

Dims transpose_spatial_dims(InferContext& ctx, const Dims& in, const std::vector<int64_t>& kernel) {
  const std::size_t r = in.size();
  const AttrView& a = ctx.attrs();
  if (auto os = a.opt_ints("output_shape"); os && !os->empty()) {
    if (os->size() != r && os->size() != r + 2)
      ctx.fail("output_shape has " + std::to_string(os->size()) + " values, expected " +
               std::to_string(r));
    Dims out;
    for (std::size_t i = os->size() - r; i < os->size(); ++i) out.push_back(Dim::value((*os)[i]));
    return out;
  }
  const auto strides = list_or(a, "strides", r, 1), dil = list_or(a, "dilations", r, 1);
  const auto pads = list_or(a, "pads", 2 * r, 0), opad = list_or(a, "output_padding", r, 0);
  const std::string auto_pad = a.opt_string("auto_pad").value_or("NOTSET");
  Dims out;
  for (std::size_t i = 0; i < r; ++i)
    out.push_back(conv_transpose_output_dim(in[i], kernel[i], strides[i], dil[i], pads[i],
                                            pads[i + r], opad[i], auto_pad));
  return out;
}

void infer_conv_transpose(InferContext& ctx) {
  const int32_t elem = unify_input_elem_types(ctx, {0, 1, 2});
  const auto x = nn::shape_with_min_rank(ctx, 0, 3);
  const auto w = ctx.input_type(1).shape;
  if (!x) {
    set_output_tensor(ctx, 0, elem,
                      w ? std::optional<Dims>(Dims(w->size())) : std::optional<Dims>());
    return;
  }
  if (w && w->size() != x->size())
    ctx.fail("W has rank " + std::to_string(w->size()) + " but X has rank " +
             std::to_string(x->size()) + " (expected equal)");
  const int64_t group = ctx.attrs().get_int("group", 1);
  if (group <= 0) ctx.fail("group " + std::to_string(group) + " is not positive");
  Dim m;
  if (w) {
    unify_dim((*x)[1], (*w)[0], "X's channels and W's first dim");
    m = (*w)[1] * Dim::value(group);
  }
  if (ctx.has_input(2) && ctx.input_type(2).has_shape()) {
    const Type& b = ctx.input_type(2);
    if (b.rank() != 1) ctx.fail("B must be 1-D");
    m = unify_dim((*b.shape)[0], m, "B's length and the output channels");
  }
  Dims y{(*x)[0], m};
  std::optional<std::vector<int64_t>> kernel = ctx.attrs().opt_ints("kernel_shape");
  if ((!kernel || kernel->empty()) && w) {
    kernel.emplace();
    for (std::size_t i = 2; i < w->size(); ++i) {
      if (!(*w)[i].is_known()) {
        kernel.reset();
        break;
      }
      kernel->push_back((*w)[i].value());
    }
  }
  const std::size_t r = x->size() - 2;
  if (kernel && kernel->size() != r) ctx.fail("kernel_shape does not match the input's rank");
  if (kernel) {
    for (const Dim& d : transpose_spatial_dims(ctx, Dims(x->begin() + 2, x->end()), *kernel))
      y.push_back(d);
  } else {
    y.resize(x->size());
  }
  set_output_tensor(ctx, 0, elem, y);
}

// ---- geometry --------------------------------------------------------------------------------

std::vector<int64_t> kernel_list(const NodeInfo& ctx, const char* name, std::size_t n,
                                 int64_t fallback) {
  auto v = ctx.attrs().opt_ints(name);
  if (!v || v->empty()) return std::vector<int64_t>(n, fallback);
  if (v->size() != n)
    ctx.fail(std::string("attribute ") + name + " has " + std::to_string(v->size()) +
             " values, expected " + std::to_string(n));
  return *v;
}

// The output's spatial dims and the pads, per the spec's equations. In the geometry the
// convolution's roles are swapped: window.in is Y's spatial dims, window.out X's.
Window transpose_window(const NodeInfo& ctx, std::span<const int64_t> in,
                        const std::vector<int64_t>& kernel) {
  const std::size_t r = in.size();
  Window w;
  w.out.assign(in.begin(), in.end());
  w.kernel = kernel;
  w.stride = kernel_list(ctx, "strides", r, 1);
  w.dilation = kernel_list(ctx, "dilations", r, 1);
  const auto pads = kernel_list(ctx, "pads", 2 * r, 0);
  const auto opad = kernel_list(ctx, "output_padding", r, 0);
  auto os = ctx.attrs().opt_ints("output_shape");
  if (os && !os->empty() && os->size() != r && os->size() != r + 2)
    ctx.fail("output_shape has " + std::to_string(os->size()) + " values, expected " +
             std::to_string(r));
  std::string auto_pad = ctx.attrs().opt_string("auto_pad").value_or("NOTSET");
  const bool same = auto_pad == "SAME_UPPER" || auto_pad == "SAME_LOWER";
  w.in.resize(r);
  w.pad_begin.resize(r);
  w.pad_end.resize(r);
  for (std::size_t i = 0; i < r; ++i) {
    if (w.kernel[i] <= 0 || w.stride[i] <= 0 || w.dilation[i] <= 0)
      ctx.fail("kernel_shape, strides and dilations must be positive");
    const int64_t full =
        w.stride[i] * (in[i] - 1) + opad[i] + (w.kernel[i] - 1) * w.dilation[i] + 1;
    const bool explicit_shape = os && !os->empty();
    if (explicit_shape || same) {
      const int64_t target = same ? in[i] * w.stride[i] : (*os)[os->size() - r + i];
      const int64_t total = full - target;
      // Floor division, as the spec's reference: an output larger than the natural size
      // (negative total) grows at the end.
      const int64_t half = total >= 0 ? total / 2 : -((-total + 1) / 2);
      w.pad_begin[i] = auto_pad == "SAME_UPPER" ? half : total - half;
      w.pad_end[i] = total - w.pad_begin[i];
      w.in[i] = target;
    } else {
      w.pad_begin[i] = auto_pad == "VALID" ? 0 : pads[i];
      w.pad_end[i] = auto_pad == "VALID" ? 0 : pads[i + r];
      w.in[i] = full - w.pad_begin[i] - w.pad_end[i];
    }
    if (w.in[i] < 0)
      ctx.fail("the output would have a negative size along spatial axis " + std::to_string(i));
  }
  return w;
}

// ---- col2im ----------------------------------------------------------------------------------

// Adds one run along the last axis: dst[(o + j) * stride + off] += src[j] where that index lies
// in [0, len).
template <class F>
void add_run(const F* src, int64_t len, int64_t o, int64_t run, int64_t stride, int64_t off,
             F* dst) {
  const int64_t first = std::max<int64_t>(0, (-off - o * stride + stride - 1) / stride);
  int64_t last = len - 1 - off - o * stride;
  last = last < 0 ? 0 : last / stride + 1;
  const int64_t lo = std::min(first, run), hi = std::clamp<int64_t>(last, lo, run);
  F* d = dst + o * stride + off;
  for (int64_t j = lo; j < hi; ++j) d[j * stride] += src[j];
}

// Adds the rows of col for output channels [m0, m1) of one group (row (m*K + k), one column per
// input position) into y (the group's first output channel).
template <class F>
void col2im(const Window& w, const F* col, int64_t m0, int64_t m1, F* y) {
  const std::size_t r = w.rank(), last = r - 1;
  const int64_t kernel = w.kernel_size(), positions = w.out_size(), plane = w.in_size();
  std::vector<int64_t> off(r), o(r);
  for (int64_t m = m0; m < m1; ++m)
    for (int64_t kk = 0; kk < kernel; ++kk) {
      for (std::size_t a = r, rest = static_cast<std::size_t>(kk); a-- > 0;) {
        off[a] =
            static_cast<int64_t>(rest % static_cast<std::size_t>(w.kernel[a])) * w.dilation[a] -
            w.pad_begin[a];
        rest /= static_cast<std::size_t>(w.kernel[a]);
      }
      std::fill(o.begin(), o.end(), 0);
      const F* src = col + (m * kernel + kk) * positions;
      F* dst = y + m * plane;
      for (int64_t p = 0; p < positions;) {
        const int64_t run = w.out[last];
        int64_t base = 0;
        bool inside = true;
        for (std::size_t a = 0; a < last; ++a) {
          const int64_t i = o[a] * w.stride[a] + off[a];
          inside = inside && i >= 0 && i < w.in[a];
          base = base * w.in[a] + i;
        }
        if (inside)
          add_run(src + p, w.in[last], 0, run, w.stride[last], off[last], dst + base * w.in[last]);
        p += run;
        for (std::size_t a = last; a-- > 0;) {
          if (++o[a] < w.out[a]) break;
          o[a] = 0;
        }
      }
    }
}

template <class F>
void conv_transpose_forward(const KernelContext& ctx, const ConvGeometry& g, const F* x, const F* w,
                            const F* b, F* y) {
  const Window& win = g.window;
  const int64_t cg = g.in_channels / g.group, mg = g.out_channels / g.group;
  const int64_t kernel = win.kernel_size(), xhw = win.out_size(), yhw = win.in_size();
  const int64_t items = g.batch * g.group;
  auto one = [&](int64_t item, F* col, bool parallel) {
    const int64_t n = item / g.group, grp = item % g.group;
    const F* xg = x + (n * g.in_channels + grp * cg) * xhw;
    const F* wg = w + grp * cg * mg * kernel;
    F* yg = y + (n * g.out_channels + grp * mg) * yhw;
    if (parallel) {
      nn::gemm<F>(ctx, true, false, mg * kernel, xhw, cg, F(1), wg, mg * kernel, xg, xhw, F(0), col,
                  xhw);
      ctx.parallel_for(mg, 1, [&](int64_t m0, int64_t m1) { col2im(win, col, m0, m1, yg); });
    } else {
      nn::gemm<F>(true, false, mg * kernel, xhw, cg, F(1), wg, mg * kernel, xg, xhw, F(0), col,
                  xhw);
      col2im(win, col, 0, mg, yg);
    }
    if (b)
      for (int64_t m = 0; m < mg; ++m)
        for (int64_t i = 0; i < yhw; ++i) yg[m * yhw + i] += b[grp * mg + m];
  };
  const auto col_size = static_cast<std::size_t>(mg * kernel * xhw);
  if (items >= 2 * ctx.threads()) {
    ctx.parallel_for(items, 1, [&](int64_t lo, int64_t hi) {
      std::vector<F> col(col_size);
      for (int64_t i = lo; i < hi; ++i) one(i, col.data(), false);
    });
    return;
  }
  std::vector<F> col(col_size);
  for (int64_t i = 0; i < items; ++i) one(i, col.data(), true);
}

// ---- kernel ----------------------------------------------------------------------------------

// What ConvTranspose decodes and checks once per node (see prepare_conv_transpose).
struct ConvTransposeState {
  int64_t group = 1;
  std::optional<std::vector<int64_t>> kernel_shape;
  // float16/bfloat16 W and B given as constants, converted to float32 at planning.
  std::optional<Tensor> w32, b32;
  nn::ShapePlan<ConvGeometry> geometry;
};

ConvGeometry transpose_geometry(const NodeInfo& ctx, const ConvTransposeState& s, const Shape& x,
                                const Shape& w) {
  nn::require_conv_operands(ctx, x, w);
  ConvGeometry g;
  g.batch = x[0];
  g.in_channels = x[1];
  g.group = s.group;
  if (g.group <= 0) ctx.fail("group " + std::to_string(g.group) + " is not positive");
  if (w[0] != g.in_channels || g.in_channels % g.group != 0)
    ctx.fail("X has " + std::to_string(g.in_channels) + " channels but W " + shape_to_string(w) +
             " expects " + std::to_string(w[0]) + " (a multiple of group " +
             std::to_string(g.group) + ")");
  g.out_channels = w[1] * g.group;
  const std::vector<int64_t> kernel(w.begin() + 2, w.end());
  if (s.kernel_shape && !s.kernel_shape->empty() && *s.kernel_shape != kernel)
    ctx.fail("kernel_shape does not match W's spatial dims " + shape_to_string(kernel));
  g.window = transpose_window(ctx, std::span(x).subspan(2), kernel);
  return g;
}

ConvTransposeState prepare_conv_transpose(PrepareContext& ctx) {
  ConvTransposeState s;
  s.group = ctx.attrs().get_int("group", 1);
  s.kernel_shape = ctx.attrs().opt_ints("kernel_shape");
  s.w32 = nn::prepared_float32(ctx, 1);
  s.b32 = nn::prepared_float32(ctx, 2);
  s.geometry.prepare(
      ctx, [&](const Shape& x, const Shape& w) { return transpose_geometry(ctx, s, x, w); });
  return s;
}

void conv_transpose_kernel(KernelContext& ctx, const ConvTransposeState& s) {
  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(1);
  const ConvGeometry g = s.geometry.get(
      x.shape(), w.shape(),
      [&](const Shape& xs, const Shape& ws) { return transpose_geometry(ctx, s, xs, ws); });
  const Tensor* b = ctx.has_input(2) ? &ctx.input(2) : nullptr;
  if (b && (b->rank() != 1 || b->numel() != g.out_channels))
    ctx.fail("B has shape " + shape_to_string(b->shape()) + ", expected [" +
             std::to_string(g.out_channels) + "]");
  if (x.dtype() != w.dtype() || (b && b->dtype() != x.dtype()))
    ctx.fail("X, W and B must have the same element type");
  Shape shape{g.batch, g.out_channels};
  shape.insert(shape.end(), g.window.in.begin(), g.window.in.end());
  Tensor& y = ctx.output(0, x.dtype(), shape);
  if (y.numel() == 0) return;
  if (x.dtype() == DataType::float64) {
    conv_transpose_forward<double>(ctx, g, x.data<double>(), w.data<double>(),
                                   b ? b->data<double>() : nullptr, y.mutable_data<double>());
    return;
  }
  const Tensor x32 = nn::to_float32(ctx, x);
  const Tensor w32 = nn::float32_of(s.w32, w);
  const Tensor b32 = b ? nn::float32_of(s.b32, *b) : Tensor();
  const float* bias = b ? b32.data<float>() : nullptr;
  if (y.dtype() == DataType::float32) {
    conv_transpose_forward<float>(ctx, g, x32.data<float>(), w32.data<float>(), bias,
                                  y.mutable_data<float>());
    return;
  }
  Tensor y32(DataType::float32, y.shape());
  conv_transpose_forward<float>(ctx, g, x32.data<float>(), w32.data<float>(), bias,
                                y32.mutable_data<float>());
  nn::store_float32(ctx, y32.data<float>(), y);
}

}  // namespace

// ---- reference -------------------------------------------------------------------------------

namespace nn {

template <class F>
void conv_transpose_reference(const ConvGeometry& g, const F* x, const F* w, const F* b, F* y) {
  const Window& win = g.window;
  const int64_t cg = g.in_channels / g.group, mg = g.out_channels / g.group;
  const int64_t kernel = win.kernel_size(), xhw = win.out_size(), yhw = win.in_size();
  std::vector<double> acc(static_cast<std::size_t>(g.batch * g.out_channels * yhw));
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t c = 0; c < g.in_channels; ++c)
      for (int64_t p = 0; p < xhw; ++p)
        for (int64_t m = 0; m < mg; ++m)
          for (int64_t kk = 0; kk < kernel; ++kk) {
            const int64_t i = window_input_index(win, p, kk);
            if (i < 0) continue;
            const int64_t oc = (c / cg) * mg + m;
            acc[static_cast<std::size_t>((n * g.out_channels + oc) * yhw + i)] +=
                static_cast<double>(x[(n * g.in_channels + c) * xhw + p]) *
                static_cast<double>(w[(c * mg + m) * kernel + kk]);
          }
  for (int64_t n = 0; n < g.batch; ++n)
    for (int64_t m = 0; m < g.out_channels; ++m)
      for (int64_t i = 0; i < yhw; ++i) {
        const int64_t at = (n * g.out_channels + m) * yhw + i;
        y[at] = static_cast<F>(acc[static_cast<std::size_t>(at)] +
                               (b ? static_cast<double>(b[m]) : 0.0));
      }
}

template void conv_transpose_reference<float>(const ConvGeometry&, const float*, const float*,
                                              const float*, float*);
template void conv_transpose_reference<double>(const ConvGeometry&, const double*, const double*,
                                               const double*, double*);

}  // namespace nn

void define_ConvTranspose(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr_optional("output_padding", AttrType::ints)
      .attr_optional("output_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T")
      .input("W", "T")
      .input_optional("B", "T")
      .output("Y", "T")
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(11)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr_optional("output_padding", AttrType::ints)
      .attr_optional("output_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .input("W", "T", D::differentiable)
      .input_optional("B", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(float16)", "tensor(float)", "tensor(double)"});
  op.since(22)
      .attr("auto_pad", AttrType::s, "NOTSET")
      .attr_optional("dilations", AttrType::ints)
      .attr("group", AttrType::i, int64_t{1})
      .attr_optional("kernel_shape", AttrType::ints)
      .attr_optional("output_padding", AttrType::ints)
      .attr_optional("output_shape", AttrType::ints)
      .attr_optional("pads", AttrType::ints)
      .attr_optional("strides", AttrType::ints)
      .input("X", "T", D::differentiable)
      .input("W", "T", D::differentiable)
      .input_optional("B", "T", D::differentiable)
      .output("Y", "T", D::differentiable)
      .constraint("T", {"tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)"});
  // END SIGNATURES
  // clang-format on
  op.all().trait(Trait::float_generic);
  op.all()
      .infer(infer_conv_transpose)
      .kernel(prepared_kernel(prepare_conv_transpose, conv_transpose_kernel))
      .macs([](const WorkShapes& s, const AttrView&) { return nn::filter_macs(s, 0, 1, true); });
}

}  // namespace onnxtool::ops
