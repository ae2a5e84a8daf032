// SPDX-License-Identifier: Apache-2.0
// What quantize.cpp hands to quantize_avx2.cpp (compiled with -mavx2; includes only this plain
// header and the intrinsics, as gemm_arch.h explains). The vector code finishes its tail with the
// scalar definitions, so both agree element by element.
#pragma once

#include <cstdint>

namespace onnxtool::kernels::detail {

void float_range_scalar(const float* x, int64_t n, float& lo, float& hi);
void quantize_u8_scalar(const float* x, int64_t n, float scale, float zero, uint8_t* y);

void float_range_avx2(const float* x, int64_t n, float& lo, float& hi);
void quantize_u8_avx2(const float* x, int64_t n, float scale, float zero, uint8_t* y);

}  // namespace onnxtool::kernels::detail
