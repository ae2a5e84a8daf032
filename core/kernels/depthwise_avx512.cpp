// SPDX-License-Identifier: Apache-2.0
// The depthwise loops (depthwise_body.inc) compiled for AVX512.
#include "core/kernels/depthwise_arch.h"
#include "core/kernels/lanes_avx512.h"

namespace onnxtool::kernels::detail {

namespace {

// dst[j] = src[j * stride] for j in [0, n), stride 1 or 2: 16 floats a step, the row's end
// through masks (nothing read or written past it).
void copy_row_avx512(float* dst, const float* src, int64_t n, int64_t stride) {
  for (int64_t j = 0; j < n; j += kLanes512) {
    const int64_t count = n - j < kLanes512 ? n - j : kLanes512;
    _mm512_mask_storeu_ps(dst + j, first_lanes(count),
                          load_strided(src + j * stride, stride, count));
  }
}

// The even and odd floats of a row: even[m] = src[2 * m], odd[m] = src[2 * m + 1] for m in
// [0, n). 32 floats a step, split by two permutations, whole vectors loaded and stored; the
// last step's lanes through masks.
void deinterleave_row_avx512(const float* src, int64_t n, float* even, float* odd) {
  const __m512i evens =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i odds = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  int64_t m = 0;
  for (; m + kLanes512 <= n; m += kLanes512) {
    const __m512 lo = _mm512_loadu_ps(src + 2 * m), hi = _mm512_loadu_ps(src + 2 * m + kLanes512);
    _mm512_storeu_ps(even + m, _mm512_permutex2var_ps(lo, evens, hi));
    _mm512_storeu_ps(odd + m, _mm512_permutex2var_ps(lo, odds, hi));
  }
  if (m == n) return;
  const int64_t rest = n - m;
  const __m512 lo = _mm512_maskz_loadu_ps(first_lanes(2 * rest), src + 2 * m);
  const __m512 hi =
      _mm512_maskz_loadu_ps(first_lanes(2 * rest - kLanes512), src + 2 * m + kLanes512);
  _mm512_mask_storeu_ps(even + m, first_lanes(rest), _mm512_permutex2var_ps(lo, evens, hi));
  _mm512_mask_storeu_ps(odd + m, first_lanes(rest), _mm512_permutex2var_ps(lo, odds, hi));
}

// The first n (1 to 15) floats of p, zeros after them; and the first n lanes of v to p. Nothing
// read or written past them.
template <class Lanes>
Lanes load_part_avx512(const float* p, int64_t n) {
  return reinterpret_cast<Lanes>(_mm512_maskz_loadu_ps(first_lanes(n), p));
}
template <class Lanes>
void store_part_avx512(float* p, Lanes v, int64_t n) {
  _mm512_mask_storeu_ps(p, first_lanes(n), reinterpret_cast<__m512>(v));
}

}  // namespace

#define DEPTHWISE_LOAD_PART load_part_avx512<Lanes>
#define DEPTHWISE_STORE_PART store_part_avx512
#define DEPTHWISE_DEINTERLEAVE_ROW deinterleave_row_avx512
#define DEPTHWISE_COPY_ROW copy_row_avx512
#define DEPTHWISE_FN(name) name##_avx512
#define DEPTHWISE_LANES 16
#include "core/kernels/depthwise_body.inc"
#undef DEPTHWISE_LANES
#undef DEPTHWISE_FN
#undef DEPTHWISE_COPY_ROW
#undef DEPTHWISE_DEINTERLEAVE_ROW
#undef DEPTHWISE_STORE_PART
#undef DEPTHWISE_LOAD_PART

}  // namespace onnxtool::kernels::detail
