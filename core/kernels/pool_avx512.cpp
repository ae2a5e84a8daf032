// SPDX-License-Identifier: Apache-2.0
// The pooling folds for AVX-512 (see pool_arch.h for what may be included): 16 outputs a
// vector, the row ends through mask registers (masked-off lanes are neither read nor written,
// so nothing past a window is touched), strided windows through one two-source permutation.
#include "core/kernels/lanes_avx512.h"
#include "core/kernels/pool_arch.h"

namespace onnxtool::kernels::detail {

namespace {

constexpr int64_t kLanes = kLanes512;

// vmaxps: its second operand when the first is not greater (NaNs included), so `v > best ? v :
// best` for max_of(v, best). Through the masked form: GCC 12's plain _mm512_max_ps passes an
// undefined vector that -Wmaybe-uninitialized reports.
__m512 max_of(__m512 v, __m512 best) {
  return _mm512_mask_max_ps(best, static_cast<__mmask16>(0xffff), v, best);
}

template <int kValue>
using Constant = std::integral_constant<int, kValue>;

// f(window, stride) with a 3x3 window (no dilation) at stride 1 or 2 as constants, so that the
// taps unroll and the loop counters stay in registers; else f(0, 0): the general loops.
template <class F>
void with_window_constants(bool three_by_three, int64_t stride, F&& f) {
  if (three_by_three && stride == 1)
    f(Constant<3>{}, Constant<1>{});
  else if (three_by_three && stride == 2)
    f(Constant<3>{}, Constant<2>{});
  else
    f(Constant<0>{}, Constant<0>{});
}

// kV vectors of outputs (kLanes apart; the last has `last_count` lanes) over `rows` window rows
// (row_step apart), each lane's values in the definition's order: the first seeds. The vectors'
// chains of maxima are independent, so that their latencies overlap (a chain is 9 dependent
// maxima for a 3x3 window). kWindow and kStride, when not 0, are a square window's size (as
// many rows as columns, no dilation) and the stride, as constants: the taps unroll and the
// loop counters stay out of memory.
template <int kV, int kWindow, int kStride>
void max_vectors(float* out, const float* src, int64_t row_step, int64_t rows, int64_t stride,
                 int64_t kernel, int64_t dilation, int64_t last_count) {
  if constexpr (kWindow != 0) {
    rows = kernel = kWindow;
    dilation = 1;
  }
  if constexpr (kStride != 0) stride = kStride;
  auto count_of = [&](int v) { return v == kV - 1 ? last_count : kLanes; };
  __m512 best[kV];
  for (int v = 0; v < kV; ++v)
    best[v] = load_strided(src + v * kLanes * stride, stride, count_of(v));
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t kw = r == 0 ? 1 : 0; kw < kernel; ++kw) {
      const float* at = src + r * row_step + kw * dilation;
      for (int v = 0; v < kV; ++v)
        best[v] = max_of(load_strided(at + v * kLanes * stride, stride, count_of(v)), best[v]);
    }
  for (int v = 0; v < kV; ++v)
    _mm512_mask_storeu_ps(out + v * kLanes, first_lanes(count_of(v)), best[v]);
}

// A row of n outputs through max_vectors<.., kWindow, kStride>, two vectors at a time.
template <int kWindow, int kStride>
void max_row(float* out, const float* src, int64_t row_step, int64_t rows, int64_t n,
             int64_t stride, int64_t kernel, int64_t dilation) {
  int64_t o = 0;
  for (; n - o > kLanes; o += 2 * kLanes) {
    const int64_t last = n - o - kLanes < kLanes ? n - o - kLanes : kLanes;
    max_vectors<2, kWindow, kStride>(out + o, src + o * stride, row_step, rows, stride, kernel,
                                     dilation, last);
  }
  if (o < n)
    max_vectors<1, kWindow, kStride>(out + o, src + o * stride, row_step, rows, stride, kernel,
                                     dilation, n - o);
}

}  // namespace

int64_t max_rows_avx512(float* out, const float* src, int64_t row_step, int64_t rows, int64_t n,
                        int64_t stride, int64_t kernel, int64_t dilation) {
  if (stride != 1 && stride != 2) return 0;
  with_window_constants(rows == 3 && kernel == 3 && dilation == 1, stride,
                        [&](auto window, auto step) {
                          max_row<decltype(window)::value, decltype(step)::value>(
                              out, src, row_step, rows, n, stride, kernel, dilation);
                        });
  return n;
}

int64_t fold_sum_avx512(float* acc, const float* src, int64_t n, int64_t stride, int64_t kernel,
                        int64_t dilation) {
  if (stride != 1 && stride != 2) return 0;
  for (int64_t o = 0; o < n; o += kLanes) {
    const int64_t count = n - o < kLanes ? n - o : kLanes;
    const __mmask16 mask = first_lanes(count);
    __m512 sum = _mm512_maskz_loadu_ps(mask, acc + o);
    for (int64_t kw = 0; kw < kernel; ++kw)
      sum = _mm512_add_ps(sum, load_strided(src + o * stride + kw * dilation, stride, count));
    _mm512_mask_storeu_ps(acc + o, mask, sum);
  }
  return n;
}

namespace {

// kRows output rows' vectors at columns [o, o + count) from row oh on, each the sum from +0
// over the window rows, then columns, in order (as the definition adds), divided by its
// divisors. The rows' chains of adds are independent, so that their latencies overlap (a row
// at a time, a 3x3 window's nine dependent adds and the division left 14x14 planes
// latency-bound). kKernel and kStride, when not 0, are the window's size (both axes, no
// dilation) and its stride along the width, as constants: a 3x3 window's taps then unroll and
// its loop counters no longer spill (Inception's 3x3 averages took twice as long through the
// general loops).
template <int kRows, int kKernel, int kStride>
void average_rows(float* out, const float* padded, int64_t padded_w, int64_t out_w,
                  int64_t stride_h, int64_t stride_w, int64_t kernel_h, int64_t kernel_w,
                  int64_t dilation_h, int64_t dilation_w, const float* divisors, int64_t oh,
                  int64_t o, int64_t count) {
  if constexpr (kKernel != 0) {
    kernel_h = kernel_w = kKernel;
    dilation_h = dilation_w = 1;
  }
  if constexpr (kStride != 0) stride_w = kStride;
  const __mmask16 mask = first_lanes(count);
  const float* window = padded + oh * stride_h * padded_w + o * stride_w;
  const int64_t row_step = stride_h * padded_w;
  __m512 sum[kRows];
  for (int r = 0; r < kRows; ++r) sum[r] = _mm512_setzero_ps();
  for (int64_t kh = 0; kh < kernel_h; ++kh)
    for (int64_t kw = 0; kw < kernel_w; ++kw) {
      const float* tap = window + kh * dilation_h * padded_w + kw * dilation_w;
      for (int r = 0; r < kRows; ++r)
        sum[r] = _mm512_add_ps(sum[r], load_strided(tap + r * row_step, stride_w, count));
    }
  for (int r = 0; r < kRows; ++r) {
    const int64_t at = (oh + r) * out_w + o;
    // Masked-off lanes divide 0 by 1, not by what lies past the row.
    const __m512 divisor = _mm512_mask_loadu_ps(_mm512_set1_ps(1.0f), mask, divisors + at);
    _mm512_mask_storeu_ps(out + at, mask, _mm512_div_ps(sum[r], divisor));
  }
}

// Every output row and column of the plane through average_rows<.., kKernel, kStride>.
template <int kKernel, int kStride>
void average_all_rows(float* out, const float* padded, int64_t padded_w, int64_t out_h,
                      int64_t out_w, int64_t stride_h, int64_t stride_w, int64_t kernel_h,
                      int64_t kernel_w, int64_t dilation_h, int64_t dilation_w,
                      const float* divisors) {
  for (int64_t oh = 0; oh < out_h; oh += kAverageRows)
    for (int64_t o = 0; o < out_w; o += kLanes) {
      const int64_t count = out_w - o < kLanes ? out_w - o : kLanes;
      with_row_count(out_h - oh, [&](auto rows) {
        average_rows<decltype(rows)::value, kKernel, kStride>(
            out, padded, padded_w, out_w, stride_h, stride_w, kernel_h, kernel_w, dilation_h,
            dilation_w, divisors, oh, o, count);
      });
    }
}

// A window row's maxima for `count` outputs at stride 2 over 3 columns (x[2j], x[2j + 1],
// x[2j + 2] for output j), in order, two ways: `first` seeded by the row's first value (the
// window's first row, where a NaN there stays), `rest` seeded by -infinity (a later row, whose
// NaNs are passed over like every other value after the window's first). Folding rows' maxima
// in row order then gives the order of the window's values, row after row: the first value
// greater than all before it, with a first NaN kept (see max_rows in pool.h).
struct RowMaxima {
  __m512 first, rest;
};

RowMaxima row_maxima_3s2(const float* x, int64_t count) {
  const __m512i evens =
      _mm512_setr_epi32(0, 2, 4, 6, 8, 10, 12, 14, 16, 18, 20, 22, 24, 26, 28, 30);
  const __m512i odds = _mm512_setr_epi32(1, 3, 5, 7, 9, 11, 13, 15, 17, 19, 21, 23, 25, 27, 29, 31);
  // The left and middle columns from the row's first 2 count values, the right from x + 2 on.
  const __m512 lo = _mm512_maskz_loadu_ps(first_lanes(2 * count), x);
  const __m512 hi = _mm512_maskz_loadu_ps(first_lanes(2 * count - kLanes), x + kLanes);
  const __m512 left = _mm512_permutex2var_ps(lo, evens, hi);
  const __m512 middle = _mm512_permutex2var_ps(lo, odds, hi);
  const __m512 right = load_strided(x + 2, 2, count);
  RowMaxima m;
  m.first = max_of(right, max_of(middle, left));
  m.rest = max_of(right, max_of(middle, max_of(left, _mm512_set1_ps(-__builtin_inff()))));
  return m;
}

// Output rows a band of max_rows_3x3s2_avx512 covers: its input rows (2 per output row, and one)
// stay in L2 while the band's columns go by, 16 outputs at a time down the band.
constexpr int64_t kBandRows = 8;

}  // namespace

void max_rows_3x3s2_avx512(float* out, int64_t out_step, const float* src, int64_t src_step,
                           int64_t out_rows, int64_t n) {
  for (int64_t b0 = 0; b0 < out_rows; b0 += kBandRows) {
    const int64_t b1 = out_rows - b0 < kBandRows ? out_rows : b0 + kBandRows;
    for (int64_t o = 0; o < n; o += kLanes) {
      const int64_t count = n - o < kLanes ? n - o : kLanes;
      const float* column = src + 2 * o;
      // The window's first row of output row j is the last row of output row j - 1's.
      __m512 top = row_maxima_3s2(column + 2 * b0 * src_step, count).first;
      for (int64_t j = b0; j < b1; ++j) {
        const RowMaxima middle = row_maxima_3s2(column + (2 * j + 1) * src_step, count);
        const RowMaxima bottom = row_maxima_3s2(column + (2 * j + 2) * src_step, count);
        const __m512 best = max_of(bottom.rest, max_of(middle.rest, top));
        _mm512_mask_storeu_ps(out + j * out_step + o, first_lanes(count), best);
        top = bottom.first;
      }
    }
  }
}

void average_padded_plane_avx512(float* out, const float* padded, int64_t padded_w, int64_t out_h,
                                 int64_t out_w, int64_t stride_h, int64_t stride_w,
                                 int64_t kernel_h, int64_t kernel_w, int64_t dilation_h,
                                 int64_t dilation_w, const float* divisors) {
  const bool three = kernel_h == 3 && kernel_w == 3 && dilation_h == 1 && dilation_w == 1;
  with_window_constants(three, stride_w, [&](auto window, auto step) {
    average_all_rows<decltype(window)::value, decltype(step)::value>(
        out, padded, padded_w, out_h, out_w, stride_h, stride_w, kernel_h, kernel_w, dilation_h,
        dilation_w, divisors);
  });
}

#define POOL_FN(name) name##_avx512
#define POOL_LANES 16
#include "core/kernels/pool_body.inc"
#undef POOL_LANES
#undef POOL_FN

}  // namespace onnxtool::kernels::detail
