// SPDX-License-Identifier: Apache-2.0
// The im2col copies (im2col_body.inc) compiled for AVX2.
#include <immintrin.h>

#include "core/kernels/im2col_arch.h"

namespace onnxtool::kernels::detail {

namespace {

// Runs of a panel row, vector by vector with masked tails, then the zeros.
void fill_panel_row(float* dst, const float* src, const Im2colRun* runs, int count, int64_t width,
                    int64_t panel) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  for (int c = 0; c < count; ++c) {
    const Im2colRun& r = runs[c];
    int64_t i = 0;
    for (; i + 8 <= r.n; i += 8)
      _mm256_storeu_ps(dst + r.dst + i, _mm256_loadu_ps(src + r.src + i));
    if (i < r.n) {
      const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(r.n - i)), lane);
      _mm256_maskstore_ps(dst + r.dst + i, m, _mm256_maskload_ps(src + r.src + i, m));
    }
  }
  for (int64_t j = width; j < panel; ++j) dst[j] = 0.0f;
}

}  // namespace

#define IM2COL_FN(name) name##_avx2
#include "core/kernels/im2col_body.inc"
#undef IM2COL_FN

}  // namespace onnxtool::kernels::detail
