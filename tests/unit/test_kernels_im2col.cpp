// SPDX-License-Identifier: Apache-2.0
// im2col into the packed layout (core/kernels/im2col.h): every row of every channel, for any
// range of positions, holds the input under its tap (zero in the padding) where the layout
// says, with zeros past the last position, on every SIMD level.
#include <doctest/doctest.h>

#include <random>
#include <vector>

#include "core/kernels/gemm.h"
#include "core/kernels/im2col.h"
#include "core/kernels/im2col_arch.h"

using namespace onnxtool;

namespace {

using Im2colFn = void (*)(const kernels::PlaneWindow&, const float*, int64_t, int64_t, int64_t,
                          int64_t, const kernels::PackedBLayout&, float*, float*);

float input_under(const kernels::PlaneWindow& p, const std::vector<float>& x, int64_t c, int64_t kh,
                  int64_t kw, int64_t pos) {
  const int64_t oy = pos / p.out_w, ox = pos % p.out_w;
  const int64_t iy = oy * p.stride_h + kh * p.dilation_h - p.pad_top;
  const int64_t ix = ox * p.stride_w + kw * p.dilation_w - p.pad_left;
  if (iy < 0 || iy >= p.in_h || ix < 0 || ix >= p.in_w) return 0.0f;
  return x[static_cast<std::size_t>((c * p.in_h + iy) * p.in_w + ix)];
}

}  // namespace

TEST_CASE("im2col into the packed layout: the input under each tap, where the layout says") {
  std::mt19937 rng(23);
  std::uniform_real_distribution<float> u(-1, 1);
  struct Case {
    kernels::PlaneWindow p;
    int64_t channels, p0, p1;
  };
  const Case cases[] = {
      {{14, 14, 14, 14, 3, 3, 1, 1, 1, 1, 1, 1}, 3, 0, 196},
      {{14, 14, 14, 14, 3, 3, 1, 1, 1, 1, 1, 1}, 2, 37, 150},
      {{15, 16, 7, 8, 3, 3, 2, 2, 1, 1, 0, 1}, 2, 0, 56},
      {{12, 11, 4, 5, 5, 3, 2, 2, 2, 1, 2, 0}, 2, 3, 19},
      {{1, 30, 1, 10, 1, 3, 1, 3, 1, 2, 0, 1}, 3, 0, 10},
      {{9, 9, 9, 9, 1, 1, 1, 1, 1, 1, 0, 0}, 100, 0, 81},  // 100 x 1 rows: two row blocks
      // Phase planes of 4 x 101 x 101 floats: one channel per pass.
      {{200, 200, 100, 100, 3, 3, 2, 2, 1, 1, 1, 1}, 3, 0, 10000},
      // 169 taps, past the table of tap offsets; 338 rows: two row blocks.
      {{20, 20, 8, 8, 13, 13, 1, 1, 1, 1, 0, 0}, 2, 0, 64},
  };
  std::vector<Im2colFn> variants{kernels::detail::im2col_packed_generic};
#if defined(__x86_64__)
  if (kernels::cpu_simd_level() >= kernels::SimdLevel::avx2)
    variants.push_back(kernels::detail::im2col_packed_avx2);
  if (kernels::cpu_simd_level() >= kernels::SimdLevel::avx512)
    variants.push_back(kernels::detail::im2col_packed_avx512);
#endif
  for (const Case& c : cases) {
    const kernels::PlaneWindow& p = c.p;
    INFO("in ", p.in_h, "x", p.in_w, " kernel ", p.kernel_h, "x", p.kernel_w, " positions ", c.p0,
         "..", c.p1);
    std::vector<float> x(static_cast<std::size_t>(c.channels * p.in_h * p.in_w));
    for (auto& v : x) v = u(rng);
    const int64_t kernel = p.kernel_h * p.kernel_w, rows = c.channels * kernel;
    const int64_t len = c.p1 - c.p0;
    for (kernels::SimdLevel level : {kernels::SimdLevel::avx2, kernels::SimdLevel::avx512}) {
      const kernels::PackedBLayout layout = kernels::packed_b_layout(rows, len, level);
      for (Im2colFn fn : variants) {
        std::vector<float> out(static_cast<std::size_t>(layout.size()), 99.0f);
        std::vector<float> scratch(
            static_cast<std::size_t>(kernels::im2col_packed_scratch(p, c.p0, c.p1)));
        // In two calls, as the threads share out a group's channels.
        const int64_t split = c.channels / 2;
        fn(p, x.data(), 0, split, c.p0, c.p1, layout, out.data(), scratch.data());
        fn(p, x.data(), split, c.channels, c.p0, c.p1, layout, out.data(), scratch.data());
        int64_t wrong = 0;
        for (int64_t ch = 0; ch < c.channels; ++ch)
          for (int64_t k = 0; k < kernel; ++k)
            for (int64_t j = 0; j < layout.padded_cols(); ++j) {
              const int64_t r = ch * kernel + k;
              const float want =
                  j < len ? input_under(p, x, ch, k / p.kernel_w, k % p.kernel_w, c.p0 + j) : 0.0f;
              if (out[static_cast<std::size_t>(layout.offset(r, j))] != want) ++wrong;
            }
        CHECK(wrong == 0);
      }
    }
  }
}
