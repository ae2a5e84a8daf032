// SPDX-License-Identifier: Apache-2.0
// The 8x8 blocks of transpose_f32 for AVX2 (compiled with -mavx2): transpose_lanes.inc's
// register transpose, the one depthwise_body.inc's channel blocks use.
#include "core/kernels/transpose_arch.h"

namespace onnxtool::kernels::detail {

namespace {

#include "core/kernels/transpose_lanes.inc"

typedef float Lanes8 __attribute__((vector_size(8 * sizeof(float))));

}  // namespace

void transpose_blocks_avx2(const float* src, int64_t src_ld, int64_t rows, int64_t cols, float* dst,
                           int64_t dst_ld) {
  for (int64_t c0 = 0; c0 + 8 <= cols; c0 += 8) {
    for (int64_t r0 = 0; r0 + 8 <= rows; r0 += 8) {
      Lanes8 r[8];
#pragma GCC unroll 8
      for (int i = 0; i < 8; ++i)
        __builtin_memcpy(&r[i], src + (r0 + i) * src_ld + c0, sizeof r[i]);
      transpose8(r);
#pragma GCC unroll 8
      for (int i = 0; i < 8; ++i)
        __builtin_memcpy(dst + (c0 + i) * dst_ld + r0, &r[i], sizeof r[i]);
    }
  }
}

}  // namespace onnxtool::kernels::detail
