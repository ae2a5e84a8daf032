// SPDX-License-Identifier: Apache-2.0
// What im2col.cpp hands to its SIMD variants (im2col_avx2.cpp, im2col_avx512.cpp): the copies
// of im2col_body.inc compiled per ISA. Includes only plain headers (see gemm_arch.h for why).
#pragma once

#include <cstdint>

#include "core/kernels/im2col.h"

namespace onnxtool::kernels::detail {

// A stretch of positions along one output row, as im2col_body.inc copies them: from the tap's
// source at offset `src` (oy * phase_w + ox) to column `dst` of a panel, `n` of them.
struct Im2colRun {
  int64_t src, dst, n;
};

namespace {

// One panel row as plain loops: the generic variant's, and the fallback of the others for
// panels their registers do not fit. In an unnamed namespace, so that each ISA's file keeps its
// own copy (see gemm_arch.h).
inline void fill_panel_row_plain(float* dst, const float* src, const Im2colRun* runs, int count,
                                 int64_t width, int64_t panel) {
  for (int i = 0; i < count; ++i)
    for (int64_t j = 0; j < runs[i].n; ++j) dst[runs[i].dst + j] = src[runs[i].src + j];
  for (int64_t j = width; j < panel; ++j) dst[j] = 0.0f;
}

}  // namespace

void fill_phase_planes_generic(const PlaneWindow& w, const float* x, int64_t c0, int64_t c1,
                               float* out);
void fill_phase_planes_avx2(const PlaneWindow& w, const float* x, int64_t c0, int64_t c1,
                            float* out);
void fill_phase_planes_avx512(const PlaneWindow& w, const float* x, int64_t c0, int64_t c1,
                              float* out);
void im2col_packed_generic(const PlaneWindow& w, const float* x, int64_t c0, int64_t c1, int64_t p0,
                           int64_t p1, const PackedBLayout& layout, float* out, float* scratch);
void im2col_packed_avx2(const PlaneWindow& w, const float* x, int64_t c0, int64_t c1, int64_t p0,
                        int64_t p1, const PackedBLayout& layout, float* out, float* scratch);
void im2col_packed_avx512(const PlaneWindow& w, const float* x, int64_t c0, int64_t c1, int64_t p0,
                          int64_t p1, const PackedBLayout& layout, float* out, float* scratch);

}  // namespace onnxtool::kernels::detail
