// SPDX-License-Identifier: Apache-2.0
// What half.cpp hands to half_f16c.cpp (compiled with -mavx2 -mf16c; plain header only, as
// gemm_arch.h explains). Counts are whole vectors of 8; half.cpp converts the tail.
#pragma once

#include <cstdint>

namespace onnxtool::kernels::detail {

void half_to_float_f16c(const uint16_t* in, float* out, int64_t n);
void float_to_half_f16c(const float* in, uint16_t* out, int64_t n);

}  // namespace onnxtool::kernels::detail
