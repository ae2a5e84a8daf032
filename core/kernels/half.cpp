// SPDX-License-Identifier: Apache-2.0
#include "core/kernels/half.h"

#include <bit>

#include "core/kernels/gemm.h"
#include "core/kernels/half_arch.h"

namespace onnxtool::kernels {

namespace {

// Elements the vector code converts: whole vectors of 8.
int64_t vector_part(int64_t n) {
  return avx2_element_kernels() ? n / 8 * 8 : 0;
}

}  // namespace

void to_float(const Float16* in, float* out, int64_t n) {
  const int64_t v = vector_part(n);
#if defined(ONNXTOOL_X86_KERNELS)
  if (v) detail::half_to_float_f16c(reinterpret_cast<const uint16_t*>(in), out, v);
#endif
  for (int64_t i = v; i < n; ++i) out[i] = onnxtool::to_float(in[i]);
}

void to_float16(const float* in, Float16* out, int64_t n) {
  const int64_t v = vector_part(n);
#if defined(ONNXTOOL_X86_KERNELS)
  if (v) detail::float_to_half_f16c(in, reinterpret_cast<uint16_t*>(out), v);
#endif
  for (int64_t i = v; i < n; ++i) out[i] = onnxtool::to_float16(in[i]);
}

// bfloat16 is the top half of a float: widening is a shift the compiler vectorises.
void to_float(const BFloat16* in, float* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = std::bit_cast<float>(uint32_t{in[i].bits} << 16);
}

void to_bfloat16(const float* in, BFloat16* out, int64_t n) {
  for (int64_t i = 0; i < n; ++i) out[i] = onnxtool::to_bfloat16(in[i]);
}

}  // namespace onnxtool::kernels
