// SPDX-License-Identifier: Apache-2.0
// Float to 8-bit quantization, shared by the quantizing operators: the range of a tensor and
// y = saturate(round_half_even(x / scale) + zero). Each element's result is defined alone, so
// every variant (scalar, AVX2) and every split across threads gives the same bytes.
#pragma once

#include <cstdint>

namespace onnxtool::kernels {

// Folds x[0, n) into lo/hi as lo = min(lo, v), hi = max(hi, v) do: a NaN never replaces them.
void float_range(const float* x, int64_t n, float& lo, float& hi);

// y[i] = clamp(nearbyint(x[i] / scale) + zero, 0, 255), a NaN giving 0. scale must not be 0.
void quantize_u8(const float* x, int64_t n, float scale, float zero, uint8_t* y);

}  // namespace onnxtool::kernels
