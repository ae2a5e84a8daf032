// SPDX-License-Identifier: Apache-2.0
// The depthwise plane kernel (core/kernels/depthwise.h): the zero-padded sum of the window's
// taps in row-major order, bit for bit, on every stride, dilation and padding, whatever the
// SIMD level.
#include <doctest/doctest.h>

#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/kernels/depthwise.h"
#include "core/kernels/depthwise_arch.h"
#include "core/kernels/gemm.h"

using namespace onnxtool;

namespace {

// The definition: bias, then w[kh][kw] * x (x zero in the padding) added tap by tap.
std::vector<float> definition(const kernels::PlaneWindow& p, const std::vector<float>& x,
                              const std::vector<float>& w, float bias) {
  std::vector<float> y;
  for (int64_t oy = 0; oy < p.out_h; ++oy)
    for (int64_t ox = 0; ox < p.out_w; ++ox) {
      float acc = bias;
      for (int64_t kh = 0; kh < p.kernel_h; ++kh)
        for (int64_t kw = 0; kw < p.kernel_w; ++kw) {
          const int64_t iy = oy * p.stride_h + kh * p.dilation_h - p.pad_top;
          const int64_t ix = ox * p.stride_w + kw * p.dilation_w - p.pad_left;
          const bool inside = iy >= 0 && iy < p.in_h && ix >= 0 && ix < p.in_w;
          const float v = inside ? x[static_cast<std::size_t>(iy * p.in_w + ix)] : 0.0f;
          const float product = w[static_cast<std::size_t>(kh * p.kernel_w + kw)] * v;
          acc = acc + product;
        }
      y.push_back(acc);
    }
  return y;
}

// Output extent of one axis (ONNX's floor formula with explicit pads).
int64_t out_extent(int64_t in, int64_t kernel, int64_t stride, int64_t dilation, int64_t pads) {
  return (in + pads - dilation * (kernel - 1) - 1) / stride + 1;
}

// A window as the cases give it: input, kernel, strides, dilations, pads (top, left, bottom,
// right).
struct Case {
  int64_t h, w, kh, kw, sh, sw, dh, dw, top, left, bottom, right;
};

kernels::PlaneWindow window_of(const Case& c) {
  return {c.h,
          c.w,
          out_extent(c.h, c.kh, c.sh, c.dh, c.top + c.bottom),
          out_extent(c.w, c.kw, c.sw, c.dw, c.left + c.right),
          c.kh,
          c.kw,
          c.sh,
          c.sw,
          c.dh,
          c.dw,
          c.top,
          c.left};
}

// count channels of x (planes in_size apart), their taps in w and bias, outputs out_size apart
// (y left for the caller).
kernels::ChannelBlock block_of(const std::vector<float>& x, int64_t in_size,
                               const std::vector<float>& w, const std::vector<float>& bias,
                               int64_t out_size, int64_t count) {
  kernels::ChannelBlock b;
  b.x = x.data();
  b.x_stride = in_size;
  b.w = w.data();
  b.bias = bias.data();
  b.y_stride = out_size;
  b.count = count;
  return b;
}

}  // namespace

TEST_CASE("depthwise planes: the definition's bits at every stride, dilation, padding and level") {
  std::mt19937 rng(17);
  std::uniform_real_distribution<float> u(-1, 1);
  const Case cases[] = {
      {7, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {112, 112, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1},
      {14, 14, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},
      {9, 13, 5, 3, 2, 3, 1, 2, 2, 0, 1, 2},
      {1, 40, 1, 5, 1, 1, 1, 2, 0, 3, 0, 1},
      {10, 9, 3, 3, 3, 1, 2, 1, 1, 2, 0, 0},
      {5, 5, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2},
      {12, 11, 8, 7, 1, 1, 1, 1, 3, 3, 4, 3},  // more taps than the kernel keeps on its stack
      {6, 150, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},  // rows of several passes (64 + 64 + 22 outputs)
      {4, 33, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},   // a row one float past two vectors
      {56, 56, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      // 3x3 at stride 1, several output rows a call: heights that leave a part call (rows of one
      // vector, 6 or 4 a call; wider, 4 or 2), rows of exactly, and over, whole vector groups.
      {14, 14, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {28, 28, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {13, 20, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {9, 112, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {3, 17, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {1, 16, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {11, 30, 3, 3, 1, 1, 1, 1, 0, 0, 0, 0},
      {5, 9, 3, 3, 1, 1, 1, 1, 2, 0, 1, 1},
      // Stride 2 along the width, where both column phases are filled from one pass over
      // each row (as many even as odd columns), and where they are not.
      {9, 70, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},   // 35 a phase: two whole steps and a part
      {5, 64, 3, 3, 1, 2, 1, 1, 1, 1, 1, 1},   // 32 a phase: whole steps only
      {7, 29, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},   // an odd width: 15 even columns, 14 odd
      {8, 36, 2, 2, 2, 2, 1, 1, 0, 0, 0, 0},   // no padding: even columns first
      {10, 40, 5, 5, 2, 2, 1, 1, 2, 2, 2, 2},  // pads of 2: each phase starts a column in
      {6, 38, 3, 3, 2, 2, 1, 1, 1, 1, 0, 0},   // the last input column unread
      {12, 50, 3, 3, 2, 2, 2, 2, 2, 2, 2, 2},  // dilation 2: one column phase only
      // 3x3 at stride 2 with a left pad of 1 or 0, straight from the input rows: rows ending
      // in whole vectors and in parts, inputs narrower than a vector, the top pad 0 to 2, a
      // bottom and right pad beyond the input.
      {112, 112, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},
      {28, 28, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},
      {13, 45, 3, 3, 2, 2, 1, 1, 0, 1, 2, 1},
      {6, 3, 3, 3, 2, 2, 1, 1, 2, 1, 1, 2},
      {5, 1, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},
      {20, 34, 3, 3, 2, 2, 1, 1, 0, 1, 0, 0},
      {56, 56, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1},  // TensorFlow's SAME: pads after only
      {9, 33, 3, 3, 2, 2, 1, 1, 0, 0, 1, 2},
      {7, 17, 3, 3, 2, 2, 1, 1, 1, 0, 1, 0},
      {3, 2, 3, 3, 2, 2, 1, 1, 0, 0, 2, 3},
  };
  using Fn = void (*)(const kernels::PlaneWindow&, const kernels::ChannelBlock&, float*,
                      const kernels::Epilogue&);
  std::vector<Fn> variants{kernels::detail::depthwise_planes_generic};
#if defined(__x86_64__)
  if (kernels::cpu_simd_level() >= kernels::SimdLevel::avx2)
    variants.push_back(kernels::detail::depthwise_planes_avx2);
  if (kernels::cpu_simd_level() >= kernels::SimdLevel::avx512)
    variants.push_back(kernels::detail::depthwise_planes_avx512);
#endif
  // Three planes a call: the border set up for the first serves the others, and each output
  // row's last vector (which may run into the next row) never runs past the last plane.
  constexpr int64_t kPlanes = 3, kGuard = 40;
  for (const Case& c : cases) {
    INFO("in ", c.h, "x", c.w, " kernel ", c.kh, "x", c.kw, " stride ", c.sh, ",", c.sw);
    const kernels::PlaneWindow p = window_of(c);
    const int64_t in_size = c.h * c.w, taps = c.kh * c.kw, out_size = p.out_h * p.out_w;
    std::vector<float> x(static_cast<std::size_t>(kPlanes * in_size)),
        w(static_cast<std::size_t>(kPlanes * taps)), bias(kPlanes);
    for (auto& v : x) v = u(rng);
    for (auto& v : w) v = u(rng);
    for (auto& v : bias) v = u(rng);
    // Each case bare, clipped and leaky: the activation on the way out has Epilogue::apply's bits.
    kernels::Epilogue clip, leaky;
    clip.kind = kernels::Epilogue::Kind::clamp;
    clip.lo = -0.25f;
    clip.hi = 0.5f;
    leaky.kind = kernels::Epilogue::Kind::leaky;
    leaky.alpha = 0.1f;
    for (const kernels::Epilogue& act : {kernels::Epilogue{}, clip, leaky}) {
      INFO("epilogue kind ", static_cast<int>(act.kind));
      std::vector<float> want;
      for (int64_t c0 = 0; c0 < kPlanes; ++c0) {
        const std::vector<float> xc(x.begin() + c0 * in_size, x.begin() + (c0 + 1) * in_size);
        const std::vector<float> wc(w.begin() + c0 * taps, w.begin() + (c0 + 1) * taps);
        auto plane = definition(p, xc, wc, bias[static_cast<std::size_t>(c0)]);
        act.apply(plane.data(), static_cast<int64_t>(plane.size()));
        want.insert(want.end(), plane.begin(), plane.end());
      }
      want.insert(want.end(), kGuard, -9.0f);  // past the planes: never written
      // NaN scratch: the sums past the outputs and the phase planes no tap reads must not leak.
      std::vector<float> scratch(static_cast<std::size_t>(kernels::depthwise_scratch(p)),
                                 std::numeric_limits<float>::quiet_NaN());
      kernels::ChannelBlock block = block_of(x, in_size, w, bias, out_size, kPlanes);
      for (auto fn : variants) {
        std::vector<float> y(want.size(), -9.0f);
        block.y = y.data();
        fn(p, block, scratch.data(), act);
        CHECK(std::memcmp(y.data(), want.data(), want.size() * sizeof(float)) == 0);
      }
      std::vector<float> y(static_cast<std::size_t>(out_size));
      kernels::depthwise_plane(p, x.data(), w.data(), bias[0], y.data(), scratch.data(), act);
      CHECK(std::memcmp(y.data(), want.data(), y.size() * sizeof(float)) == 0);
    }
  }
}

// Blocks of channels (small planes, lanes along the channels): each channel's plane has the
// definition's bits, at every level, for full and partial blocks, and nothing is written past
// the block's planes.
TEST_CASE("depthwise channel blocks: the definition's bits per channel, every level") {
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> u(-1, 1);
  const Case cases[] = {
      {7, 7, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {8, 8, 3, 3, 2, 2, 1, 1, 0, 0, 1, 1},
      {9, 13, 5, 3, 2, 3, 1, 2, 2, 0, 1, 2},
      {1, 40, 1, 5, 1, 1, 1, 2, 0, 3, 0, 1},
      {10, 9, 3, 3, 3, 1, 2, 1, 1, 2, 0, 0},
      {5, 5, 5, 5, 1, 1, 1, 1, 2, 2, 2, 2},
      {12, 11, 8, 7, 1, 1, 1, 1, 3, 3, 4, 3},
      // 3x3 windows, undilated, at stride 1 or 2 along the width (the AVX-512 rows of runs):
      // 14 outputs a row (runs of 8 and 6), 7 at stride 2 (4 and 3), strides that differ, a
      // plane narrower than a run, a tiny one, and an input wider than the windows reach;
      // 196, 49, 117, 15 and 4 outputs (the last group of 16 positions full, of 1, 5, 15, 4).
      {14, 14, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {14, 14, 3, 3, 2, 2, 1, 1, 1, 1, 1, 1},
      {13, 19, 3, 3, 1, 2, 1, 1, 0, 1, 2, 0},
      {9, 3, 3, 3, 2, 1, 1, 1, 1, 1, 1, 1},
      {2, 2, 3, 3, 1, 1, 1, 1, 1, 1, 1, 1},
      {10, 10, 3, 3, 2, 2, 1, 1, 0, 0, 0, 0},
  };
  using Fn = void (*)(const kernels::PlaneWindow&, const kernels::ChannelBlock&, float*,
                      const kernels::Epilogue&);
  std::vector<Fn> variants{kernels::detail::depthwise_channels_generic};
#if defined(__x86_64__)
  if (kernels::cpu_simd_level() >= kernels::SimdLevel::avx2)
    variants.push_back(kernels::detail::depthwise_channels_avx2);
  if (kernels::cpu_simd_level() >= kernels::SimdLevel::avx512)
    variants.push_back(kernels::detail::depthwise_channels_avx512);
#endif
  kernels::Epilogue clip;
  clip.kind = kernels::Epilogue::Kind::clamp;
  clip.lo = -0.25f;
  clip.hi = 0.5f;
  for (const Case& c : cases)
    for (int64_t count : {int64_t{16}, int64_t{5}, int64_t{1}}) {
      INFO("in ", c.h, "x", c.w, " kernel ", c.kh, "x", c.kw, " stride ", c.sh, ",", c.sw,
           " channels ", count);
      const kernels::PlaneWindow p = window_of(c);
      const int64_t in_plane = c.h * c.w, taps = c.kh * c.kw, outputs = p.out_h * p.out_w;
      std::vector<float> x(static_cast<std::size_t>(count * in_plane)),
          w(static_cast<std::size_t>(count * taps)), bias(static_cast<std::size_t>(count));
      for (auto& v : x) v = u(rng);
      for (auto& v : w) v = u(rng);
      for (auto& v : bias) v = u(rng);
      for (const kernels::Epilogue& act : {kernels::Epilogue{}, clip}) {
        std::vector<float> want;
        for (int64_t ch = 0; ch < count; ++ch) {
          const std::vector<float> xc(x.begin() + ch * in_plane, x.begin() + (ch + 1) * in_plane);
          const std::vector<float> wc(w.begin() + ch * taps, w.begin() + (ch + 1) * taps);
          auto plane = definition(p, xc, wc, bias[static_cast<std::size_t>(ch)]);
          act.apply(plane.data(), outputs);
          want.insert(want.end(), plane.begin(), plane.end());
        }
        kernels::ChannelBlock b = block_of(x, in_plane, w, bias, outputs, count);
        std::vector<float> scratch(static_cast<std::size_t>(kernels::depthwise_channels_scratch(p)),
                                   std::numeric_limits<float>::quiet_NaN());
        for (Fn fn : variants) {
          // One plane of sentinels after the block: it must stay as it was.
          std::vector<float> y(want.size() + static_cast<std::size_t>(outputs), -9.0f);
          b.y = y.data();
          fn(p, b, scratch.data(), act);
          CHECK(std::memcmp(y.data(), want.data(), want.size() * sizeof(float)) == 0);
          CHECK(y.back() == -9.0f);
        }
      }
    }
}
