// SPDX-License-Identifier: Apache-2.0
// Running maxima and sums along a row of output positions: the inner loop of the pooling
// operators' 2-D planes (ops/onnx/pool_common.cpp). For o in [0, n), acc[o] takes in one input
// row's window: src[o * stride + kw * dilation] for kw in [0, kernel), in that order. AVX2 for
// strides 1 and 2 where the CPU has it, with the bits of the scalar definitions below.
#pragma once

#include <cstdint>

namespace onnxtool::kernels {

struct RowWindow {
  int64_t n = 0;  // output positions
  int64_t stride = 1, kernel = 1, dilation = 1;
};

// out[o] = the maximum over `rows` window rows (row r at src + r * row_step, rows >= 1): their
// values v in order (row, then src[o * stride + kw * dilation] for kw in [0, kernel)), the first
// seeding, then best = v > best ? v : best. A NaN first value stays, a later NaN is passed over
// (as MaxPool's reference loop does). One output row of a 2-D MaxPool, in registers.
void max_rows(float* out, const float* src, int64_t row_step, int64_t rows, const RowWindow& w);
// max_rows of a 3x3 window, undilated, at stride 2 along both axes, for out_rows output rows of
// n outputs each at once: output row j's window rows start at src + 2 * j * src_step (rows
// src_step apart), and its outputs go to out + j * out_step. An input row two output rows
// share is read once for both, its maxima taken row by row first, then across the rows (the
// same bits: see pool_avx512.cpp). False (nothing done) where the CPU has neither AVX-512 nor
// AVX2, or has only AVX2 and n < 8.
bool max_rows_3x3_stride2(float* out, int64_t out_step, const float* src, int64_t src_step,
                          int64_t out_rows, int64_t n);
// For each v in order: acc[o] = acc[o] + v.
void fold_sum(float* acc, const float* src, const RowWindow& w);

// An average over a plane whose windows are all whole (already in its zero border, or without
// padding): output (oh, o) is the sum, from +0, of padded[(oh * stride_h + kh * dilation_h) *
// padded_w + o * stride_w + kw * dilation_w] for kh, then kw, in order (fold_sum's order, row
// after row), divided by divisors[oh * out_w + o]; out and divisors are out_h x out_w. Vector
// code for stride_w 1 and 2.
struct PaddedAverage {
  const float* padded = nullptr;
  int64_t padded_w = 0, out_h = 0, out_w = 0;
  int64_t stride_h = 1, stride_w = 1;
  int64_t kernel_h = 1, kernel_w = 1, dilation_h = 1, dilation_w = 1;
  const float* divisors = nullptr;
};
void average_padded_plane(float* out, const PaddedAverage& a);

// One MaxPool plane at stride 1 with undilated kernel_h x kernel_w windows (at most
// kMaxSeparableKernel a side) whose padding, before (top, left) and after, is smaller than the
// window, and as many outputs along a row as inputs (out_w = in_w): out[i * in_w + o] is the
// maximum of src's values (in_h x in_w) in rows [i - top, i - top + kernel_h) and columns
// [o - left, o - left + kernel_w) inside the plane. Separable: the maxima along each row's
// windows first, then along the windows' rows (k - 1 comparisons an output for each, where a
// window takes k^2 - 1), each pass over the plane as one run of vectors. For a plane
// without NaN that is max_rows' value bit for bit: a later value replaces the maximum only when
// greater, so both keep the first of equal values (+0 and -0) in row-major order, the first row
// holding the maximum and the first in it. Where the plane holds a NaN it returns false, writing
// nothing: a window's first NaN stays and a later one is passed over, which rows taken apart
// cannot follow.
constexpr int64_t kMaxSeparableKernel = 32;
struct SeparableMax {
  const float* src = nullptr;
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0;
  int64_t top = 0, left = 0, kernel_h = 1, kernel_w = 1;
};
// Floats of scratch separable_max_plane takes.
int64_t separable_max_scratch(const SeparableMax& p);
bool separable_max_plane(float* out, const SeparableMax& p, float* scratch);

}  // namespace onnxtool::kernels
