// SPDX-License-Identifier: Apache-2.0
#include "core/kernels/pool.h"

#include "core/kernels/gemm.h"
#include "core/kernels/pool_arch.h"

namespace onnxtool::kernels {

namespace detail {
#define POOL_FN(name) name##_generic
#define POOL_LANES 4
#include "core/kernels/pool_body.inc"
#undef POOL_LANES
#undef POOL_FN
}  // namespace detail

int64_t separable_max_scratch(const SeparableMax& p) {
#if defined(ONNXTOOL_X86_KERNELS)
  if (simd_level() == SimdLevel::avx512) return detail::separable_max_scratch_avx512(p);
  if (avx2_element_kernels()) return detail::separable_max_scratch_avx2(p);
#endif
  return detail::separable_max_scratch_generic(p);
}

bool separable_max_plane(float* out, const SeparableMax& p, float* scratch) {
#if defined(ONNXTOOL_X86_KERNELS)
  if (simd_level() == SimdLevel::avx512) return detail::separable_max_plane_avx512(out, p, scratch);
  if (avx2_element_kernels()) return detail::separable_max_plane_avx2(out, p, scratch);
#endif
  return detail::separable_max_plane_generic(out, p, scratch);
}

void max_rows(float* out, const float* src, int64_t row_step, int64_t rows, const RowWindow& w) {
  int64_t o = 0;
#if defined(ONNXTOOL_X86_KERNELS)
  if (simd_level() == SimdLevel::avx512)
    o = detail::max_rows_avx512(out, src, row_step, rows, w.n, w.stride, w.kernel, w.dilation);
  else if (avx2_element_kernels())
    o = detail::max_rows_avx2(out, src, row_step, rows, w.n, w.stride, w.kernel, w.dilation);
#endif
  for (; o < w.n; ++o) {
    const float* x = src + o * w.stride;
    float best = x[0];
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t kw = r == 0 ? 1 : 0; kw < w.kernel; ++kw) {
        const float v = x[r * row_step + kw * w.dilation];
        best = v > best ? v : best;
      }
    out[o] = best;
  }
}

bool max_rows_3x3_stride2([[maybe_unused]] float* out, [[maybe_unused]] int64_t out_step,
                          [[maybe_unused]] const float* src, [[maybe_unused]] int64_t src_step,
                          [[maybe_unused]] int64_t out_rows, [[maybe_unused]] int64_t n) {
#if defined(ONNXTOOL_X86_KERNELS)
  if (simd_level() == SimdLevel::avx512) {
    detail::max_rows_3x3s2_avx512(out, out_step, src, src_step, out_rows, n);
    return true;
  }
  if (avx2_element_kernels())
    return detail::max_rows_3x3s2_avx2(out, out_step, src, src_step, out_rows, n);
#endif
  return false;
}

void fold_sum(float* acc, const float* src, const RowWindow& w) {
  int64_t o = 0;
#if defined(ONNXTOOL_X86_KERNELS)
  if (simd_level() == SimdLevel::avx512)
    o = detail::fold_sum_avx512(acc, src, w.n, w.stride, w.kernel, w.dilation);
  else if (avx2_element_kernels())
    o = detail::fold_sum_avx2(acc, src, w.n, w.stride, w.kernel, w.dilation);
#endif
  for (; o < w.n; ++o) {
    const float* x = src + o * w.stride;
    float sum = acc[o];
    for (int64_t kw = 0; kw < w.kernel; ++kw) sum = sum + x[kw * w.dilation];
    acc[o] = sum;
  }
}

void average_padded_plane(float* out, const PaddedAverage& a) {
#if defined(ONNXTOOL_X86_KERNELS)
  if (simd_level() == SimdLevel::avx512 && (a.stride_w == 1 || a.stride_w == 2))
    return detail::average_padded_plane_avx512(out, a.padded, a.padded_w, a.out_h, a.out_w,
                                               a.stride_h, a.stride_w, a.kernel_h, a.kernel_w,
                                               a.dilation_h, a.dilation_w, a.divisors);
  if (avx2_element_kernels() && (a.stride_w == 1 || a.stride_w == 2))
    return detail::average_padded_plane_avx2(out, a.padded, a.padded_w, a.out_h, a.out_w,
                                             a.stride_h, a.stride_w, a.kernel_h, a.kernel_w,
                                             a.dilation_h, a.dilation_w, a.divisors);
#endif
  for (int64_t oh = 0; oh < a.out_h; ++oh)
    for (int64_t o = 0; o < a.out_w; ++o) {
      const float* window = a.padded + oh * a.stride_h * a.padded_w + o * a.stride_w;
      float sum = 0.0f;
      for (int64_t kh = 0; kh < a.kernel_h; ++kh)
        for (int64_t kw = 0; kw < a.kernel_w; ++kw)
          sum = sum + window[kh * a.dilation_h * a.padded_w + kw * a.dilation_w];
      out[oh * a.out_w + o] = sum / a.divisors[oh * a.out_w + o];
    }
}

}  // namespace onnxtool::kernels
