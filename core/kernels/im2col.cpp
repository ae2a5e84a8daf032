// SPDX-License-Identifier: Apache-2.0
#include "core/kernels/im2col.h"

#include "core/kernels/gemm.h"
#include "core/kernels/im2col_arch.h"

namespace onnxtool::kernels {

namespace detail {

namespace {

void fill_panel_row(float* dst, const float* src, const Im2colRun* runs, int count, int64_t width,
                    int64_t panel) {
  fill_panel_row_plain(dst, src, runs, count, width, panel);
}

}  // namespace

#define IM2COL_FN(name) name##_generic
#include "core/kernels/im2col_body.inc"
#undef IM2COL_FN

}  // namespace detail

// Channels whose phase planes take about 128 KiB: with the rows they make, in L2.
int64_t im2col_channels_per_pass(const PlaneWindow& w) {
  constexpr int64_t kPassFloats = int64_t{32} << 10;
  const int64_t plane = phase_planes_size(w);
  return plane >= kPassFloats ? 1 : kPassFloats / plane;
}

int64_t im2col_packed_scratch(const PlaneWindow& w, int64_t p0, int64_t p1) {
  (void)p0, (void)p1;
  return im2col_channels_per_pass(w) * phase_planes_size(w) + 2 * kIm2colScratchGuard;
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

void fill_phase_planes(const PlaneWindow& w, const float* x, int64_t c0, int64_t c1, float* out) {
#if defined(ONNXTOOL_X86_KERNELS)
  switch (simd_level()) {
    case SimdLevel::avx512:
      return detail::fill_phase_planes_avx512(w, x, c0, c1, out);
    case SimdLevel::avx2:
      return detail::fill_phase_planes_avx2(w, x, c0, c1, out);
    case SimdLevel::scalar:
      break;
  }
#endif
  detail::fill_phase_planes_generic(w, x, c0, c1, out);
}

int64_t phase_plane_width(const PlaneWindow& w) {
  return detail::padded_of(w).phase_w;
}

int64_t phase_tap_offset(const PlaneWindow& w, int64_t kh, int64_t kw) {
  return detail::tap_offset(w, detail::padded_of(w), kh, kw);
}

}  // namespace onnxtool::kernels
