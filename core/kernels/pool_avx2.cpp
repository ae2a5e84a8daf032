// SPDX-License-Identifier: Apache-2.0
// The pooling folds for AVX2 (see pool_arch.h for what may be included).
#include <immintrin.h>

#include "core/kernels/pool_arch.h"

namespace onnxtool::kernels::detail {

namespace {

// The even (or odd) elements of a then b: per 128-bit half a0 a2 b0 b2 | a4 a6 b4 b6, then the
// middle quarters swap: a0 a2 a4 a6 b0 b2 b4 b6.
__m256 evens_of(__m256 a, __m256 b) {
  const __m256 halves = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(2, 0, 2, 0));
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(halves), _MM_SHUFFLE(3, 1, 2, 0)));
}
__m256 odds_of(__m256 a, __m256 b) {
  const __m256 halves = _mm256_shuffle_ps(a, b, _MM_SHUFFLE(3, 1, 3, 1));
  return _mm256_castpd_ps(_mm256_permute4x64_pd(_mm256_castps_pd(halves), _MM_SHUFFLE(3, 1, 2, 0)));
}

// src[o * stride] for o in [0, 8): stride 1 or 2. With stride 2 it reads src[0 .. 16), one
// element past the last one it uses.
__m256 load_strided(const float* src, int64_t stride) {
  if (stride == 1) return _mm256_loadu_ps(src);
  return evens_of(_mm256_loadu_ps(src), _mm256_loadu_ps(src + 8));
}

// Positions whose vector reads stay inside what the row's windows read: with stride 2 a vector
// reads one element past its last position's, which must be another position's.
int64_t vector_span(int64_t n, int64_t stride) {
  if (stride != 1 && stride != 2) return 0;
  return stride == 1 ? n : n - 1;
}

// vmaxps gives its second operand when the first is not greater, NaNs included: v > best ? v :
// best.
__m256 window_max(const float* src, int64_t stride, int64_t kernel, int64_t dilation, __m256 best,
                  bool seed) {
  int64_t kw = 0;
  if (seed) best = load_strided(src, stride), kw = 1;
  for (; kw < kernel; ++kw) best = _mm256_max_ps(load_strided(src + kw * dilation, stride), best);
  return best;
}

}  // namespace

namespace {

// Two vectors of outputs (at and at + 8 * stride) over the window rows, their chains of maxima
// interleaved: independent, so that their latencies overlap.
void max_pair(float* out, const float* at, int64_t row_step, int64_t rows, int64_t stride,
              int64_t kernel, int64_t dilation) {
  const float* second = at + 8 * stride;
  __m256 best0 = load_strided(at, stride), best1 = load_strided(second, stride);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t kw = r == 0 ? 1 : 0; kw < kernel; ++kw) {
      const int64_t tap = r * row_step + kw * dilation;
      best0 = _mm256_max_ps(load_strided(at + tap, stride), best0);
      best1 = _mm256_max_ps(load_strided(second + tap, stride), best1);
    }
  _mm256_storeu_ps(out, best0);
  _mm256_storeu_ps(out + 8, best1);
}

}  // namespace

int64_t max_rows_avx2(float* out, const float* src, int64_t row_step, int64_t rows, int64_t n,
                      int64_t stride, int64_t kernel, int64_t dilation) {
  const int64_t span = vector_span(n, stride);
  if (span < 8) return 0;
  int64_t o = 0;
  for (; o + 16 <= span; o += 16)
    max_pair(out + o, src + o * stride, row_step, rows, stride, kernel, dilation);
  if (o == span) return span;
  for (;; o += 8) {
    // The last vector ends at the span's end, recomputing a few positions (a maximum does not
    // change when a value is folded in again).
    if (o + 8 > span) o = span - 8;
    const float* at = src + o * stride;
    __m256 best = window_max(at, stride, kernel, dilation, _mm256_setzero_ps(), true);
    for (int64_t r = 1; r < rows; ++r)
      best = window_max(at + r * row_step, stride, kernel, dilation, best, false);
    _mm256_storeu_ps(out + o, best);
    if (o + 8 == span) return span;
  }
}

namespace {

// A window row's maxima for 8 outputs at stride 2 over 3 columns (x[2j], x[2j + 1], x[2j + 2]
// for output j), in order, two ways, as in pool_avx512.cpp: `first` seeded by the row's first
// value, `rest` by -infinity. The left and middle columns are the even and odd elements of
// x[0 .. 16); the right column is the left one a lane on, its last lane x[16]: nothing past the
// windows is read.
struct RowMaxima {
  __m256 first, rest;
};

RowMaxima row_maxima_3s2(const float* x) {
  const __m256 a = _mm256_loadu_ps(x), b = _mm256_loadu_ps(x + 8);
  const __m256 left = evens_of(a, b), middle = odds_of(a, b);
  const __m256i next = _mm256_setr_epi32(1, 2, 3, 4, 5, 6, 7, 7);
  const __m256 right =
      _mm256_blend_ps(_mm256_permutevar8x32_ps(left, next), _mm256_broadcast_ss(x + 16), 0x80);
  const __m256 lowest = _mm256_set1_ps(-__builtin_inff());
  RowMaxima m;
  m.first = _mm256_max_ps(right, _mm256_max_ps(middle, left));
  m.rest = _mm256_max_ps(right, _mm256_max_ps(middle, _mm256_max_ps(left, lowest)));
  return m;
}

// Output rows a band of max_rows_3x3s2_avx2 covers: its input rows stay in L2 while the band's
// columns go by, 8 outputs at a time down the band.
constexpr int64_t kBandRows = 8;

}  // namespace

bool max_rows_3x3s2_avx2(float* out, int64_t out_step, const float* src, int64_t src_step,
                         int64_t out_rows, int64_t n) {
  if (n < 8) return false;
  for (int64_t b0 = 0; b0 < out_rows; b0 += kBandRows) {
    const int64_t b1 = out_rows - b0 < kBandRows ? out_rows : b0 + kBandRows;
    for (int64_t o = 0; o < n; o += 8) {
      // The last vector ends at the row's end, computing a few outputs again (the same bits).
      if (o + 8 > n) o = n - 8;
      const float* column = src + 2 * o;
      // The window's first row of output row j is the last row of output row j - 1's.
      __m256 top = row_maxima_3s2(column + 2 * b0 * src_step).first;
      for (int64_t j = b0; j < b1; ++j) {
        const RowMaxima middle = row_maxima_3s2(column + (2 * j + 1) * src_step);
        const RowMaxima bottom = row_maxima_3s2(column + (2 * j + 2) * src_step);
        const __m256 best = _mm256_max_ps(bottom.rest, _mm256_max_ps(middle.rest, top));
        _mm256_storeu_ps(out + j * out_step + o, best);
        top = bottom.first;
      }
    }
  }
  return true;
}

int64_t fold_sum_avx2(float* acc, const float* src, int64_t n, int64_t stride, int64_t kernel,
                      int64_t dilation) {
  const int64_t span = vector_span(n, stride);
  const int64_t done = span > 0 ? span / 8 * 8 : 0;
  for (int64_t o = 0; o < done; o += 8) {
    __m256 sum = _mm256_loadu_ps(acc + o);
    for (int64_t kw = 0; kw < kernel; ++kw)
      sum = _mm256_add_ps(sum, load_strided(src + o * stride + kw * dilation, stride));
    _mm256_storeu_ps(acc + o, sum);
  }
  return done;
}

// src[o * stride] for the lanes o < count (the others zero, and nothing read for them):
// stride 1 or 2.
__m256 load_strided_masked(const float* src, int64_t stride, int64_t count) {
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
  if (stride == 1)
    return _mm256_maskload_ps(src,
                              _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), lane));
  // Even elements j of src[0 .. 16) with j / 2 < count: lane l of the first half is element l,
  // of the second element 8 + l.
  // Odd elements are never read: their count is out of reach.
  constexpr int kNever = 0x7fffffff;
  const __m256i even = _mm256_setr_epi32(0, kNever, 1, kNever, 2, kNever, 3, kNever);
  const __m256i first = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), even);
  const __m256i second = _mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count) - 4), even);
  return evens_of(_mm256_maskload_ps(src, first), _mm256_maskload_ps(src + 8, second));
}

namespace {

// The first `count` lanes of v (count <= 8) at p, in pieces of 4, 2 and 1: a masked store is
// many micro-operations on AMD Zen 3.
void store_first(float* p, __m256 v, int64_t count) {
  if (count == 8) return _mm256_storeu_ps(p, v);
  __m128 part = _mm256_castps256_ps128(v);
  if (count >= 4) {
    _mm_storeu_ps(p, part);
    part = _mm256_extractf128_ps(v, 1);
    p += 4, count -= 4;
  }
  if (count >= 2) {
    _mm_storel_pi(reinterpret_cast<__m64*>(p), part);
    part = _mm_movehl_ps(part, part);
    p += 2, count -= 2;
  }
  if (count == 1) _mm_store_ss(p, part);
}

// kRows output rows' vectors at columns [o, o + count) from row oh on, each the sum from +0
// over the window rows, then columns, in order, divided by its divisors; the rows' chains of
// adds are independent, so that their latencies overlap. With kWhole (count 8) whole loads and
// stores; else lanes past count are neither read nor written.
template <int kRows, bool kWhole>
void average_rows(float* out, const float* padded, int64_t padded_w, int64_t out_w,
                  int64_t stride_h, int64_t stride_w, int64_t kernel_h, int64_t kernel_w,
                  int64_t dilation_h, int64_t dilation_w, const float* divisors, int64_t oh,
                  int64_t o, int64_t count) {
  const float* window = padded + oh * stride_h * padded_w + o * stride_w;
  const int64_t row_step = stride_h * padded_w;
  __m256 sum[kRows];
  for (int r = 0; r < kRows; ++r) sum[r] = _mm256_setzero_ps();
  for (int64_t kh = 0; kh < kernel_h; ++kh)
    for (int64_t kw = 0; kw < kernel_w; ++kw) {
      const float* tap = window + kh * dilation_h * padded_w + kw * dilation_w;
      for (int r = 0; r < kRows; ++r) {
        const float* at = tap + r * row_step;
        const __m256 v =
            kWhole ? load_strided(at, stride_w) : load_strided_masked(at, stride_w, count);
        sum[r] = _mm256_add_ps(sum[r], v);
      }
    }
  for (int r = 0; r < kRows; ++r) {
    const int64_t at = (oh + r) * out_w + o;
    if constexpr (kWhole) {
      _mm256_storeu_ps(out + at, _mm256_div_ps(sum[r], _mm256_loadu_ps(divisors + at)));
    } else {
      // Masked-off lanes divide 0 by 1, not by what lies past the row.
      const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
      const __m256 mask =
          _mm256_castsi256_ps(_mm256_cmpgt_epi32(_mm256_set1_epi32(static_cast<int>(count)), lane));
      const __m256 divisor = _mm256_blendv_ps(
          _mm256_set1_ps(1.0f), _mm256_maskload_ps(divisors + at, _mm256_castps_si256(mask)), mask);
      store_first(out + at, _mm256_div_ps(sum[r], divisor), count);
    }
  }
}

}  // namespace

void average_padded_plane_avx2(float* out, const float* padded, int64_t padded_w, int64_t out_h,
                               int64_t out_w, int64_t stride_h, int64_t stride_w, int64_t kernel_h,
                               int64_t kernel_w, int64_t dilation_h, int64_t dilation_w,
                               const float* divisors) {
  // Whole vectors read only what the windows read: at stride 1 each lane's window; at stride 2
  // one element past the last lane's, which is the next output's when there is one. So at
  // stride 1 the row's last vector ends at the row's end (a few outputs computed again, the
  // same bits), and at stride 2 the row ends through masks.
  const int64_t whole_end = stride_w == 1 ? out_w : out_w - 1;
  for (int64_t oh = 0; oh < out_h; oh += kAverageRows)
    with_row_count(out_h - oh, [&](auto rows) {
      constexpr int kRows = decltype(rows)::value;
      int64_t o = 0;
      for (; o + 8 <= whole_end; o += 8)
        average_rows<kRows, true>(out, padded, padded_w, out_w, stride_h, stride_w, kernel_h,
                                  kernel_w, dilation_h, dilation_w, divisors, oh, o, 8);
      if (o == out_w) return;
      if (stride_w == 1 && out_w >= 8)
        average_rows<kRows, true>(out, padded, padded_w, out_w, stride_h, stride_w, kernel_h,
                                  kernel_w, dilation_h, dilation_w, divisors, oh, out_w - 8, 8);
      else
        for (; o < out_w; o += 8)
          average_rows<kRows, false>(out, padded, padded_w, out_w, stride_h, stride_w, kernel_h,
                                     kernel_w, dilation_h, dilation_w, divisors, oh, o,
                                     out_w - o < 8 ? out_w - o : 8);
    });
}

#define POOL_FN(name) name##_avx2
#define POOL_LANES 8
#include "core/kernels/pool_body.inc"
#undef POOL_LANES
#undef POOL_FN

}  // namespace onnxtool::kernels::detail
