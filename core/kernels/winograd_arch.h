// SPDX-License-Identifier: Apache-2.0
// What winograd.cpp hands to its SIMD variants (winograd_avx2.cpp, winograd_avx512.cpp): the
// transforms of winograd_body.inc, compiled once per ISA without contraction. Plain C++ loops
// over tiles that the compiler vectorises; the same source on every ISA gives the same bits.
// Includes only this plain header (see gemm_arch.h for why).
#pragma once

#include <cstdint>

#include "core/kernels/epilogue.h"

namespace onnxtool::kernels::detail {

// Tiles one call of the transforms below handles at most.
constexpr int64_t kWinogradRun = 64;

// The tiles of one image plane (h x w) that a run covers: tiles [first, first + n) in row-major
// order over tiles_w tiles a row, n <= kWinogradRun. With M outputs a tile along each axis (4 for
// F(4x4, 3x3), 2 for F(2x2, 3x3)), tile t's (M + 2) x (M + 2) input block starts at row
// M (t / tiles_w) - pad_top, column M (t % tiles_w) - pad_left; what lies outside the plane is
// zero.
struct TileRun {
  int64_t h, w, tiles_w, pad_top, pad_left, first, n;
};
// Input transform of a run of tiles of one channel plane: position xi of the run's tile j goes
// to v[xi * xi_stride + j].
struct InputRun {
  const float* plane;
  TileRun tiles;
  float* v;
  int64_t xi_stride;
};
// Output transform of a run of tiles of one output channel: position xi of the run's tile j is
// m[xi * xi_stride + j]. Tile t's M x M outputs, plus *bias when bias is not null, then through
// the activation (Epilogue's arithmetic), go to rows M (t / tiles_w) .., columns
// M (t % tiles_w) .. of the plane y (out_h x out_w), as far as they lie inside it.
struct OutputRun {
  const float* m;
  int64_t xi_stride;
  int64_t out_h, out_w, tiles_w, first, n;
  const float* bias;
  float* y;
  Epilogue activation = {};
};

// F(4x4, 3x3): 36 positions.
void winograd_input_generic(const InputRun& r);
void winograd_output_generic(const OutputRun& r);
void winograd_input_avx2(const InputRun& r);
void winograd_output_avx2(const OutputRun& r);
void winograd_input_avx512(const InputRun& r);
void winograd_output_avx512(const OutputRun& r);
// F(2x2, 3x3): 16 positions.
void winograd_input2_generic(const InputRun& r);
void winograd_output2_generic(const OutputRun& r);
void winograd_input2_avx2(const InputRun& r);
void winograd_output2_avx2(const OutputRun& r);
void winograd_input2_avx512(const InputRun& r);
void winograd_output2_avx512(const OutputRun& r);

}  // namespace onnxtool::kernels::detail
