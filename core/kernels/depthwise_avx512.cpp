// SPDX-License-Identifier: Apache-2.0
// The depthwise loops (depthwise_body.inc) compiled for AVX512.
#include <immintrin.h>

#include "core/kernels/depthwise_arch.h"

namespace onnxtool::kernels::detail {

namespace {

// dst[j] = src[j * stride] for j in [0, n), stride 1 or 2: 16 floats a step, the row's end
// through masks (nothing read or written past it). With stride 2 the two halves of
// src[0 .. 2 * count - 1) are read and their even elements gathered by one permutation.
void copy_row_avx512(float* dst, const float* src, int64_t n, int64_t stride) {
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  auto lanes = [](int64_t count) {
    return count >= 16 ? static_cast<__mmask16>(0xffff)
                       : static_cast<__mmask16>((1u << static_cast<unsigned>(count)) - 1u);
  };
  for (int64_t j = 0; j < n; j += 16) {
    const int64_t count = n - j < 16 ? n - j : 16;
    __m512 v;
    if (stride == 1) {
      v = _mm512_maskz_loadu_ps(lanes(count), src + j);
    } else {
      const int64_t span = 2 * count - 1;  // elements through the last lane's
      const float* at = src + 2 * j;
      const __m512 lo = _mm512_maskz_loadu_ps(lanes(span), at);
      const __m512 hi =
          span > 16 ? _mm512_maskz_loadu_ps(lanes(span - 16), at + 16) : _mm512_setzero_ps();
      v = _mm512_permutex2var_ps(lo, even, hi);
    }
    _mm512_mask_storeu_ps(dst + j, lanes(count), v);
  }
}

}  // namespace

#define DEPTHWISE_COPY_ROW copy_row_avx512
#define DEPTHWISE_FN(name) name##_avx512
#define DEPTHWISE_LANES 16
#include "core/kernels/depthwise_body.inc"
#undef DEPTHWISE_LANES
#undef DEPTHWISE_FN
#undef DEPTHWISE_COPY_ROW

}  // namespace onnxtool::kernels::detail
