// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/integer_common.h"

#include "core/types/float_formats.h"
#include "ops/onnx/misc_common.h"

namespace onnxtool::ops::integer {

// ---- zero points and scales --------------------------------------------------------------------

ParamIndex::ParamIndex(const KernelContext& ctx, const Shape& target, const Shape& param,
                       ParamAxis axis, const char* what) {
  int64_t count = 1;
  for (int64_t d : param) count *= d;
  if (count == 1) return;  // one value, whatever its rank: per tensor
  scalar_ = false;
  Shape p = param;
  // A 1-D parameter names the rows of a matrix ([M] means [M, 1]) or a conv weight's dim 0.
  if (p.size() == 1 && axis == ParamAxis::rows) p.push_back(1);
  if (p.size() == 1 && axis == ParamAxis::channel) p.insert(p.end(), target.size() - 1, 1);
  const std::string bad = std::string(what) + " has shape " + shape_to_string(param) +
                          ", which does not fit its operand " + shape_to_string(target);
  if (p.size() > target.size()) ctx.fail(bad);
  p.insert(p.begin(), target.size() - p.size(), 1);
  const std::size_t r = target.size();
  // The reduced axis (K of a matrix, the weight's input channels and kernel) must be 1.
  for (std::size_t i = 0; i < r; ++i) {
    const bool reduced = (axis == ParamAxis::rows && i + 1 == r) ||
                         (axis == ParamAxis::columns && i + 2 == r) ||
                         (axis == ParamAxis::channel && i > 0);
    if ((p[i] != 1 && p[i] != target[i]) || (reduced && p[i] != 1)) ctx.fail(bad);
  }
  target_.assign(target.begin(), target.end());
  strides_.assign(r, 0);
  for (std::size_t i = r, s = 1; i-- > 0;) {
    strides_[i] = p[i] == 1 ? 0 : static_cast<int64_t>(s);
    s *= static_cast<std::size_t>(p[i]);
  }
}

int64_t ParamIndex::operator()(int64_t i) const {
  if (scalar_) return 0;
  int64_t at = 0;
  for (std::size_t d = target_.size(); d-- > 0;) {
    at += (i % target_[d]) * strides_[d];
    i /= target_[d];
  }
  return at;
}

namespace {

bool is_int8(DataType t) {
  return t == DataType::int8 || t == DataType::uint8;
}

int32_t element(const Tensor& t, int64_t i) {
  return t.dtype() == DataType::int8 ? t.data<int8_t>()[i] : t.data<uint8_t>()[i];
}

}  // namespace

std::vector<int32_t> shifted(const KernelContext& ctx, const Tensor& x, const Tensor* zero,
                             const Shape& target, ParamAxis axis, const char* what) {
  if (!is_int8(x.dtype()))
    ctx.fail(std::string(what) + " has element type " + std::string(type_name(x.dtype())) +
             "; only int8 and uint8 are supported");
  if (zero && zero->dtype() != x.dtype())
    ctx.fail(std::string(what) + "'s zero point must have its element type " +
             std::string(type_name(x.dtype())));
  std::vector<int32_t> v(static_cast<std::size_t>(x.numel()));
  for (int64_t i = 0; i < x.numel(); ++i) v[static_cast<std::size_t>(i)] = element(x, i);
  if (!zero || zero->numel() == 0) return v;
  const ParamIndex index(ctx, target, zero->shape(), axis,
                         (std::string(what) + "'s zero point").c_str());
  for (int64_t i = 0; i < x.numel(); ++i)
    v[static_cast<std::size_t>(i)] -= element(*zero, index(i));
  return v;
}

std::vector<double> scale_values(const KernelContext& ctx, const Tensor& s, const char* what) {
  if (!misc::is_float_type(s.dtype()))
    ctx.fail(std::string(what) + " must be a float tensor, not " +
             std::string(type_name(s.dtype())));
  return misc::values_as<double>(ctx, s, what);
}

double scale_product(double a, double b, double c, DataType type) {
  auto round = [type](double v) -> double {
    switch (type) {
      case DataType::float16:
        return to_float(to_float16(v));
      case DataType::bfloat16:
        return to_float(to_bfloat16(v));
      case DataType::float64:
        return v;
      default:
        return static_cast<double>(static_cast<float>(v));
    }
  };
  return round(round(a * b) / c);
}

bool integer_range(DataType t, double& lo, double& hi) {
  if (t == DataType::int8) {
    lo = -128, hi = 127;
    return true;
  }
  if (t == DataType::uint8) {
    lo = 0, hi = 255;
    return true;
  }
  return false;
}

void store_q(const KernelContext& ctx, const std::vector<double>& q, Tensor& y) {
  misc::store_values<double>(ctx, y, q);
}

// ---- matrix products -------------------------------------------------------------------------

MatmulPlan plan_matmul(const KernelContext& ctx, const Shape& a, const Shape& b) {
  if (a.empty() || b.empty()) ctx.fail("matrix operands must have rank >= 1");
  MatmulPlan p;
  p.a = a;
  p.b = b;
  if (p.a.size() == 1) p.a.insert(p.a.begin(), 1);
  if (p.b.size() == 1) p.b.push_back(1);
  p.m = p.a[p.a.size() - 2];
  p.k = p.a.back();
  p.n = p.b.back();
  if (p.b[p.b.size() - 2] != p.k)
    ctx.fail("A " + shape_to_string(a) + " and B " + shape_to_string(b) +
             " do not multiply (A's last dim must equal B's second-to-last)");
  Shape ba(p.a.begin(), p.a.end() - 2), bb(p.b.begin(), p.b.end() - 2);
  const std::size_t rank = std::max(ba.size(), bb.size());
  ba.insert(ba.begin(), rank - ba.size(), 1);
  bb.insert(bb.begin(), rank - bb.size(), 1);
  Shape batch(rank);
  for (std::size_t i = 0; i < rank; ++i) {
    if (ba[i] != bb[i] && ba[i] != 1 && bb[i] != 1)
      ctx.fail("the batch dims of A " + shape_to_string(a) + " and B " + shape_to_string(b) +
               " do not broadcast");
    batch[i] = ba[i] == 1 ? bb[i] : ba[i];
  }
  // Each operand's batch strides (0 where it is broadcast), then every item's offsets.
  std::vector<int64_t> sa(rank), sb(rank);
  int64_t ea = p.m * p.k, eb = p.k * p.n, items = 1;
  for (std::size_t i = rank; i-- > 0;) {
    sa[i] = ba[i] == 1 ? 0 : ea;
    sb[i] = bb[i] == 1 ? 0 : eb;
    ea *= ba[i];
    eb *= bb[i];
    items *= batch[i];
  }
  for (int64_t it = 0; it < items; ++it) {
    int64_t oa = 0, ob = 0;
    for (std::size_t i = rank, rest = static_cast<std::size_t>(it); i-- > 0;) {
      const auto idx = static_cast<int64_t>(rest % static_cast<std::size_t>(batch[i]));
      rest /= static_cast<std::size_t>(batch[i]);
      oa += idx * sa[i];
      ob += idx * sb[i];
    }
    p.a_offset.push_back(oa);
    p.b_offset.push_back(ob);
  }
  p.full = batch;
  p.full.push_back(p.m);
  p.full.push_back(p.n);
  p.out = batch;
  if (a.size() > 1) p.out.push_back(p.m);
  if (b.size() > 1) p.out.push_back(p.n);
  return p;
}

std::vector<int32_t> matmul_int32(const KernelContext& ctx, const MatmulPlan& p,
                                  const std::vector<int32_t>& a, const std::vector<int32_t>& b) {
  const auto items = static_cast<int64_t>(p.a_offset.size());
  std::vector<int32_t> y(static_cast<std::size_t>(items * p.m * p.n), 0);
  if (p.k == 0) return y;
  ctx.parallel_for(items, nn::grain_for(p.m * p.n * p.k), [&](int64_t lo, int64_t hi) {
    for (int64_t i = lo; i < hi; ++i)
      nn::int_matmul<int32_t>(
          false, false, p.m, p.n, p.k, a.data() + p.a_offset[static_cast<std::size_t>(i)], p.k,
          b.data() + p.b_offset[static_cast<std::size_t>(i)], p.n, y.data() + i * p.m * p.n, p.n);
  });
  return y;
}

// ---- convolution -----------------------------------------------------------------------------

nn::ConvGeometry conv_geometry(const KernelContext& ctx, const Shape& x, const Shape& w) {
  if (x.size() < 3) ctx.fail("x must have rank >= 3 ([N, C, D1, ...]), not " + shape_to_string(x));
  if (w.size() != x.size())
    ctx.fail("w has shape " + shape_to_string(w) + " but x has shape " + shape_to_string(x) +
             " (expected equal ranks)");
  nn::ConvGeometry g;
  g.batch = x[0];
  g.in_channels = x[1];
  g.out_channels = w[0];
  g.group = ctx.attrs().get_int("group", 1);
  if (g.group <= 0) ctx.fail("group " + std::to_string(g.group) + " is not positive");
  if (g.in_channels != w[1] * g.group)
    ctx.fail("x has " + std::to_string(g.in_channels) + " channels but w " + shape_to_string(w) +
             " with group " + std::to_string(g.group) + " expects " +
             std::to_string(w[1] * g.group));
  if (g.out_channels % g.group != 0)
    ctx.fail("w's " + std::to_string(g.out_channels) + " output channels are not a multiple of " +
             "group " + std::to_string(g.group));
  const std::vector<int64_t> kernel(w.begin() + 2, w.end());
  if (auto ks = ctx.attrs().opt_ints("kernel_shape"); ks && !ks->empty() && *ks != kernel)
    ctx.fail("kernel_shape does not match w's spatial dims " + shape_to_string(kernel));
  g.window = nn::make_window(ctx, std::span(x).subspan(2), kernel);
  return g;
}

Shape conv_output_shape(const nn::ConvGeometry& g) {
  Shape y{g.batch, g.out_channels};
  y.insert(y.end(), g.window.out.begin(), g.window.out.end());
  return y;
}

std::vector<int32_t> conv_int32(const KernelContext& ctx, const nn::ConvGeometry& g,
                                const std::vector<int32_t>& x, const std::vector<int32_t>& w) {
  const nn::Window& win = g.window;
  const int64_t cg = g.in_channels / g.group, mg = g.out_channels / g.group;
  const int64_t kernel = win.kernel_size(), ohw = win.out_size(), ihw = win.in_size();
  const int64_t kdim = cg * kernel;
  std::vector<int32_t> y(static_cast<std::size_t>(g.batch * g.out_channels * ohw), 0);
  if (y.empty() || kdim == 0) return y;
  // Where each (kernel offset, output position) reads its input plane, once for all channels.
  std::vector<int64_t> where(static_cast<std::size_t>(kernel * ohw));
  for (int64_t kk = 0; kk < kernel; ++kk)
    for (int64_t p = 0; p < ohw; ++p)
      where[static_cast<std::size_t>(kk * ohw + p)] = nn::window_input_index(win, p, kk);
  // Per batch item and group: Y_g [mg, ohw] = W_g [mg, kdim] x col [kdim, ohw] (im2col).
  ctx.parallel_for(g.batch * g.group, 1, [&](int64_t lo, int64_t hi) {
    std::vector<int32_t> col(static_cast<std::size_t>(kdim * ohw));
    for (int64_t item = lo; item < hi; ++item) {
      const int64_t n = item / g.group, grp = item % g.group;
      const int32_t* xg = x.data() + (n * g.in_channels + grp * cg) * ihw;
      for (int64_t c = 0; c < cg; ++c)
        for (int64_t kk = 0; kk < kernel; ++kk)
          for (int64_t p = 0; p < ohw; ++p) {
            const int64_t i = where[static_cast<std::size_t>(kk * ohw + p)];
            col[static_cast<std::size_t>((c * kernel + kk) * ohw + p)] =
                i < 0 ? 0 : xg[c * ihw + i];
          }
      nn::int_matmul<int32_t>(false, false, mg, ohw, kdim, w.data() + grp * mg * kdim, kdim,
                              col.data(), ohw, y.data() + (n * g.out_channels + grp * mg) * ohw,
                              ohw);
    }
  });
  return y;
}

// ---- inference -------------------------------------------------------------------------------

std::optional<Dims> infer_matmul_shape(InferContext& ctx, std::size_t a, std::size_t b) {
  const auto sa = ctx.input_type(a).shape, sb = ctx.input_type(b).shape;
  if (!sa || !sb) return std::nullopt;
  return matmul_shape(*sa, *sb);
}

std::optional<Dims> infer_conv_shape(InferContext& ctx, std::size_t xi, std::size_t wi) {
  const auto x = ctx.input_type(xi).shape, w = ctx.input_type(wi).shape;
  if (x && x->size() < 3)
    infer_fail("x has rank " + std::to_string(x->size()) + ", expected at least 3");
  if (!x) return w ? std::optional<Dims>(Dims(w->size())) : std::nullopt;
  if (w && w->size() != x->size())
    infer_fail("w has rank " + std::to_string(w->size()) + " but x has rank " +
               std::to_string(x->size()) + " (expected equal)");
  const int64_t group = ctx.attrs().get_int("group", 1);
  if (group <= 0) infer_fail("group " + std::to_string(group) + " is not positive");
  const Dim m = w ? (*w)[0] : Dim();
  const Dim c = (*x)[1], w1 = w ? (*w)[1] : Dim();
  if (c.is_known() && w1.is_known() && c.value() != w1.value() * group)
    infer_fail("x has " + std::to_string(c.value()) + " channels but w expects " +
               std::to_string(w1.value()) + " per group x " + std::to_string(group) + " groups");
  Dims y{(*x)[0], m};
  std::optional<std::vector<int64_t>> kernel;
  if (w) {
    kernel.emplace();
    for (std::size_t i = 2; i < w->size() && kernel; ++i) {
      if (!(*w)[i].is_known())
        kernel.reset();
      else
        kernel->push_back((*w)[i].value());
    }
  }
  const auto attr_kernel = ctx.attrs().opt_ints("kernel_shape");
  if (kernel && attr_kernel && !attr_kernel->empty() && *kernel != *attr_kernel)
    infer_fail("kernel_shape does not match w's spatial dims");
  if (kernel || (attr_kernel && !attr_kernel->empty())) {
    const Dims in(x->begin() + 2, x->end());
    for (const Dim& d : window_output_dims(in, window_params(ctx.attrs(), x->size() - 2, kernel)))
      y.push_back(d);
  } else {
    y.resize(x->size());
  }
  return y;
}

}  // namespace onnxtool::ops::integer
