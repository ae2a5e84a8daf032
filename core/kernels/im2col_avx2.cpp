// SPDX-License-Identifier: Apache-2.0
// The im2col copies (im2col_body.inc) compiled for AVX2.
#include <immintrin.h>

#include "core/kernels/im2col_arch.h"

namespace onnxtool::kernels::detail {

namespace {

// The 8 lanes [lo, hi) of a vector, as a mask for blendv.
__m256 lanes_between(int64_t lo, int64_t hi) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i below_hi = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(hi)), lane);
  const __m256i from_lo = _mm256_cmpgt_epi32(lane, _mm256_set1_epi32(static_cast<int>(lo) - 1));
  return _mm256_castsi256_ps(_mm256_and_si256(below_hi, from_lo));
}

// A 16-column panel row (this level's panels) is put together in two registers, each run's
// lanes blended in from a whole load (which reads up to 15 floats either side of the run: the
// scratch's guard, im2col.h), and stored whole. Masked stores and loads of the short runs (12
// and 4 positions of a 28-wide plane) cost a quarter of a 3x3 stride-2 layer on AMD Zen 3.
void fill_panel_row(float* dst, const float* src, const Im2colRun* runs, int count, int64_t width,
                    int64_t panel) {
  if (panel != 16) return fill_panel_row_plain(dst, src, runs, count, width, panel);
  for (int64_t v = 0; v < 2; ++v) {
    const int64_t first = 8 * v;
    __m256 lanes = _mm256_setzero_ps();
    for (int i = 0; i < count; ++i) {
      const Im2colRun& r = runs[i];
      const int64_t lo = r.dst > first ? r.dst - first : 0;
      const int64_t hi = r.dst + r.n < first + 8 ? r.dst + r.n - first : 8;
      if (hi <= lo) continue;
      // Lane l of this vector is the run's element first + l - r.dst.
      const float* at = src + r.src + first - r.dst;
      lanes = lo == 0 && hi == 8
                  ? _mm256_loadu_ps(at)
                  : _mm256_blendv_ps(lanes, _mm256_loadu_ps(at), lanes_between(lo, hi));
    }
    _mm256_storeu_ps(dst + first, lanes);
  }
}

}  // namespace

#define IM2COL_FN(name) name##_avx2
#include "core/kernels/im2col_body.inc"
#undef IM2COL_FN

}  // namespace onnxtool::kernels::detail
