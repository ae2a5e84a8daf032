// SPDX-License-Identifier: Apache-2.0
#include "core/kernels/quantize.h"

#include <cmath>
#include <cstring>

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

void dequantize_sums_scalar(void* p, int64_t n, const SumsToFloat& f) {
  auto* bytes = static_cast<unsigned char*>(p);
  for (int64_t i = 0; i < n; ++i, bytes += 4) {
    int32_t sum;
    std::memcpy(&sum, bytes, 4);
    float v = static_cast<float>(sum) * f.scale;
    if (f.has_bias) v += f.bias;
    if (f.residual) v += f.residual[i];
    if (f.act_kind == 1) {
      v = v < f.lo ? f.lo : v;
      v = v > f.hi ? f.hi : v;
    } else if (f.act_kind == 2) {
      v = v < 0.0f ? f.alpha * v : v;
    }
    std::memcpy(bytes, &v, 4);
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

void dequantize_sums(void* p, int64_t n, float scale, bool has_bias, float bias,
                     const float* residual, const Epilogue& act) {
  detail::SumsToFloat f;
  f.scale = scale;
  f.has_bias = has_bias;
  f.bias = bias;
  f.residual = residual;
  // The kinds the loops do not apply go over the floats after them (still in cache).
  const bool in_loop = act.in_registers();
  f.act_kind = in_loop ? static_cast<int>(act.kind) : 0;
  f.lo = act.lo;
  f.hi = act.hi;
  f.alpha = act.alpha;
#if defined(ONNXTOOL_X86_KERNELS)
  if (avx2_element_kernels())
    detail::dequantize_sums_avx2(p, n, f);
  else
#endif
    detail::dequantize_sums_scalar(p, n, f);
  if (!in_loop) apply_activation_f32(static_cast<float*>(p), n, act);
}

}  // namespace onnxtool::kernels
