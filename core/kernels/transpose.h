// SPDX-License-Identifier: Apache-2.0
// A matrix transposed: dst (cols x rows, row stride dst_ld) = src^T, src being rows x cols with
// row stride src_ld. The values are copied, never computed: the same bits on every level. With
// AVX2, 8x8 blocks go through registers (a float at a time, each one a load from a different
// row and a store to a different row, took a fifth of a 7x7 pointwise convolution's time).
#pragma once

#include <cstdint>

namespace onnxtool::kernels {

void transpose_f32(const float* src, int64_t src_ld, int64_t rows, int64_t cols, float* dst,
                   int64_t dst_ld);

}  // namespace onnxtool::kernels
