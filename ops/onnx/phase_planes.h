// SPDX-License-Identifier: Apache-2.0
// A 2-D window's input laid out so that a convolution's product reads it in place: each channel
// padded with zeros and split by stride phase, so that the inputs of one kernel offset for a row
// of output positions are contiguous. Plane (c, py, px) holds at [i][j] the input
// x[c][sy * i + py - pad_top][sx * j + px - pad_left] (zero outside the input); output position
// (oy, ox) under kernel offset (c, ky, kx) then reads
//     planes + offset(c, ky, kx) + oy * width + ox,
// each kernel offset a window of one buffer (kernels::PackedGemmArgs::b_row_offsets). The copy
// is the input's size, where im2col's columns are the kernel's size times the output's.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ops/onnx/im2col.h"
#include "ops/onnx/nn_common.h"

namespace onnxtool::ops::nn {

struct PhasePlanes {
  int64_t channels = 0, sy = 1, sx = 1, height = 0, width = 0;
  int64_t plane_size() const { return height * width; }
  int64_t planes() const { return channels * sy * sx; }
  int64_t size() const { return planes() * plane_size(); }
};

// The planes of `channels` channels under window w (two spatial dims), wide enough for reads of
// the output's rows rounded up to `column_quantum` positions (a product's register tiles).
inline PhasePlanes phase_planes_of(const Window& w, int64_t channels, int64_t column_quantum) {
  PhasePlanes p;
  p.channels = channels;
  p.sy = w.stride[0];
  p.sx = w.stride[1];
  const int64_t reach_y = (w.kernel[0] - 1) * w.dilation[0] / p.sy;
  const int64_t reach_x = (w.kernel[1] - 1) * w.dilation[1] / p.sx;
  const int64_t cols = (w.out[1] + column_quantum - 1) / column_quantum * column_quantum;
  p.height = w.out[0] + reach_y;
  p.width = cols + reach_x;
  return p;
}

// Where each kernel offset's window starts, in the order of W's columns (c, ky, kx), into
// `offsets` (its contents replaced; a buffer the caller keeps between runs allocates once).
inline void phase_plane_offsets(const PhasePlanes& p, const Window& w,
                                std::vector<int64_t>& offsets) {
  const int64_t kh = w.kernel[0], kw = w.kernel[1];
  offsets.clear();
  for (int64_t c = 0; c < p.channels; ++c)
    for (int64_t ky = 0; ky < kh; ++ky)
      for (int64_t kx = 0; kx < kw; ++kx) {
        const int64_t dy = ky * w.dilation[0], dx = kx * w.dilation[1];
        const int64_t plane = (c * p.sy + dy % p.sy) * p.sx + dx % p.sx;
        offsets.push_back(plane * p.plane_size() + dy / p.sy * p.width + dx / p.sx);
      }
}

// Rows [r0, r1) of all planes (row r: plane r / height, its row r % height) from x (the
// channels' planes, w.in spatial dims), into out (p.size() elements).
template <class T>
void fill_phase_plane_rows(const PhasePlanes& p, const Window& w, const T* x, int64_t r0,
                           int64_t r1, T* out) {
  const int64_t ih = w.in[0], iw = w.in[1];
  for (int64_t r = r0; r < r1; ++r) {
    const int64_t plane = r / p.height, i = r % p.height;
    const int64_t c = plane / (p.sy * p.sx), py = plane / p.sx % p.sy, px = plane % p.sx;
    const int64_t iy = p.sy * i + py - w.pad_begin[0];
    T* dst = out + r * p.width;
    if (iy < 0 || iy >= ih) {
      std::fill(dst, dst + p.width, T(0));
      continue;
    }
    // Column j reads input column sx * j + px - pad_left (zero outside the row).
    copy_run(x + (c * ih + iy) * iw, iw, 0, p.width, p.sx, px - w.pad_begin[1], T(0), dst);
  }
}

}  // namespace onnxtool::ops::nn
