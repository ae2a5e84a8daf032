// SPDX-License-Identifier: Apache-2.0
// Winograd's F(4x4, 3x3) and F(2x2, 3x3) (core/kernels/winograd.h): close to a float64
// convolution on every plane shape and padding, and the same bits whatever the SIMD level, the
// blocks of tiles and the chunks of output channels.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

#include "core/kernels/gemm.h"
#include "core/kernels/winograd.h"
#include "core/kernels/winograd_arch.h"

using namespace onnxtool;

namespace {

struct Case {
  int64_t c, m;
  kernels::WinogradPlane plane;
};

// A plane of in_h x in_w with the given pads (end pads implied by the output size).
kernels::WinogradPlane plane_of(int64_t h, int64_t w, int64_t top, int64_t left, int64_t bottom,
                                int64_t right) {
  return {h, w, h + top + bottom - 2, w + left + right - 2, top, left};
}

// The same case in tiles of `tile` outputs a side.
Case with_tile(Case k, int64_t tile) {
  k.plane.tile = tile;
  return k;
}

// The convolution in float64 (correlation, as ONNX's Conv), and next to it the sum of the
// magnitudes of its terms, which bounds any float32 rounding of it.
void reference(const Case& k, const std::vector<float>& x, const std::vector<float>& w,
               const std::vector<float>& bias, std::vector<double>& y, std::vector<double>& mag) {
  const auto& p = k.plane;
  y.assign(static_cast<std::size_t>(k.m * p.out_h * p.out_w), 0.0);
  mag.assign(y.size(), 0.0);
  for (int64_t m = 0; m < k.m; ++m)
    for (int64_t oy = 0; oy < p.out_h; ++oy)
      for (int64_t ox = 0; ox < p.out_w; ++ox) {
        double acc = bias[static_cast<std::size_t>(m)], sum = std::fabs(acc);
        for (int64_t c = 0; c < k.c; ++c)
          for (int64_t a = 0; a < 3; ++a)
            for (int64_t b = 0; b < 3; ++b) {
              const int64_t iy = oy + a - p.pad_top, ix = ox + b - p.pad_left;
              if (iy < 0 || iy >= p.in_h || ix < 0 || ix >= p.in_w) continue;
              const double t =
                  double(w[static_cast<std::size_t>(((m * k.c + c) * 3 + a) * 3 + b)]) *
                  x[static_cast<std::size_t>((c * p.in_h + iy) * p.in_w + ix)];
              acc += t;
              sum += std::fabs(t);
            }
        const auto at = static_cast<std::size_t>((m * p.out_h + oy) * p.out_w + ox);
        y[at] = acc;
        mag[at] = sum;
      }
}

// The whole pipeline with blocks of `block` tiles and chunks of `rows` output channels.
std::vector<float> winograd(const Case& k, const kernels::WinogradFilter& f,
                            const std::vector<float>& x, const std::vector<float>& bias,
                            int64_t block, int64_t rows) {
  const int64_t kXi = f.positions();
  const auto& p = k.plane;
  std::vector<float> y(static_cast<std::size_t>(k.m * p.out_h * p.out_w), -7.0f);
  const int64_t v_stride = f.input_layout(block).size();
  // NaN where the transform does not write: the products must not read it.
  std::vector<float> v(static_cast<std::size_t>(kXi * v_stride), std::nanf(""));
  std::vector<float> m(static_cast<std::size_t>(kXi * rows * block));
  const kernels::WinogradFinish finish{bias.data(), nullptr, {}};
  for (int64_t t0 = 0; t0 < p.tiles(); t0 += block) {
    const int64_t t1 = std::min(p.tiles(), t0 + block);
    kernels::winograd_input(p, x.data(), 0, k.c, t0, t1, f.input_layout(t1 - t0), v.data(),
                            v_stride);
    for (int64_t r0 = 0; r0 < k.m; r0 += rows) {
      const int64_t r1 = std::min(k.m, r0 + rows);
      f.multiply(r0, r1, v.data(), v_stride, t1 - t0, m.data(), rows * block, block);
      kernels::winograd_output(p, m.data(), rows * block, block, r0, r1, t0, t1, finish, y.data());
    }
  }
  return y;
}

std::vector<float> random_values(int64_t n, std::mt19937& rng) {
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> v(static_cast<std::size_t>(n));
  for (auto& e : v) e = u(rng);
  return v;
}

bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

}  // namespace

TEST_CASE(
    "Winograd F(4x4, 3x3) and F(2x2, 3x3) are the convolution, up to rounding, on every "
    "plane and padding") {
  std::mt19937 rng(11);
  const Case planes[] = {
      {3, 2, plane_of(4, 4, 1, 1, 1, 1)},
      {8, 8, plane_of(6, 6, 0, 0, 0, 0)},
      {5, 7, plane_of(13, 9, 0, 2, 1, 0)},
      {16, 24, plane_of(17, 19, 1, 1, 1, 1)},
      {32, 16, plane_of(56, 9, 2, 0, 0, 2)},
      {9, 40, plane_of(3, 40, 1, 1, 1, 1)},
      {64, 64, plane_of(28, 28, 1, 1, 1, 1)},
      {7, 3, plane_of(1, 1, 2, 2, 2, 2)},
      // More input channels than the products' blocks of rows (256): the packed V in two.
      {272, 24, plane_of(12, 11, 1, 1, 1, 1)},
  };
  // F(4x4, 3x3) scales terms by up to 8 x 5 in its transforms and sums 36 products per output;
  // the worst seen here is 2.4e-6 of the magnitude of the terms, the bound 2^-17 (64 ulps of
  // it). The direct sum's worst is about 7 times smaller. F(2x2, 3x3) only adds and halves: its
  // worst seen is 2.2e-7, the bound 2^-20.
  for (const int64_t tile : {kernels::kWinogradTile4, kernels::kWinogradTile2})
    for (const Case& plane : planes) {
      const Case k = with_tile(plane, tile);
      const auto& p = k.plane;
      INFO("tile=", tile, " c=", k.c, " m=", k.m, " in=", p.in_h, "x", p.in_w, " out=", p.out_h,
           "x", p.out_w);
      const auto x = random_values(k.c * p.in_h * p.in_w, rng);
      const auto w = random_values(k.m * k.c * 9, rng);
      const auto bias = random_values(k.m, rng);
      std::vector<double> want, mag;
      reference(k, x, w, bias, want, mag);
      const kernels::WinogradFilter f(k.m, k.c, w.data(), kernels::simd_level(), tile);
      // Chunks of rows start at the packed panels' rows (6 with AVX2, 8 with AVX-512).
      const auto got = winograd(k, f, x, bias, 32, 16 / f.row_align() * f.row_align());
      double worst = 0;
      for (std::size_t i = 0; i < want.size(); ++i)
        worst = std::max(worst, std::fabs(got[i] - want[i]) / (mag[i] + 1e-30));
      CHECK(worst < std::ldexp(1.0, tile == kernels::kWinogradTile4 ? -17 : -20));
    }
}

TEST_CASE("Winograd gives the same bits at every SIMD level, block of tiles and chunk of rows") {
  std::mt19937 rng(5);
  for (const int64_t tile : {kernels::kWinogradTile4, kernels::kWinogradTile2}) {
    INFO("tile=", tile);
    const Case k = with_tile({24, 40, plane_of(30, 23, 1, 1, 1, 1)}, tile);
    const auto x = random_values(k.c * k.plane.in_h * k.plane.in_w, rng);
    const auto w = random_values(k.m * k.c * 9, rng);
    const auto bias = random_values(k.m, rng);
    const kernels::WinogradFilter simd(k.m, k.c, w.data(), kernels::simd_level(), tile);
    const kernels::WinogradFilter scalar(k.m, k.c, w.data(), kernels::SimdLevel::scalar, tile);
    const int64_t align = simd.row_align();
    const auto base = winograd(k, simd, x, bias, 64, 40);
    CHECK(same_bits(base, winograd(k, scalar, x, bias, 64, 40)));
    CHECK(same_bits(base, winograd(k, simd, x, bias, 16, align)));
    CHECK(same_bits(base, winograd(k, simd, x, bias, 48, 3 * align)));
    CHECK(same_bits(base, winograd(k, scalar, x, bias, 7, 5)));
  }
}

TEST_CASE("Winograd gives the same bits when V is packed in two blocks of input channels") {
  std::mt19937 rng(8);
  const Case k{300, 16, plane_of(13, 10, 1, 1, 1, 1)};
  const auto x = random_values(k.c * k.plane.in_h * k.plane.in_w, rng);
  const auto w = random_values(k.m * k.c * 9, rng);
  const auto bias = random_values(k.m, rng);
  const kernels::WinogradFilter simd(k.m, k.c, w.data(), kernels::simd_level());
  const kernels::WinogradFilter scalar(k.m, k.c, w.data(), kernels::SimdLevel::scalar);
  const auto base = winograd(k, scalar, x, bias, 7, 5);
  CHECK(same_bits(base, winograd(k, simd, x, bias, 64, 16 / simd.row_align() * simd.row_align())));
  CHECK(same_bits(base, winograd(k, simd, x, bias, 17, simd.row_align())));
}

TEST_CASE("the Winograd transforms' SIMD variants give the generic code's bits") {
  using namespace kernels::detail;
  std::mt19937 rng(3);
  // 13 tiles a row: runs cross rows, and the later rows reach past the plane's 11 rows (the
  // output plane's 41 columns end inside the last tile of a row).
  const int64_t h = 11, w = 50, tiles_w = 13, stride = kWinogradRun, out_h = 10, out_w = 41;
  const auto plane = random_values(h * w, rng);
  const auto m = random_values(36 * stride, rng);
  const float bias = 0.25f;
  using InputFn = void (*)(const InputRun&);
  using OutputFn = void (*)(const OutputRun&);
  // Per tile size: its positions, the generic transforms and the SIMD ones this CPU runs.
  struct Transforms {
    int64_t positions;
    InputFn input;
    OutputFn output;
    std::vector<std::pair<InputFn, OutputFn>> variants;
  };
  std::vector<Transforms> kinds{{36, winograd_input_generic, winograd_output_generic, {}},
                                {16, winograd_input2_generic, winograd_output2_generic, {}}};
#if defined(__x86_64__)
  const auto cpu = kernels::cpu_simd_level();
  if (cpu >= kernels::SimdLevel::avx2) {
    kinds[0].variants.emplace_back(winograd_input_avx2, winograd_output_avx2);
    kinds[1].variants.emplace_back(winograd_input2_avx2, winograd_output2_avx2);
  }
  if (cpu >= kernels::SimdLevel::avx512) {
    kinds[0].variants.emplace_back(winograd_input_avx512, winograd_output_avx512);
    kinds[1].variants.emplace_back(winograd_input2_avx512, winograd_output2_avx512);
  }
#endif
  if (kinds[0].variants.empty())
    MESSAGE("no SIMD variant runs on this CPU: only the generic code checked");
  for (const Transforms& kind : kinds)
    for (const int64_t pad : {0, 1, 2})
      for (const int64_t first : {0, 5, 30})
        for (const int64_t count : {int64_t{1}, int64_t{9}, kWinogradRun - first}) {
          INFO("positions=", kind.positions, " pad=", pad, " first=", first, " n=", count);
          const TileRun tiles{h, w, tiles_w, pad, 2 - pad, first, count};
          std::vector<float> want_v(static_cast<std::size_t>(kind.positions * stride));
          std::vector<float> want_y(static_cast<std::size_t>(out_h * out_w), -1.0f);
          kind.input({plane.data(), tiles, want_v.data(), stride});
          const OutputRun out{m.data(), stride, out_h,   out_w,        tiles_w,
                              first,    count,  nullptr, want_y.data()};
          kind.output(out);
          auto with_bias = out;
          with_bias.bias = &bias;
          std::vector<float> want_b(want_y.size(), -1.0f);
          with_bias.y = want_b.data();
          kind.output(with_bias);
          // A clip (a Conv's fused Clip), applied before the outputs are stored.
          auto finished = with_bias;
          finished.activation = {kernels::Epilogue::Kind::clamp, 0.0f, 0.5f, 0.0f};
          std::vector<float> want_f(want_y.size(), -1.0f);
          finished.y = want_f.data();
          kind.output(finished);
          for (std::size_t i = 0; i < want_f.size(); ++i) {
            if (want_b[i] == -1.0f) continue;  // not written: outside the run's tiles
            CHECK(want_f[i] == std::min(std::max(want_b[i], 0.0f), 0.5f));
          }
          for (const auto& [input, output] : kind.variants) {
            std::vector<float> v(want_v.size()), y(want_y.size(), -1.0f), yb(y);
            input({plane.data(), tiles, v.data(), stride});
            for (int64_t xi = 0; xi < kind.positions; ++xi)
              CHECK(std::memcmp(v.data() + xi * stride, want_v.data() + xi * stride,
                                static_cast<std::size_t>(count) * sizeof(float)) == 0);
            auto run = out;
            run.y = y.data();
            output(run);
            CHECK(same_bits(y, want_y));
            run.bias = &bias;
            run.y = yb.data();
            output(run);
            CHECK(same_bits(yb, want_b));
            auto fin = finished;
            std::vector<float> yf(want_f.size(), -1.0f);
            fin.y = yf.data();
            output(fin);
            CHECK(same_bits(yf, want_f));
          }
        }
}
