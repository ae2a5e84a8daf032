// SPDX-License-Identifier: Apache-2.0
// Float to 8-bit quantization, shared by the quantizing operators: the range of a tensor and
// y = saturate(round_half_even(x / scale) + zero). Each element's result is defined alone, so
// every variant (scalar, AVX2) and every split across threads gives the same bytes.
#pragma once

#include <cstdint>

#include "core/kernels/epilogue.h"

namespace onnxtool::kernels {

// Folds x[0, n) into lo/hi as lo = min(lo, v), hi = max(hi, v) do: a NaN never replaces them.
void float_range(const float* x, int64_t n, float& lo, float& hi);

// y[i] = clamp(nearbyint(x[i] / scale) + zero, 0, 255), a NaN giving 0. scale must not be 0.
void quantize_u8(const float* x, int64_t n, float scale, float zero, uint8_t* y);

// Integer sums to floats, in place: p holds n int32 sums, each replaced by the float
// float(sum) * scale, + bias (when has_bias), + residual[i] (when given), then `act`, every step
// rounded to float once and in this order (an integer convolution's output dequantized, with a
// fused bias, residual Add and activation). Every variant gives the same bits.
void dequantize_sums(void* p, int64_t n, float scale, bool has_bias, float bias,
                     const float* residual, const Epilogue& act);

}  // namespace onnxtool::kernels
