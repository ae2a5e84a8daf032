// SPDX-License-Identifier: Apache-2.0
// The 8x8 blocks of transpose_f32 for AVX2 (compiled with -mavx2).
#include <immintrin.h>

#include "core/kernels/transpose_arch.h"

namespace onnxtool::kernels::detail {

namespace {

// r[i][j] becomes r[j][i]: pairs of rows interleaved, then pairs of pairs, then the halves.
void transpose8x8(__m256 (&r)[8]) {
  const __m256 t0 = _mm256_unpacklo_ps(r[0], r[1]), t1 = _mm256_unpackhi_ps(r[0], r[1]);
  const __m256 t2 = _mm256_unpacklo_ps(r[2], r[3]), t3 = _mm256_unpackhi_ps(r[2], r[3]);
  const __m256 t4 = _mm256_unpacklo_ps(r[4], r[5]), t5 = _mm256_unpackhi_ps(r[4], r[5]);
  const __m256 t6 = _mm256_unpacklo_ps(r[6], r[7]), t7 = _mm256_unpackhi_ps(r[6], r[7]);
  const __m256 u0 = _mm256_shuffle_ps(t0, t2, 0x44), u1 = _mm256_shuffle_ps(t0, t2, 0xEE);
  const __m256 u2 = _mm256_shuffle_ps(t1, t3, 0x44), u3 = _mm256_shuffle_ps(t1, t3, 0xEE);
  const __m256 u4 = _mm256_shuffle_ps(t4, t6, 0x44), u5 = _mm256_shuffle_ps(t4, t6, 0xEE);
  const __m256 u6 = _mm256_shuffle_ps(t5, t7, 0x44), u7 = _mm256_shuffle_ps(t5, t7, 0xEE);
  r[0] = _mm256_permute2f128_ps(u0, u4, 0x20);
  r[1] = _mm256_permute2f128_ps(u1, u5, 0x20);
  r[2] = _mm256_permute2f128_ps(u2, u6, 0x20);
  r[3] = _mm256_permute2f128_ps(u3, u7, 0x20);
  r[4] = _mm256_permute2f128_ps(u0, u4, 0x31);
  r[5] = _mm256_permute2f128_ps(u1, u5, 0x31);
  r[6] = _mm256_permute2f128_ps(u2, u6, 0x31);
  r[7] = _mm256_permute2f128_ps(u3, u7, 0x31);
}

}  // namespace

void transpose_blocks_avx2(const float* src, int64_t src_ld, int64_t rows, int64_t cols, float* dst,
                           int64_t dst_ld) {
  for (int64_t c0 = 0; c0 + 8 <= cols; c0 += 8) {
    for (int64_t r0 = 0; r0 + 8 <= rows; r0 += 8) {
      __m256 r[8];
      for (int i = 0; i < 8; ++i) r[i] = _mm256_loadu_ps(src + (r0 + i) * src_ld + c0);
      transpose8x8(r);
      for (int i = 0; i < 8; ++i) _mm256_storeu_ps(dst + (c0 + i) * dst_ld + r0, r[i]);
    }
  }
}

}  // namespace onnxtool::kernels::detail
