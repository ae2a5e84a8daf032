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

// Eight sums a vector, each step the scalar one: cvtdq2ps rounds to nearest as the conversion
// does, mul then add (never fused), max_ps(lo, v) is lo > v ? lo : v (a NaN v stays), min_ps
// likewise.
void dequantize_sums_avx2(void* p, int64_t n, const SumsToFloat& f) {
  auto* bytes = static_cast<unsigned char*>(p);
  const __m256 scale = _mm256_set1_ps(f.scale), bias = _mm256_set1_ps(f.bias);
  const __m256 lo = _mm256_set1_ps(f.lo), hi = _mm256_set1_ps(f.hi);
  const __m256 alpha = _mm256_set1_ps(f.alpha), zero = _mm256_setzero_ps();
  int64_t i = 0;
  for (; i + 8 <= n; i += 8) {
    auto* at = bytes + i * 4;
    __m256 v = _mm256_cvtepi32_ps(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(at)));
    v = _mm256_mul_ps(v, scale);
    if (f.has_bias) v = _mm256_add_ps(v, bias);
    if (f.residual) v = _mm256_add_ps(v, _mm256_loadu_ps(f.residual + i));
    if (f.act_kind == 1) {
      v = _mm256_max_ps(lo, v);
      v = _mm256_min_ps(hi, v);
    } else if (f.act_kind == 2) {
      v = _mm256_blendv_ps(v, _mm256_mul_ps(alpha, v), _mm256_cmp_ps(v, zero, _CMP_LT_OQ));
    }
    _mm256_storeu_ps(reinterpret_cast<float*>(at), v);
  }
  SumsToFloat rest = f;
  if (rest.residual) rest.residual += i;
  dequantize_sums_scalar(bytes + i * 4, n - i, rest);
}

}  // namespace onnxtool::kernels::detail
