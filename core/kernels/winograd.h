// SPDX-License-Identifier: Apache-2.0
// Winograd's minimal filtering F(4x4, 3x3) for stride-1, undilated 3x3 convolutions: each 4x4
// block of outputs (a tile) comes from a 6x6 block of inputs with 36 multiplications per input
// and output channel pair where the direct product takes 144, so a layer needs a quarter of the
// multiply-adds. The price is rounding: the transforms scale values by up to 8 and sum them, so
// results differ from the direct sum by a few units in the last place of the largest term (the
// tests bound it against a float64 convolution). F(2x2, 3x3), for planes too small for 4x4
// tiles to pay: 2x2 tiles from 4x4 blocks, 16 multiplications for the direct path's 36, with
// transforms of adds and subtractions only (closer to the direct sum).
//
// The steps, per image and group:
//   U_xi = (G g G^T)_xi   for every filter g, once (WinogradFilter: 36 matrices out x in),
//   V_xi = (B^T d B)_xi   for every input tile d and channel (winograd_input),
//   M_xi = U_xi V_xi      36 matrix products (WinogradFilter::multiply),
//   Y    = A^T M A        per tile and output channel (winograd_output),
// with xi = 6 a + b indexing the 6x6 transformed positions (for F(2x2, 3x3): 16, xi = 4 a + b).
// Every step has one order of operations on every CPU: the transforms are fixed sequences of adds
// and multiplies (lanes run over tiles, one tile each, compiled without contraction), and the
// products take gemm.h's order. So the results do not change with the vector width or the thread
// count.
#pragma once

#include <cstdint>
#include <vector>

#include "core/kernels/epilogue.h"
#include "core/kernels/gemm.h"

namespace onnxtool::kernels {

// False when the environment sets ONNXTOOL_WINOGRAD=0 (or off): Conv then takes its direct
// path, for comparing the two. Read once per process.
bool winograd_enabled();

// Outputs a tile has along each axis: 4 for F(4x4, 3x3), 2 for F(2x2, 3x3).
constexpr int64_t kWinogradTile4 = 4;
constexpr int64_t kWinogradTile2 = 2;

// Transformed positions of a tile size: (tile + 2)^2.
constexpr int64_t winograd_positions(int64_t tile) {
  return (tile + 2) * (tile + 2);
}

// The transformed filters of one group: out_channels x in_channels x 3 x 3, as a Conv's W.
class WinogradFilter {
 public:
  WinogradFilter() = default;
  WinogradFilter(int64_t out_channels, int64_t in_channels, const float* w,
                 SimdLevel level = simd_level(), int64_t tile = kWinogradTile4);
  int64_t out_channels() const { return out_; }
  int64_t in_channels() const { return in_; }
  int64_t tile() const { return tile_; }
  int64_t positions() const { return winograd_positions(tile_); }
  // Row blocks of multiply() start at a multiple of this.
  int64_t row_align() const { return packed_.empty() ? 1 : packed_.front().row_align(); }
  // Columns the products handle at full width (a register tile's width).
  int64_t col_quantum() const;
  // Where multiply() reads V_xi (in_channels x cols) from: the products' packed layout where
  // they are packed, so that the input transform writes what they read and nothing packs it
  // again (for every task that shares a block of tiles); plain rows (cols apart) where not.
  PackedBLayout input_layout(int64_t cols) const;

  // For each xi: rows [r0, r1) of M_xi = U_xi V_xi for `cols` tiles. V_xi is at
  // v + xi * v_xi_stride in input_layout(cols); M_xi goes to m + xi * m_xi_stride, rows ldm
  // apart.
  void multiply(int64_t r0, int64_t r1, const float* v, int64_t v_xi_stride, int64_t cols, float* m,
                int64_t m_xi_stride, int64_t ldm) const;

 private:
  int64_t out_ = 0, in_ = 0, tile_ = kWinogradTile4;
  std::vector<PackedA<float>> packed_;  // one per xi, where the SIMD products run
  std::vector<float> plain_;            // xi-major, out x in each, where they do not
};

// One image's plane geometry: a 3x3 window, stride 1, no dilation; and the tile size.
struct WinogradPlane {
  int64_t in_h = 0, in_w = 0, out_h = 0, out_w = 0, pad_top = 0, pad_left = 0;
  int64_t tile = kWinogradTile4;
  int64_t tiles_h() const { return (out_h + tile - 1) / tile; }
  int64_t tiles_w() const { return (out_w + tile - 1) / tile; }
  // Tiles are numbered row by row.
  int64_t tiles() const { return tiles_h() * tiles_w(); }
};

// V for tiles [t0, t1) and channels [c0, c1) of x (the image's channel planes, in_h x in_w
// each), in `layout` (a WinogradFilter's input_layout(t1 - t0)): the value of channel c, tile t
// at position xi goes to v[xi * xi_stride + layout.offset(c, t - t0)]. The layout's padding
// columns of those channels are set to zero.
void winograd_input(const WinogradPlane& plane, const float* x, int64_t c0, int64_t c1, int64_t t0,
                    int64_t t1, const PackedBLayout& layout, float* v, int64_t xi_stride);

// What follows the sum in each output element, in this order (each skipped when null or none):
// + bias[channel], + residual (laid out as y), then the activation. The order of a Conv's
// epilogue, so the same operations as in its direct path.
struct WinogradFinish {
  const float* bias = nullptr;      // indexed by the output channel
  const float* residual = nullptr;  // the image's planes, as y
  Epilogue activation;
};

// Y's channels [r0, r1), tiles [t0, t1) from M: channel r, tile t at position xi is
// m[xi * xi_stride + (r - r0) * ldm + (t - t0)]. y: the image's output planes (out_h x out_w);
// only elements inside the plane are written.
void winograd_output(const WinogradPlane& plane, const float* m, int64_t xi_stride, int64_t ldm,
                     int64_t r0, int64_t r1, int64_t t0, int64_t t1, const WinogradFinish& finish,
                     float* y);

// The float64 filter transform, for tests: U (positions x 1) of one 3x3 filter, xi = 6 a + b
// (tile 4) or 4 a + b (tile 2).
void winograd_filter_reference(const double* g, double* u, int64_t tile = kWinogradTile4);

}  // namespace onnxtool::kernels
