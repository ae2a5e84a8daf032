// SPDX-License-Identifier: Apache-2.0
#include "core/kernels/im2col.h"

#include "core/kernels/gemm.h"
#include "core/kernels/im2col_arch.h"

namespace onnxtool::kernels {

namespace detail {

#define IM2COL_FN(name) name##_generic
#include "core/kernels/im2col_body.inc"
#undef IM2COL_FN

}  // namespace detail

int64_t im2col_packed_scratch(const PlaneWindow& w, int64_t p0, int64_t p1) {
  (void)p0, (void)p1;
  return phase_planes_size(w);
}

void im2col_packed(const PlaneWindow& w, const float* x, int64_t c0, int64_t c1, int64_t p0,
                   int64_t p1, const PackedBLayout& layout, float* out, float* scratch) {
#if defined(ONNXTOOL_X86_KERNELS)
  switch (simd_level()) {
    case SimdLevel::avx512:
      return detail::im2col_packed_avx512(w, x, c0, c1, p0, p1, layout, out, scratch);
    case SimdLevel::avx2:
      return detail::im2col_packed_avx2(w, x, c0, c1, p0, p1, layout, out, scratch);
    case SimdLevel::scalar:
      break;
  }
#endif
  detail::im2col_packed_generic(w, x, c0, c1, p0, p1, layout, out, scratch);
}

}  // namespace onnxtool::kernels
