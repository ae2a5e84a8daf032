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

}  // namespace

#define DEPTHWISE_COPY_ROW copy_row_avx512
#define DEPTHWISE_FN(name) name##_avx512
#define DEPTHWISE_LANES 16
#include "core/kernels/depthwise_body.inc"
#undef DEPTHWISE_LANES
#undef DEPTHWISE_FN
#undef DEPTHWISE_COPY_ROW

}  // namespace onnxtool::kernels::detail
