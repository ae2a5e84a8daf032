// SPDX-License-Identifier: Apache-2.0
#include "core/kernels/transpose.h"

#include "core/kernels/gemm.h"
#include "core/kernels/transpose_arch.h"

namespace onnxtool::kernels {

namespace {

// dst^T = src on rows [r0, r1) by columns [c0, c1), a float at a time, along dst's rows.
void transpose_plain(const float* src, int64_t src_ld, int64_t r0, int64_t r1, int64_t c0,
                     int64_t c1, float* dst, int64_t dst_ld) {
  for (int64_t c = c0; c < c1; ++c) {
    float* out = dst + c * dst_ld;
    for (int64_t r = r0; r < r1; ++r) out[r] = src[r * src_ld + c];
  }
}

}  // namespace

void transpose_f32(const float* src, int64_t src_ld, int64_t rows, int64_t cols, float* dst,
                   int64_t dst_ld) {
  int64_t whole_rows = 0, whole_cols = 0;
#if defined(ONNXTOOL_X86_KERNELS)
  if (simd_level() >= SimdLevel::avx2) {
    whole_rows = rows / 8 * 8;
    whole_cols = cols / 8 * 8;
    detail::transpose_blocks_avx2(src, src_ld, whole_rows, whole_cols, dst, dst_ld);
  }
#endif
  // What the blocks left: the last rows of every column, then the last columns of the others.
  transpose_plain(src, src_ld, whole_rows, rows, 0, cols, dst, dst_ld);
  transpose_plain(src, src_ld, 0, whole_rows, whole_cols, cols, dst, dst_ld);
}

}  // namespace onnxtool::kernels
