// SPDX-License-Identifier: Apache-2.0
// What quantize.cpp hands to quantize_avx2.cpp (compiled with -mavx2; includes only this plain
// header and the intrinsics, as gemm_arch.h explains). The vector code finishes its tail with the
// scalar definitions, so both agree element by element.
#pragma once

#include <cstdint>

namespace onnxtool::kernels::detail {

void float_range_scalar(const float* x, int64_t n, float& lo, float& hi);
void quantize_u8_scalar(const float* x, int64_t n, float scale, float zero, uint8_t* y);

// dequantize_sums's arithmetic; act_kind 1 clamps to [lo, hi], 2 multiplies negatives by alpha.
struct SumsToFloat {
  float scale = 1, bias = 0;
  bool has_bias = false;
  const float* residual = nullptr;
  int act_kind = 0;
  float lo = 0, hi = 0, alpha = 0;
};
void dequantize_sums_scalar(void* p, int64_t n, const SumsToFloat& f);
void dequantize_sums_avx2(void* p, int64_t n, const SumsToFloat& f);

void float_range_avx2(const float* x, int64_t n, float& lo, float& hi);
void quantize_u8_avx2(const float* x, int64_t n, float scale, float zero, uint8_t* y);

}  // namespace onnxtool::kernels::detail
