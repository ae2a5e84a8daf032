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

// Rows [r0, r1) for output positions [p0, p1) of one group (xg: its first channel), row r
// written at col + (r - r0) * ld.
template <class T>
void im2col_rows(const Window& w, const T* xg, int64_t r0, int64_t r1, int64_t p0, int64_t p1,
                 T* col, int64_t ld, T pad = T(0)) {
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
