// SPDX-License-Identifier: Apache-2.0
// float16 <-> float with F16C, 8 at a time. vcvtph2ps is exact; vcvtps2ph with an explicit
// round-to-nearest-even immediate rounds as to_float16 does, and quiets a NaN keeping its top
// payload bits, as to_float16 does too.
#include <immintrin.h>

#include "core/kernels/half_arch.h"

namespace onnxtool::kernels::detail {

void half_to_float_f16c(const uint16_t* in, float* out, int64_t n) {
  for (int64_t i = 0; i + 8 <= n; i += 8)
    _mm256_storeu_ps(out + i,
                     _mm256_cvtph_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(in + i))));
}

void float_to_half_f16c(const float* in, uint16_t* out, int64_t n) {
  for (int64_t i = 0; i + 8 <= n; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + i),
                     _mm256_cvtps_ph(_mm256_loadu_ps(in + i), _MM_FROUND_TO_NEAREST_INT));
}

}  // namespace onnxtool::kernels::detail
