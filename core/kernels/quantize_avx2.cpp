// SPDX-License-Identifier: Apache-2.0
// Quantization, 8 floats a vector (-mavx2). min_ps(v, acc) is v < acc ? v : acc, the scalar
// fold's own test, so a NaN is skipped the same way; rounding is the vector round to nearest
// even, nearbyint's in the default mode.
#include <immintrin.h>

#include "core/kernels/quantize_arch.h"

namespace onnxtool::kernels::detail {

namespace {

float lowest_lane(__m256 v, bool low) {
  float lanes[8];
  _mm256_storeu_ps(lanes, v);
  float r = lanes[0];
  for (int i = 1; i < 8; ++i)
    r = low ? (lanes[i] < r ? lanes[i] : r) : (lanes[i] > r ? lanes[i] : r);
  return r;
}

}  // namespace

void float_range_avx2(const float* x, int64_t n, float& lo, float& hi) {
  __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi);
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    vlo = _mm256_min_ps(v, vlo);
    vhi = _mm256_max_ps(v, vhi);
  }
  lo = lowest_lane(vlo, true);
  hi = lowest_lane(vhi, false);
  float_range_scalar(x + i, n - i, lo, hi);
}

void quantize_u8_avx2(const float* x, int64_t n, float scale, float zero, uint8_t* y) {
  const __m256 s = _mm256_set1_ps(scale), z = _mm256_set1_ps(zero);
  const __m256 top = _mm256_set1_ps(255.0f), bottom = _mm256_setzero_ps();
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m256 q = _mm256_round_ps(_mm256_div_ps(_mm256_loadu_ps(x + i), s),
                               _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
    q = _mm256_add_ps(q, z);
    q = _mm256_min_ps(_mm256_max_ps(q, bottom), top);  // max_ps(NaN, 0) is 0
    const __m256i w = _mm256_cvtps_epi32(q);
    const __m128i halves =
        _mm_packus_epi32(_mm256_castsi256_si128(w), _mm256_extracti128_si256(w, 1));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(y + i), _mm_packus_epi16(halves, halves));
  }
  quantize_u8_scalar(x + i, n - i, scale, zero, y + i);
}

}  // namespace onnxtool::kernels::detail
