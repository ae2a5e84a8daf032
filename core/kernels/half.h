// SPDX-License-Identifier: Apache-2.0
// Whole arrays between float and the 16-bit floats, with the bits of the element conversions of
// core/types/float_formats.h (round to nearest even, NaN kept quiet with its top payload bits):
// F16C on x86 CPUs that run the AVX2 kernels, the element functions elsewhere. Kernels that
// compute float16/bfloat16 in float convert blocks through these instead of one element at a
// time.
#pragma once

#include <cstdint>

#include "core/types/element.h"
#include "core/types/float_formats.h"

namespace onnxtool::kernels {

void to_float(const Float16* in, float* out, int64_t n);
void to_float16(const float* in, Float16* out, int64_t n);
void to_float(const BFloat16* in, float* out, int64_t n);
void to_bfloat16(const float* in, BFloat16* out, int64_t n);

// The same for any narrow float type T (the element functions for the 8- and 4-bit ones).
template <class T>
void narrow_to_float(const T* in, float* out, int64_t n) {
  if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
    to_float(in, out, n);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = onnxtool::to_float(in[i]);
  }
}
template <class T>
void float_to_narrow(const float* in, T* out, int64_t n) {
  if constexpr (std::is_same_v<T, Float16>) {
    to_float16(in, out, n);
  } else if constexpr (std::is_same_v<T, BFloat16>) {
    to_bfloat16(in, out, n);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = narrow_float<T>(in[i]);
  }
}

}  // namespace onnxtool::kernels
