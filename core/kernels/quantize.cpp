// SPDX-License-Identifier: Apache-2.0
#include "core/kernels/quantize.h"

#include <cmath>

#include "core/kernels/gemm.h"
#include "core/kernels/quantize_arch.h"

namespace onnxtool::kernels {

namespace detail {

void float_range_scalar(const float* x, int64_t n, float& lo, float& hi) {
  for (int64_t i = 0; i < n; ++i) {
    lo = x[i] < lo ? x[i] : lo;
    hi = x[i] > hi ? x[i] : hi;
  }
}

void quantize_u8_scalar(const float* x, int64_t n, float scale, float zero, uint8_t* y) {
  for (int64_t i = 0; i < n; ++i) {
    const float q = std::nearbyint(x[i] / scale) + zero;
    // Written so that a NaN fails the first test, as the vector max does.
    y[i] = !(q > 0.0f) ? 0 : q > 255.0f ? 255 : static_cast<uint8_t>(q);
  }
}

}  // namespace detail

void float_range(const float* x, int64_t n, float& lo, float& hi) {
#if defined(ONNXTOOL_X86_KERNELS)
  if (avx2_element_kernels()) return detail::float_range_avx2(x, n, lo, hi);
#endif
  detail::float_range_scalar(x, n, lo, hi);
}

void quantize_u8(const float* x, int64_t n, float scale, float zero, uint8_t* y) {
#if defined(ONNXTOOL_X86_KERNELS)
  if (avx2_element_kernels()) return detail::quantize_u8_avx2(x, n, scale, zero, y);
#endif
  detail::quantize_u8_scalar(x, n, scale, zero, y);
}

}  // namespace onnxtool::kernels
