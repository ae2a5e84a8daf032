// SPDX-License-Identifier: Apache-2.0
// im2col, shared by the convolutions (Conv in float, ConvInteger and QLinearConv in bytes): the
// rows of the matrix whose row (c * K + k) holds, for each output position, the input of
// channel c under kernel offset k, or `pad` where the window lies in the padding.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "ops/onnx/nn_common.h"

namespace onnxtool::ops::nn {

// One run along the last spatial axis: dst[j] = src[(o + j) * stride + off] where that index
// lies in [0, len), else pad.
template <class T>
void copy_run(const T* src, int64_t len, int64_t o, int64_t run, int64_t stride, int64_t off, T pad,
              T* dst) {
  // The outputs j whose input index falls inside [0, len).
  const int64_t first = std::max<int64_t>(0, (-off - o * stride + stride - 1) / stride);
  int64_t last = (len - 1 - off - o * stride);
  last = last < 0 ? 0 : last / stride + 1;
  const int64_t lo = std::min(first, run), hi = std::clamp<int64_t>(last, lo, run);
  std::fill(dst, dst + lo, pad);
  const T* s = src + o * stride + off;
  if (stride == 1)
    std::memcpy(dst + lo, s + lo, static_cast<std::size_t>(hi - lo) * sizeof(T));
  else
    for (int64_t j = lo; j < hi; ++j) dst[j] = s[j * stride];
  std::fill(dst + hi, dst + run, pad);
}

// im2col_rows for two spatial dims: each row's valid columns computed once, and the short runs
// of a small plane (14 positions a row) copied inline rather than by library calls.
template <class T>
void im2col_rows_2d(const Window& w, const T* xg, int64_t r0, int64_t r1, int64_t p0, int64_t p1,
                    T* col, int64_t ld, T pad) {
  const int64_t ih = w.in[0], iw = w.in[1], ow = w.out[1], kw = w.kernel[1];
  const int64_t sh = w.stride[0], sw = w.stride[1], kernel = w.kernel[0] * kw;
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t c = r / kernel, ky = r % kernel / kw, kx = r % kernel % kw;
    const T* src = xg + c * ih * iw;
    const int64_t off_y = ky * w.dilation[0] - w.pad_begin[0];
    const int64_t off_x = kx * w.dilation[1] - w.pad_begin[1];
    // Output columns [lo, hi) read inside the input row.
    const int64_t lo = std::clamp<int64_t>((-off_x + sw - 1) / sw, 0, ow);
    const int64_t hi =
        iw - 1 - off_x < 0 ? lo : std::clamp<int64_t>((iw - 1 - off_x) / sw + 1, lo, ow);
    T* dst = col + (r - r0) * ld;
    for (int64_t p = p0; p < p1;) {
      const int64_t oy = p / ow, ox0 = p % ow, n = std::min(ow - ox0, p1 - p);
      const int64_t iy = oy * sh + off_y;
      if (iy < 0 || iy >= ih) {
        for (int64_t j = 0; j < n; ++j) dst[j] = pad;
      } else {
        const T* s = src + iy * iw + off_x;
        const int64_t a = std::clamp(lo, ox0, ox0 + n), b = std::clamp(hi, a, ox0 + n);
        for (int64_t ox = ox0; ox < a; ++ox) dst[ox - ox0] = pad;
        if (sw == 1)
          for (int64_t ox = a; ox < b; ++ox) dst[ox - ox0] = s[ox];
        else
          for (int64_t ox = a; ox < b; ++ox) dst[ox - ox0] = s[ox * sw];
        for (int64_t ox = b; ox < ox0 + n; ++ox) dst[ox - ox0] = pad;
      }
      dst += n;
      p += n;
    }
  }
}

// Rows [r0, r1) for all output positions of a 2-D window (xg: the group's first channel), row r
// at col + (r - r0) * ld, for small planes: each channel copied once into a border of `pad`
// values, so that every row of columns is runs of the padded plane without edge tests.
// im2col_rows's per-run edge work was a quarter of a 3x3 float layer on a 7x7 plane of 224
// channels, and for bytes (runs of 7) most of making a 512-channel 7x7 layer's columns.
template <class T>
void im2col_rows_padded(const Window& w, const T* xg, int64_t r0, int64_t r1, T* col, int64_t ld,
                        T pad) {
  const int64_t ih = w.in[0], iw = w.in[1], oh = w.out[0], ow = w.out[1];
  const int64_t top = w.pad_begin[0], left = w.pad_begin[1];
  const int64_t kh = w.kernel[0], kw = w.kernel[1], sh = w.stride[0], sw = w.stride[1];
  const int64_t dh = w.dilation[0], dw = w.dilation[1], kernel = kh * kw;
  // The padded plane spans every tap the windows read (pads at the end may be shorter).
  const int64_t ph = std::max(top + ih, (oh - 1) * sh + (kh - 1) * dh + 1);
  const int64_t pw = std::max(left + iw, (ow - 1) * sw + (kw - 1) * dw + 1);
  thread_local std::vector<T> padded;
  padded.assign(static_cast<std::size_t>(ph * pw), pad);
  int64_t channel = -1;
  for (int64_t r = r0; r < r1; ++r) {
    if (r / kernel != channel) {
      channel = r / kernel;
      const T* x = xg + channel * ih * iw;
      for (int64_t y = 0; y < ih; ++y)
        std::copy(x + y * iw, x + (y + 1) * iw, padded.data() + (top + y) * pw + left);
    }
    const int64_t ky = r % kernel / kw, kx = r % kernel % kw;
    T* dst = col + (r - r0) * ld;
    for (int64_t oy = 0; oy < oh; ++oy, dst += ow) {
      const T* src = padded.data() + (oy * sh + ky * dh) * pw + kx * dw;
      if (sw == 1)
        std::copy(src, src + ow, dst);
      else
        for (int64_t ox = 0; ox < ow; ++ox) dst[ox] = src[ox * sw];
    }
  }
}

// Rows [r0, r1) for output positions [p0, p1) of one group (xg: its first channel), row r
// written at col + (r - r0) * ld.
template <class T>
void im2col_rows(const Window& w, const T* xg, int64_t r0, int64_t r1, int64_t p0, int64_t p1,
                 T* col, int64_t ld, T pad = T(0)) {
  if (w.rank() == 2) return im2col_rows_2d(w, xg, r0, r1, p0, p1, col, ld, pad);
  const std::size_t rank = w.rank(), last = rank - 1;
  const int64_t kernel = w.kernel_size(), in_size = w.in_size();
  std::vector<int64_t> k(rank), off(rank), o(rank);
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t c = r / kernel, kk = r % kernel;
    const T* src = xg + c * in_size;
    for (std::size_t a = rank, rest = static_cast<std::size_t>(kk); a-- > 0;) {
      k[a] = static_cast<int64_t>(rest) % w.kernel[a];
      rest /= static_cast<std::size_t>(w.kernel[a]);
      off[a] = k[a] * w.dilation[a] - w.pad_begin[a];
    }
    for (std::size_t a = rank, rest = static_cast<std::size_t>(p0); a-- > 0;) {
      o[a] = static_cast<int64_t>(rest) % w.out[a];
      rest /= static_cast<std::size_t>(w.out[a]);
    }
    T* dst = col + (r - r0) * ld;
    for (int64_t p = p0; p < p1;) {
      const int64_t run = std::min(w.out[last] - o[last], p1 - p);
      int64_t base = 0;
      bool inside = true;
      for (std::size_t a = 0; a < last; ++a) {
        const int64_t i = o[a] * w.stride[a] + off[a];
        inside = inside && i >= 0 && i < w.in[a];
        base = base * w.in[a] + i;
      }
      if (inside)
        copy_run(src + base * w.in[last], w.in[last], o[last], run, w.stride[last], off[last], pad,
                 dst);
      else
        std::fill(dst, dst + run, pad);
      dst += run;
      p += run;
      o[last] += run;
      for (std::size_t a = last; a > 0 && o[a] == w.out[a]; --a) {
        o[a] = 0;
        ++o[a - 1];
      }
    }
  }
}

}  // namespace onnxtool::ops::nn
