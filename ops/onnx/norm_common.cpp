// SPDX-License-Identifier: Apache-2.0
#include "ops/onnx/norm_common.h"

#include <algorithm>
#include <cmath>

#include "ops/onnx/nn_common.h"

namespace onnxtool::ops::nn {

AxisEpsilon prepare_axis_epsilon(PrepareContext& ctx) {
  return {ctx.attrs().get_int("axis", -1), ctx.attrs().get_float("epsilon", 1e-5f)};
}

namespace {

// Partial sums a row's statistics keep: independent chains, so that the adds overlap instead
// of each waiting for the last (a 768-wide row took 2 us in one chain), combined in a fixed
// order, so that the result does not depend on the machine or the thread count.
constexpr int64_t kChains = 8;

// The sum over i < cols of term(x[i]) in double: element i in chain i % kChains, the chains
// added pairwise at the end.
template <class TX, class Term>
double chained_sum(const TX* x, int64_t cols, const Term& term) {
  double part[kChains] = {};
  int64_t i = 0;
  for (; i + kChains <= cols; i += kChains)
    for (int64_t c = 0; c < kChains; ++c) part[c] += term(static_cast<double>(load<TX>(x[i + c])));
  for (int64_t c = 0; i < cols; ++i, ++c) part[c] += term(static_cast<double>(load<TX>(x[i])));
  for (int64_t width = kChains / 2; width > 0; width /= 2)
    for (int64_t c = 0; c < width; ++c) part[c] += part[c + width];
  return part[0];
}

// Mean and 1/sqrt(variance + epsilon) of one row (two passes, in double: a long row of float16
// values loses nothing), or 1/sqrt(mean of squares + epsilon) without centring.
template <class TX>
void row_statistics(const TX* x, int64_t cols, const RowNorm& spec, double& mean, double& inv) {
  const double sum = spec.center ? chained_sum(x, cols, [](double v) { return v; }) : 0.0;
  mean = spec.center && cols > 0 ? sum / static_cast<double>(cols) : 0.0;
  const double m = mean;
  const double sq = chained_sum(x, cols, [m](double v) { return (v - m) * (v - m); });
  const double var = cols > 0 ? sq / static_cast<double>(cols) : 0.0;
  inv = 1.0 / std::sqrt(var + spec.epsilon);
}

template <class TX, class TY>
void normalize_row(const TX* x, TY* y, int64_t row, const RowNorm& spec,
                   const std::vector<double>& scale, const std::vector<double>& bias, double mean,
                   double inv) {
  using A =
      std::conditional_t<std::is_same_v<TX, double> || std::is_same_v<TY, double>, double, float>;
  const int64_t first = (row % spec.row_period) * spec.per_period;
  if (spec.segment == 1) {
    const double* s = scale.data() + first;
    const double* b = bias.empty() ? nullptr : bias.data() + first;
    for (int64_t i = 0; i < spec.cols; ++i) {
      const A v = (static_cast<A>(load<TX>(x[i])) - static_cast<A>(mean)) * static_cast<A>(inv);
      y[i] = store<TY>(
          static_cast<acc_t<TY>>(v * static_cast<A>(s[i]) + (b ? static_cast<A>(b[i]) : A(0))));
    }
    return;
  }
  // Constant scale and bias over each segment: y = a * x + c.
  for (int64_t c0 = 0; c0 < spec.cols; c0 += spec.segment) {
    const auto k = static_cast<std::size_t>(first + c0 / spec.segment);
    const auto a = static_cast<A>(inv * scale[k]);
    const auto c = static_cast<A>((bias.empty() ? 0.0 : bias[k]) - mean * inv * scale[k]);
    const int64_t end = std::min(spec.cols, c0 + spec.segment);
    for (int64_t i = c0; i < end; ++i)
      y[i] = store<TY>(static_cast<acc_t<TY>>(a * static_cast<A>(load<TX>(x[i])) + c));
  }
}

}  // namespace

void normalize_rows(const KernelContext& ctx, const Tensor& x, Tensor& y, const RowNorm& spec,
                    const std::vector<double>& scale, const std::vector<double>& bias,
                    std::vector<double>* mean, std::vector<double>* inv_std) {
  if (mean) mean->assign(static_cast<std::size_t>(spec.rows), 0.0);
  if (inv_std) inv_std->assign(static_cast<std::size_t>(spec.rows), 0.0);
  visit_float(ctx, x.dtype(), [&](auto xtag) {
    using TX = decltype(xtag);
    visit_float(ctx, y.dtype(), [&](auto ytag) {
      using TY = decltype(ytag);
      const TX* src = x.data<TX>();
      TY* dst = y.mutable_data<TY>();
      ctx.parallel_for(spec.rows, grain_for(spec.cols * 4), [&](int64_t lo, int64_t hi) {
        for (int64_t r = lo; r < hi; ++r) {
          double m = 0, inv = 0;
          row_statistics(src + r * spec.cols, spec.cols, spec, m, inv);
          normalize_row(src + r * spec.cols, dst + r * spec.cols, r, spec, scale, bias, m, inv);
          if (mean) (*mean)[static_cast<std::size_t>(r)] = m;
          if (inv_std) (*inv_std)[static_cast<std::size_t>(r)] = inv;
        }
      });
    });
  });
}

std::vector<double> broadcast_values(const KernelContext& ctx, const Tensor& t, const Shape& shape,
                                     const char* what) {
  const Shape& ts = t.shape();
  bool fits = ts.size() <= shape.size();
  for (std::size_t i = 0; fits && i < ts.size(); ++i) {
    const int64_t target = shape[shape.size() - ts.size() + i];
    fits = ts[i] == 1 || ts[i] == target;
  }
  if (!fits)
    ctx.fail(std::string(what) + " has shape " + shape_to_string(ts) + ", which does not " +
             "broadcast to " + shape_to_string(shape));
  const int64_t n = product(shape, 0, shape.size());
  std::vector<double> out(static_cast<std::size_t>(n));
  if (t.numel() == n) {
    for (int64_t i = 0; i < n; ++i) out[static_cast<std::size_t>(i)] = element_as_double(t, i);
    return out;
  }
  const std::size_t skip = shape.size() - ts.size();
  for (int64_t i = 0; i < n; ++i) {
    int64_t src = 0;
    for (std::size_t a = 0; a < ts.size(); ++a) {
      const int64_t inner = product(shape, skip + a + 1, shape.size());
      const int64_t idx = i / inner % shape[skip + a];
      src = src * ts[a] + (ts[a] == 1 ? 0 : idx);
    }
    out[static_cast<std::size_t>(i)] = element_as_double(t, src);
  }
  return out;
}

}  // namespace onnxtool::ops::nn
