// SPDX-License-Identifier: Apache-2.0
#include "core/kernels/winograd.h"

#include <algorithm>
#include <cstdlib>
#include <string>

#include "core/kernels/winograd_arch.h"

namespace onnxtool::kernels {

namespace detail {

#define WINOGRAD_FN(name) name##_generic
#include "core/kernels/winograd_body.inc"
#undef WINOGRAD_FN

}  // namespace detail

namespace {

using detail::kWinogradRun;

// The SIMD variants of a transform, where the build has them (x86).
#if defined(ONNXTOOL_X86_KERNELS)
#define ONNXTOOL_WINOGRAD_VARIANTS(what) \
  detail::winograd_##what##_avx2, detail::winograd_##what##_avx512
#else
#define ONNXTOOL_WINOGRAD_VARIANTS(what) nullptr, nullptr
#endif

// G of F(2x2, 3x3): U = G g G^T.
constexpr double kG2[4][3] = {{1, 0, 0}, {0.5, 0.5, 0.5}, {0.5, -0.5, 0.5}, {0, 0, 1}};

// G of F(4x4, 3x3): U = G g G^T.
constexpr double kG[6][3] = {{1.0 / 4, 0, 0},
                             {-1.0 / 6, -1.0 / 6, -1.0 / 6},
                             {-1.0 / 6, 1.0 / 6, -1.0 / 6},
                             {1.0 / 24, 1.0 / 12, 1.0 / 6},
                             {1.0 / 24, -1.0 / 12, 1.0 / 6},
                             {0, 0, 1}};

// A transform's variant for the selected SIMD level: the generic code where the CPU (or
// ONNXTOOL_SIMD) has neither AVX2 nor AVX-512, or the build is not for x86.
template <class Run>
using Transform = void (*)(const Run&);

template <class Run>
Transform<Run> variant(Transform<Run> generic, Transform<Run> avx2, Transform<Run> avx512) {
#if defined(ONNXTOOL_X86_KERNELS)
  if (simd_level() == SimdLevel::avx512) return avx512;
  if (simd_level() == SimdLevel::avx2) return avx2;
#else
  (void)avx2, (void)avx512;
#endif
  return generic;
}

void input_run(const detail::InputRun& r, int64_t tile) {
  if (tile == kWinogradTile2)
    return variant<detail::InputRun>(detail::winograd_input2_generic,
                                     ONNXTOOL_WINOGRAD_VARIANTS(input2))(r);
  variant<detail::InputRun>(detail::winograd_input_generic, ONNXTOOL_WINOGRAD_VARIANTS(input))(r);
}

void output_run(const detail::OutputRun& r, int64_t tile) {
  if (tile == kWinogradTile2)
    return variant<detail::OutputRun>(detail::winograd_output2_generic,
                                      ONNXTOOL_WINOGRAD_VARIANTS(output2))(r);
  variant<detail::OutputRun>(detail::winograd_output_generic,
                             ONNXTOOL_WINOGRAD_VARIANTS(output))(r);
}

// Tiles [t0, t1) in runs of at most kWinogradRun: fn(first tile, count).
template <class Fn>
void for_each_run(int64_t t0, int64_t t1, Fn fn) {
  for (int64_t t = t0; t < t1; t += kWinogradRun) fn(t, std::min(kWinogradRun, t1 - t));
}

// The residual and activation on what one run wrote, one stretch of an output row at a time.
void finish_run(const WinogradPlane& plane, int64_t first, int64_t n, const float* residual,
                const Epilogue& activation, float* y) {
  const int64_t tw = plane.tiles_w(), oh = plane.out_h, ow = plane.out_w, m = plane.tile;
  for (int64_t t = first; t < first + n;) {
    const int64_t row = t / tw, col = t % tw, count = std::min(tw - col, first + n - t);
    const int64_t ox0 = m * col, width = std::min(ow, m * (col + count)) - ox0;
    for (int64_t oy = m * row; oy < std::min(oh, m * row + m); ++oy) {
      const int64_t at = oy * ow + ox0;
      activation.apply(y + at, width, residual ? residual + at : nullptr);
    }
    t += count;
  }
}

}  // namespace

bool winograd_enabled() {
  static const bool enabled = [] {
    const char* v = std::getenv("ONNXTOOL_WINOGRAD");
    if (!v) return true;
    const std::string s = v;
    return s != "0" && s != "off";
  }();
  return enabled;
}

WinogradFilter::WinogradFilter(int64_t out_channels, int64_t in_channels, const float* w,
                               SimdLevel level, int64_t tile)
    : out_(out_channels), in_(in_channels), tile_(tile == kWinogradTile2 ? tile : kWinogradTile4) {
  const int64_t pair = out_ * in_, positions = this->positions();
  std::vector<float> u(static_cast<std::size_t>(positions * pair));
  double g[9], t[36];
  for (int64_t i = 0; i < pair; ++i) {
    for (int k = 0; k < 9; ++k) g[k] = w[i * 9 + k];
    winograd_filter_reference(g, t, tile_);
    for (int64_t xi = 0; xi < positions; ++xi)
      u[static_cast<std::size_t>(xi * pair + i)] = static_cast<float>(t[xi]);
  }
  if (level != SimdLevel::scalar && out_ >= 2 && in_ > 0) {
    packed_.reserve(static_cast<std::size_t>(positions));
    for (int64_t xi = 0; xi < positions; ++xi)
      packed_.emplace_back(false, out_, in_, u.data() + xi * pair, in_, level);
    if (packed_.front().usable()) return;
    packed_.clear();
  }
  plain_ = std::move(u);
}

int64_t WinogradFilter::col_quantum() const {
  const SimdLevel level = packed_.empty() ? SimdLevel::avx2 : packed_.front().level();
  return packed_b_layout(in_, 1, level).panel;
}

PackedBLayout WinogradFilter::input_layout(int64_t cols) const {
  if (!packed_.empty()) return packed_b_layout(in_, cols, packed_.front().level());
  // One panel as wide as the matrix and one block of rows: row-major, rows cols apart.
  PackedBLayout plain;
  plain.k = in_;
  plain.n = cols;
  plain.panel = std::max<int64_t>(cols, 1);
  plain.block_rows = std::max<int64_t>(in_, 1);
  return plain;
}

void WinogradFilter::multiply(int64_t r0, int64_t r1, const float* v, int64_t v_xi_stride,
                              int64_t cols, float* m, int64_t m_xi_stride, int64_t ldm) const {
  if (r1 <= r0 || cols <= 0) return;
  for (int64_t xi = 0; xi < positions(); ++xi) {
    if (!packed_.empty()) {
      PackedGemmArgs<float> g;
      g.a = &packed_[static_cast<std::size_t>(xi)];
      g.row0 = r0;
      g.m = r1 - r0;
      g.n = cols;
      g.b_packed = v + xi * v_xi_stride;
      g.b_packed_cols = cols;
      g.c = m + xi * m_xi_stride;
      g.ldc = ldm;
      gemm_packed(g);
      continue;
    }
    GemmArgs<float> g;
    g.m = r1 - r0;
    g.n = cols;
    g.k = in_;
    g.a = plain_.data() + xi * out_ * in_ + r0 * in_;
    g.lda = in_;
    g.b = v + xi * v_xi_stride;
    g.ldb = cols;
    g.c = m + xi * m_xi_stride;
    g.ldc = ldm;
    gemm(g);
  }
}

void winograd_input(const WinogradPlane& plane, const float* x, int64_t c0, int64_t c1, int64_t t0,
                    int64_t t1, const PackedBLayout& layout, float* v, int64_t xi_stride) {
  const int64_t plane_size = plane.in_h * plane.in_w, positions = winograd_positions(plane.tile);
  const int64_t cols = t1 - t0, padded = layout.padded_cols();
  for (int64_t c = c0; c < c1; ++c) {
    // A run's tiles are contiguous within a panel only: runs end at panel boundaries.
    for (int64_t j0 = 0; j0 < cols; j0 += layout.panel) {
      const int64_t j1 = std::min(cols, j0 + layout.panel);
      for_each_run(t0 + j0, t0 + j1, [&](int64_t first, int64_t n) {
        const detail::TileRun tiles{
            plane.in_h, plane.in_w, plane.tiles_w(), plane.pad_top, plane.pad_left, first, n};
        input_run({x + c * plane_size, tiles, v + layout.offset(c, first - t0), xi_stride},
                  plane.tile);
      });
    }
    // The last panel's columns past the tiles are read by the products (their results are
    // dropped): zeros, not whatever the buffer held.
    if (padded > cols)
      for (int64_t xi = 0; xi < positions; ++xi) {
        float* pad = v + xi * xi_stride + layout.offset(c, cols);
        std::fill(pad, pad + (padded - cols), 0.0f);
      }
  }
}

void winograd_output(const WinogradPlane& plane, const float* m, int64_t xi_stride, int64_t ldm,
                     int64_t r0, int64_t r1, int64_t t0, int64_t t1, const WinogradFinish& finish,
                     float* y) {
  const int64_t plane_size = plane.out_h * plane.out_w;
  for (int64_t r = r0; r < r1; ++r) {
    float* yr = y + r * plane_size;
    const float* bias = finish.bias ? finish.bias + r : nullptr;
    const float* residual = finish.residual ? finish.residual + r * plane_size : nullptr;
    for_each_run(t0, t1, [&](int64_t first, int64_t n) {
      // The activation goes with the transform, in tile order, unless a residual comes first:
      // that is laid out as y, so both follow the stores.
      output_run({m + (r - r0) * ldm + (first - t0), xi_stride, plane.out_h, plane.out_w,
                  plane.tiles_w(), first, n, bias, yr, residual ? Epilogue{} : finish.activation},
                 plane.tile);
      if (residual) finish_run(plane, first, n, residual, finish.activation, yr);
    });
  }
}

namespace {

// U = G g G^T for G of R rows.
template <int R>
void filter_transform(const double (&G)[R][3], const double* g, double* u) {
  double gg[R][3];  // G g
  for (int a = 0; a < R; ++a)
    for (int j = 0; j < 3; ++j) gg[a][j] = G[a][0] * g[j] + G[a][1] * g[3 + j] + G[a][2] * g[6 + j];
  for (int a = 0; a < R; ++a)
    for (int b = 0; b < R; ++b)
      u[R * a + b] = gg[a][0] * G[b][0] + gg[a][1] * G[b][1] + gg[a][2] * G[b][2];
}

}  // namespace

void winograd_filter_reference(const double* g, double* u, int64_t tile) {
  if (tile == kWinogradTile2) return filter_transform(kG2, g, u);
  filter_transform(kG, g, u);
}

}  // namespace onnxtool::kernels
