// SPDX-License-Identifier: Apache-2.0
// The vector math of vmath.h for AVX2 + FMA (see vmath_arch.h for what may be included).
#include <immintrin.h>

#include "core/kernels/vmath_arch.h"

namespace onnxtool::kernels::detail {

namespace {

// 2^k for integer lanes k in [-75, 64]: the exponent field built directly.
__m256 pow2(__m256i k) {
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_add_epi32(k, _mm256_set1_epi32(127)), 23));
}

__m256 exp8(__m256 x) {
  const __m256 hi = _mm256_set1_ps(kExpHi), lo = _mm256_set1_ps(kExpLo);
  // Clamped for the arithmetic; the lanes outside are replaced at the end.
  const __m256 xc = _mm256_min_ps(_mm256_max_ps(x, lo), hi);
  const __m256 nf = _mm256_round_ps(_mm256_mul_ps(xc, _mm256_set1_ps(kLog2e)),
                                    _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(nf, _mm256_set1_ps(kLn2Hi), xc);
  r = _mm256_fnmadd_ps(nf, _mm256_set1_ps(kLn2Lo), r);
  __m256 p = _mm256_set1_ps(kExpPoly[0]);
  for (int i = 1; i < 8; ++i) p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(kExpPoly[i]));
  const __m256i n = _mm256_cvtps_epi32(nf);
  const __m256i n1 = _mm256_srai_epi32(n, 1);
  const __m256i n2 = _mm256_sub_epi32(n, n1);
  __m256 y = _mm256_mul_ps(_mm256_mul_ps(p, pow2(n1)), pow2(n2));
  y = _mm256_blendv_ps(y, _mm256_set1_ps(__builtin_inff()), _mm256_cmp_ps(x, hi, _CMP_GT_OQ));
  y = _mm256_blendv_ps(y, _mm256_setzero_ps(), _mm256_cmp_ps(x, lo, _CMP_LT_OQ));
  return _mm256_blendv_ps(y, x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

__m256 erf8(__m256 x) {
  const __m256 sign = _mm256_set1_ps(-0.0f);
  const __m256 a = _mm256_andnot_ps(sign, x);
  const __m256 t = _mm256_mul_ps(x, x);
  __m256 ps = _mm256_set1_ps(kErfSmall[0]);
  for (int i = 1; i < 7; ++i) ps = _mm256_fmadd_ps(ps, t, _mm256_set1_ps(kErfSmall[i]));
  const __m256 small = _mm256_mul_ps(x, ps);
  const __m256 u = _mm256_div_ps(_mm256_set1_ps(1.0f), a);
  __m256 pl = _mm256_set1_ps(kErfLarge[0]);
  for (int i = 1; i < 9; ++i) pl = _mm256_fmadd_ps(pl, u, _mm256_set1_ps(kErfLarge[i]));
  const __m256 e = exp8(_mm256_xor_ps(t, sign));
  const __m256 large_abs = _mm256_fnmadd_ps(e, pl, _mm256_set1_ps(1.0f));
  const __m256 x_sign = _mm256_and_ps(x, sign);
  __m256 y = _mm256_or_ps(large_abs, x_sign);
  y = _mm256_blendv_ps(y, small, _mm256_cmp_ps(a, _mm256_set1_ps(kErfSplit), _CMP_LT_OQ));
  y = _mm256_blendv_ps(y, _mm256_or_ps(_mm256_set1_ps(1.0f), x_sign),
                       _mm256_cmp_ps(a, _mm256_set1_ps(kErfOne), _CMP_GE_OQ));
  return _mm256_blendv_ps(y, x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

__m256 tanh8(__m256 x) {
  const __m256 sign = _mm256_set1_ps(-0.0f), one = _mm256_set1_ps(1.0f);
  const __m256 a = _mm256_andnot_ps(sign, x);
  const __m256 t = _mm256_mul_ps(x, x);
  __m256 p = _mm256_set1_ps(kTanhSmall[0]);
  for (int i = 1; i < 5; ++i) p = _mm256_fmadd_ps(p, t, _mm256_set1_ps(kTanhSmall[i]));
  const __m256 x_sign = _mm256_and_ps(x, sign);
  // x's sign on both branches (the sum would make tanh(-0) +0).
  const __m256 small_abs = _mm256_andnot_ps(sign, _mm256_fmadd_ps(_mm256_mul_ps(x, t), p, x));
  const __m256 small = _mm256_or_ps(small_abs, x_sign);
  const __m256 e = exp8(_mm256_mul_ps(a, _mm256_set1_ps(-2.0f)));
  const __m256 large_abs = _mm256_div_ps(_mm256_sub_ps(one, e), _mm256_add_ps(one, e));
  __m256 y = _mm256_or_ps(large_abs, x_sign);
  y = _mm256_blendv_ps(y, small, _mm256_cmp_ps(a, _mm256_set1_ps(kTanhSplit), _CMP_LT_OQ));
  return _mm256_blendv_ps(y, x, _mm256_cmp_ps(x, x, _CMP_UNORD_Q));
}

}  // namespace

int64_t tanh_avx2(const float* x, float* y, int64_t n) {
  const int64_t done = n / 8 * 8;
  for (int64_t i = 0; i < done; i += 8) _mm256_storeu_ps(y + i, tanh8(_mm256_loadu_ps(x + i)));
  return done;
}

int64_t erf_avx2(const float* x, float* y, int64_t n) {
  const int64_t done = n / 8 * 8;
  for (int64_t i = 0; i < done; i += 8) _mm256_storeu_ps(y + i, erf8(_mm256_loadu_ps(x + i)));
  return done;
}

int64_t sigmoid_avx2(const float* x, float* y, int64_t n) {
  const int64_t done = n / 8 * 8;
  const __m256 sign = _mm256_set1_ps(-0.0f), one = _mm256_set1_ps(1.0f);
  for (int64_t i = 0; i < done; i += 8) {
    const __m256 v = _mm256_loadu_ps(x + i);
    const __m256 e = exp8(_mm256_or_ps(v, sign));  // e^-|x|
    const __m256 d = _mm256_add_ps(one, e);
    const __m256 r = _mm256_blendv_ps(_mm256_div_ps(e, d), _mm256_div_ps(one, d),
                                      _mm256_cmp_ps(v, _mm256_setzero_ps(), _CMP_GE_OQ));
    _mm256_storeu_ps(y + i, r);
  }
  return done;
}

int64_t exp_avx2(const float* x, float* y, int64_t n) {
  const int64_t done = n / 8 * 8;
  for (int64_t i = 0; i < done; i += 8) _mm256_storeu_ps(y + i, exp8(_mm256_loadu_ps(x + i)));
  return done;
}

int64_t max_lanes_avx2(const float* x, int64_t n, float* lanes) {
  const int64_t done = n / 8 * 8;
  __m256 m = _mm256_loadu_ps(lanes);
  // vmaxps(v, m) is v > m ? v : m: a NaN v leaves m.
  for (int64_t i = 0; i < done; i += 8) m = _mm256_max_ps(_mm256_loadu_ps(x + i), m);
  _mm256_storeu_ps(lanes, m);
  return done;
}

int64_t exp_shifted_lanes_avx2(const float* x, float shift, float* y, int64_t n, float* lanes) {
  const int64_t done = n / 8 * 8;
  const __m256 s = _mm256_set1_ps(shift);
  __m256 sum = _mm256_loadu_ps(lanes);
  for (int64_t i = 0; i < done; i += 8) {
    const __m256 e = exp8(_mm256_sub_ps(_mm256_loadu_ps(x + i), s));
    _mm256_storeu_ps(y + i, e);
    sum = _mm256_add_ps(sum, e);
  }
  _mm256_storeu_ps(lanes, sum);
  return done;
}

int64_t scale_avx2(float* x, int64_t n, float s) {
  const int64_t done = n / 8 * 8;
  const __m256 v = _mm256_set1_ps(s);
  for (int64_t i = 0; i < done; i += 8)
    _mm256_storeu_ps(x + i, _mm256_mul_ps(_mm256_loadu_ps(x + i), v));
  return done;
}

int64_t affine_avx2(const float* x, float a, float b, float* y, int64_t n, int act, float lo,
                    float hi, float alpha) {
  const int64_t done = n / 8 * 8;
  const __m256 va = _mm256_set1_ps(a), vb = _mm256_set1_ps(b);
  const __m256 vlo = _mm256_set1_ps(lo), vhi = _mm256_set1_ps(hi), valpha = _mm256_set1_ps(alpha);
  const __m256 zero = _mm256_setzero_ps();
  for (int64_t i = 0; i < done; i += 8) {
    __m256 v = _mm256_add_ps(_mm256_mul_ps(va, _mm256_loadu_ps(x + i)), vb);
    if (act == 1) {
      // vmaxps/vminps give the second operand unless the first wins: x < lo ? lo : x keeps a
      // NaN x, and so does y > hi ? hi : y.
      v = _mm256_min_ps(vhi, _mm256_max_ps(vlo, v));
    } else if (act == 2) {
      v = _mm256_blendv_ps(v, _mm256_mul_ps(valpha, v), _mm256_cmp_ps(v, zero, _CMP_LT_OQ));
    }
    _mm256_storeu_ps(y + i, v);
  }
  return done;
}

}  // namespace onnxtool::kernels::detail
