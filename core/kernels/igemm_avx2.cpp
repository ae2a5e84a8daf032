// SPDX-License-Identifier: Apache-2.0
// The integer register tile for AVX2 without VNNI. vpmaddubsw would saturate (two u8 x s8
// products can pass int16), so both operands are widened to int16 and vpmaddwd sums pairs into
// int32 lanes, exactly. Compiled with -mavx2; see igemm_arch.h for what may be included.
#include <immintrin.h>

#include "core/kernels/igemm_arch.h"

namespace onnxtool::kernels::detail {

namespace {

// A panel's quads widened to int16 once per row panel and k block: row r's four values of quad q as
// the 64 bits at out[q * kIntMr + r], so that the products take each with one broadcast load.
// Widening them in the loop, for each block of 8 columns, took three operations a row and a quad: a
// third of the loop (AMD Zen 3, where vpmaddwd itself issues two a cycle).
void widen_panel(const int8_t* a, int64_t quads, int64_t* out) {
  for (int64_t q = 0; q < quads; ++q) {
    const __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + q * kIntMr * 4));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + q * kIntMr),
                        _mm256_cvtepi8_epi16(_mm256_castsi256_si128(bytes)));
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + q * kIntMr + 4),
                        _mm256_cvtepi8_epi16(_mm256_extracti128_si256(bytes, 1)));
  }
}

// lo holds columns 0-3 and hi columns 4-7 as pair sums (column c's lanes 2c and 2c+1): the
// eight column sums in order.
__m256i column_sums(__m256i lo, __m256i hi) {
  return _mm256_permute4x64_epi64(_mm256_hadd_epi32(lo, hi), 0xD8);
}

// The first n columns of a row (all 8 through whole loads and stores: masked ones are many
// micro-operations on AMD Zen 3).
void store_row(int32_t* c, __m256i v, int n, bool accumulate) {
  if (n <= 0) return;
  if (n >= 8) {
    auto* at = reinterpret_cast<__m256i*>(c);
    if (accumulate) v = _mm256_add_epi32(v, _mm256_loadu_si256(at));
    return _mm256_storeu_si256(at, v);
  }
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  const __m256i mask = _mm256_cmpgt_epi32(_mm256_set1_epi32(n), lane);
  if (accumulate) v = _mm256_add_epi32(v, _mm256_maskload_epi32(c, mask));
  _mm256_maskstore_epi32(c, mask, v);
}

// Rows [r0, r0 + 4) x columns [c0, c0 + 8) of the tile; `wide` is its A panel widened.
void block_4x8(const IntTile& t, const int64_t* wide, int r0, int c0) {
  __m256i lo[4], hi[4];
  for (int r = 0; r < 4; ++r) lo[r] = hi[r] = _mm256_setzero_si256();
  for (int64_t q = 0; q < t.quads; ++q) {
    const uint8_t* b = t.b + q * kIntNr * 4 + c0 * 4;
    const __m256i bl = _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b)));
    const __m256i bh =
        _mm256_cvtepu8_epi16(_mm_loadu_si128(reinterpret_cast<const __m128i*>(b + 16)));
    const int64_t* a = wide + q * kIntMr + r0;
    for (int r = 0; r < 4; ++r) {
      const __m256i av = _mm256_set1_epi64x(a[r]);
      lo[r] = _mm256_add_epi32(lo[r], _mm256_madd_epi16(bl, av));
      hi[r] = _mm256_add_epi32(hi[r], _mm256_madd_epi16(bh, av));
    }
  }
  for (int r = 0; r < 4 && r0 + r < t.rows; ++r)
    store_row(t.c + (r0 + r) * t.ldc + c0, column_sums(lo[r], hi[r]), t.cols - c0, t.accumulate);
}

}  // namespace

void int_tile_avx2(const IntTile& t) {
  // Kept for the row panel's next column tiles (each widening took 9 % of a QDQ ResNet-50).
  alignas(32) thread_local int64_t wide[kIntKcQuads * kIntMr];
  if (!t.a_as_before) widen_panel(t.a, t.quads, wide);
  for (int r0 = 0; r0 < t.rows; r0 += 4)
    for (int c0 = 0; c0 < t.cols; c0 += 8) block_4x8(t, wide, r0, c0);
}

}  // namespace onnxtool::kernels::detail
