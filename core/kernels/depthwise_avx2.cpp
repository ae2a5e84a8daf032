// SPDX-License-Identifier: Apache-2.0
// The depthwise loops (depthwise_body.inc) compiled for AVX2.
#include <immintrin.h>

#include "core/kernels/depthwise_arch.h"

namespace onnxtool::kernels::detail {

namespace {

// The even and odd floats of a row: even[m] = src[2 * m], odd[m] = src[2 * m + 1] for m in
// [0, n). 8 of each a step from two whole loads (nothing read past src[2 * n - 1]), split by
// shuffles within the 128-bit halves and one swap of their middle quarters; the last few one
// at a time. The compiler's loop took each phase on its own, reading the row twice, and was
// 60 % of a stride-2 layer of 96 channels on 112x112 planes.
void deinterleave_row_avx2(const float* src, int64_t n, float* even, float* odd) {
  int64_t m = 0;
  for (; m + 8 <= n; m += 8) {
    const __m256 lo = _mm256_loadu_ps(src + 2 * m), hi = _mm256_loadu_ps(src + 2 * m + 8);
    const __m256 e = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(2, 0, 2, 0));
    const __m256 o = _mm256_shuffle_ps(lo, hi, _MM_SHUFFLE(3, 1, 3, 1));
    _mm256_storeu_ps(even + m, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(e), 0xD8)));
    _mm256_storeu_ps(odd + m, _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(o), 0xD8)));
  }
  for (; m < n; ++m) {
    even[m] = src[2 * m];
    odd[m] = src[2 * m + 1];
  }
}

// Lanes [0, n) of a mask (n from 0 to 8): a window of a row of eight all-ones then eight zeros.
__m256i first_lanes_avx2(int64_t n) {
  alignas(64) static const int32_t kOnesThenZeros[16] = {-1, -1, -1, -1, -1, -1, -1, -1,
                                                         0,  0,  0,  0,  0,  0,  0,  0};
  return _mm256_loadu_si256(reinterpret_cast<const __m256i*>(kOnesThenZeros + 8 - n));
}

// The first n (1 to 7) floats of p, zeros after them; and the first n lanes of v to p. Nothing
// read or written past them.
template <class Lanes>
Lanes load_part_avx2(const float* p, int64_t n) {
  return reinterpret_cast<Lanes>(_mm256_maskload_ps(p, first_lanes_avx2(n)));
}
template <class Lanes>
void store_part_avx2(float* p, Lanes v, int64_t n) {
  _mm256_maskstore_ps(p, first_lanes_avx2(n), reinterpret_cast<__m256>(v));
}

}  // namespace

#define DEPTHWISE_LOAD_PART load_part_avx2<Lanes>
#define DEPTHWISE_STORE_PART store_part_avx2
#define DEPTHWISE_DEINTERLEAVE_ROW deinterleave_row_avx2
#define DEPTHWISE_FN(name) name##_avx2
#define DEPTHWISE_LANES 8
#include "core/kernels/depthwise_body.inc"
#undef DEPTHWISE_LANES
#undef DEPTHWISE_FN
#undef DEPTHWISE_DEINTERLEAVE_ROW
#undef DEPTHWISE_STORE_PART
#undef DEPTHWISE_LOAD_PART

}  // namespace onnxtool::kernels::detail
