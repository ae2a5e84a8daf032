// SPDX-License-Identifier: Apache-2.0
// The integer register tile for AVX-512 VNNI: vpdpbusd multiplies 4 unsigned bytes of B by 4
// signed bytes of A and adds the four products to an int32 lane, exactly (no saturation).
// Compiled with -mavx512f -mavx512bw -mavx512vnni; see igemm_arch.h for what may be included.
#include <immintrin.h>

#include "core/kernels/igemm_arch.h"

namespace onnxtool::kernels::detail {

namespace {

__m512i broadcast_quad(const int8_t* p) {
  int v;
  __builtin_memcpy(&v, p, 4);
  return _mm512_set1_epi32(v);
}

void store_row(int32_t* c, __m512i v, int n, bool accumulate) {
  if (n <= 0) return;
  const auto mask = static_cast<__mmask16>(n >= 16 ? 0xffff : (1u << n) - 1);
  if (accumulate) v = _mm512_add_epi32(v, _mm512_maskz_loadu_epi32(mask, c));
  _mm512_mask_storeu_epi32(c, mask, v);
}

}  // namespace

// 8 rows x 32 columns: 16 accumulators, two loads of B and eight broadcasts of A per quad.
void int_tile_vnni512(const IntTile& t) {
  static_assert(kIntMr == 8 && kIntNr == 32, "the tile below is 8 x 32");
  __m512i acc[8][2];
  for (auto& row : acc) row[0] = row[1] = _mm512_setzero_si512();
  for (int64_t q = 0; q < t.quads; ++q) {
    const __m512i b0 = _mm512_loadu_si512(t.b + q * 128);
    const __m512i b1 = _mm512_loadu_si512(t.b + q * 128 + 64);
    const int8_t* a = t.a + q * 32;
    for (int r = 0; r < 8; ++r) {
      const __m512i av = broadcast_quad(a + r * 4);
      acc[r][0] = _mm512_dpbusd_epi32(acc[r][0], b0, av);
      acc[r][1] = _mm512_dpbusd_epi32(acc[r][1], b1, av);
    }
  }
  for (int r = 0; r < t.rows; ++r) {
    int32_t* c = t.c + r * t.ldc;
    store_row(c, acc[r][0], t.cols, t.accumulate);
    store_row(c + 16, acc[r][1], t.cols - 16, t.accumulate);
  }
}

}  // namespace onnxtool::kernels::detail
