// SPDX-License-Identifier: Apache-2.0
// Masked row reads shared by the AVX-512 kernel files (pool_avx512.cpp, depthwise_avx512.cpp).
// Include it only from files compiled with -mavx512f: its functions are AVX-512 code, and they
// sit in an unnamed namespace so that no symbol is shared with the other ISA files (see
// gemm_arch.h).
#pragma once

#include <immintrin.h>

#include <cstdint>

namespace onnxtool::kernels::detail {
namespace {

constexpr int64_t kLanes512 = 16;

// The first `count` lanes (none for count <= 0).
__mmask16 first_lanes(int64_t count) {
  if (count <= 0) return 0;
  return count >= kLanes512 ? static_cast<__mmask16>(0xffff)
                            : static_cast<__mmask16>((1u << static_cast<unsigned>(count)) - 1u);
}

// src[o * stride] for the lanes o < count (others zero, nothing read for them): stride 1 or 2.
// With stride 2 the two halves of src[0 .. 2 * count - 1) are read and their even elements
// gathered by one permutation.
__m512 load_strided(const float* src, int64_t stride, int64_t count) {
  if (stride == 1) return _mm512_maskz_loadu_ps(first_lanes(count), src);
  const int64_t span = 2 * count - 1;  // elements through the last lane's
  const __m512 lo = _mm512_maskz_loadu_ps(first_lanes(span), src);
  const __m512 hi = _mm512_maskz_loadu_ps(first_lanes(span - kLanes512), src + kLanes512);
  const __m512i even = _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  return _mm512_permutex2var_ps(lo, even, hi);
}

}  // namespace
}  // namespace onnxtool::kernels::detail
