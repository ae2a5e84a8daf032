// SPDX-License-Identifier: Apache-2.0
// What pool.cpp hands to pool_avx2.cpp and pool_avx512.cpp (compiled with their ISA's flags;
// they include only this plain header, the intrinsics and lanes_avx512.h, as gemm_arch.h explains).
// The vector code covers a prefix of the row (AVX2: the maximum, which may fold a value twice, all
// of it when n >= 8; AVX-512: all of it, the end through masks, for strides 1 and 2) and returns
// how many positions it did; pool.cpp finishes the rest with the scalar definitions.
#pragma once

#include <cstdint>
#include <type_traits>

#include "core/kernels/pool.h"  // declarations only: SeparableMax

namespace onnxtool::kernels::detail {

// Output rows an average's vector kernels sum at once (independent chains of adds).
constexpr int64_t kAverageRows = 4;

// f(std::integral_constant<int, rows>{}) for rows in [1, kAverageRows]: the row count as a
// constant, so that the ISA file's sums stay in registers. A template instantiated with each
// ISA file's own lambda: no symbol is shared between the files.
template <class F>
void with_row_count(int64_t rows, F&& f) {
  static_assert(kAverageRows == 4);
  if (rows >= 4)
    f(std::integral_constant<int, 4>{});
  else if (rows == 3)
    f(std::integral_constant<int, 3>{});
  else if (rows == 2)
    f(std::integral_constant<int, 2>{});
  else
    f(std::integral_constant<int, 1>{});
}

int64_t max_rows_avx2(float* out, const float* src, int64_t row_step, int64_t rows, int64_t n,
                      int64_t stride, int64_t kernel, int64_t dilation);
// max_rows_3x3_stride2 (pool.h) at AVX2, where n >= 8 (else false, nothing done).
bool max_rows_3x3s2_avx2(float* out, int64_t out_step, const float* src, int64_t src_step,
                         int64_t out_rows, int64_t n);
int64_t fold_sum_avx2(float* acc, const float* src, int64_t n, int64_t stride, int64_t kernel,
                      int64_t dilation);
// All of average_padded_plane (pool.h) for stride_w 1 or 2, the row ends through masked loads
// and stores.
void average_padded_plane_avx2(float* out, const float* padded, int64_t padded_w, int64_t out_h,
                               int64_t out_w, int64_t stride_h, int64_t stride_w, int64_t kernel_h,
                               int64_t kernel_w, int64_t dilation_h, int64_t dilation_w,
                               const float* divisors);

// separable_max_plane (pool.h) per ISA: pool_body.inc compiled with each one's vectors.
int64_t separable_max_scratch_generic(const SeparableMax& p);
bool separable_max_plane_generic(float* out, const SeparableMax& p, float* scratch);
int64_t separable_max_scratch_avx2(const SeparableMax& p);
bool separable_max_plane_avx2(float* out, const SeparableMax& p, float* scratch);
int64_t separable_max_scratch_avx512(const SeparableMax& p);
bool separable_max_plane_avx512(float* out, const SeparableMax& p, float* scratch);

int64_t max_rows_avx512(float* out, const float* src, int64_t row_step, int64_t rows, int64_t n,
                        int64_t stride, int64_t kernel, int64_t dilation);
// max_rows_3x3_stride2 (pool.h) at AVX-512.
void max_rows_3x3s2_avx512(float* out, int64_t out_step, const float* src, int64_t src_step,
                           int64_t out_rows, int64_t n);
int64_t fold_sum_avx512(float* acc, const float* src, int64_t n, int64_t stride, int64_t kernel,
                        int64_t dilation);
void average_padded_plane_avx512(float* out, const float* padded, int64_t padded_w, int64_t out_h,
                                 int64_t out_w, int64_t stride_h, int64_t stride_w,
                                 int64_t kernel_h, int64_t kernel_w, int64_t dilation_h,
                                 int64_t dilation_w, const float* divisors);

}  // namespace onnxtool::kernels::detail
