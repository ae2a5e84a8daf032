// SPDX-License-Identifier: Apache-2.0
// The im2col copies (im2col_body.inc) compiled for AVX512.
#include <immintrin.h>

#include "core/kernels/im2col_arch.h"

namespace onnxtool::kernels::detail {

namespace {

// A 32-column panel row (this level's panels) is put together in two registers, each run
// expanded into its lanes, and stored whole: full-line stores, where masked stores of short
// runs (14 positions of a 14x14 plane) stalled on the memory they only partly wrote.
void fill_panel_row(float* dst, const float* src, const Im2colRun* runs, int count, int64_t width,
                    int64_t panel) {
  if (panel != 32) return fill_panel_row_plain(dst, src, runs, count, width, panel);
  __m512 lo = _mm512_setzero_ps(), hi = _mm512_setzero_ps();
  for (int i = 0; i < count; ++i) {
    const Im2colRun& r = runs[i];
    const uint64_t lanes = ((uint64_t{1} << r.n) - 1) << r.dst;
    const auto lo_lanes = static_cast<__mmask16>(lanes & 0xffff);
    const auto hi_lanes = static_cast<__mmask16>(lanes >> 16);
    lo = _mm512_mask_expandloadu_ps(lo, lo_lanes, src + r.src);
    hi = _mm512_mask_expandloadu_ps(hi, hi_lanes, src + r.src + __builtin_popcount(lo_lanes));
  }
  _mm512_storeu_ps(dst, lo);
  _mm512_storeu_ps(dst + 16, hi);
}

}  // namespace

#define IM2COL_FN(name) name##_avx512
#include "core/kernels/im2col_body.inc"
#undef IM2COL_FN

}  // namespace onnxtool::kernels::detail
