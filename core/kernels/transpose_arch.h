// SPDX-License-Identifier: Apache-2.0
// What transpose.cpp hands to its SIMD variant (transpose_avx2.cpp). Includes only plain headers
// (see gemm_arch.h for why).
#pragma once

#include <cstdint>

namespace onnxtool::kernels::detail {

// The whole 8x8 blocks of src^T into dst: rows [0, rows / 8 * 8) by columns [0, cols / 8 * 8).
void transpose_blocks_avx2(const float* src, int64_t src_ld, int64_t rows, int64_t cols, float* dst,
                           int64_t dst_ld);

}  // namespace onnxtool::kernels::detail
