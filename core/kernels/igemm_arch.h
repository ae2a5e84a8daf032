// SPDX-License-Identifier: Apache-2.0
// What igemm.cpp hands to the ISA-specific integer kernels (igemm_avx2.cpp, igemm_vnni512.cpp).
// Like gemm_arch.h: those files are compiled with their ISA's flags, so they include only this
// plain header and the compiler's intrinsics.
//
// The packed layouts (all bytes, k in quads of four, zero past k):
//   A: panels of kIntMr rows; panel p holds, quad by quad, row r's four signed bytes at
//      [quad * kIntMr * 4 + r * 4]. Rows past m are zero.
//   B: tiles of kIntNr columns; tile t holds, quad by quad, column c's four unsigned bytes at
//      [quad * kIntNr * 4 + c * 4]. Columns past n are zero.
#pragma once

#include <cstdint>

namespace onnxtool::kernels::detail {

constexpr int64_t kIntMr = 8;
constexpr int64_t kIntNr = 32;
// Quads of k one tile covers at most (igemm's blocks along k).
constexpr int64_t kIntKcQuads = 128;

// One register tile: C[0..rows)[0..cols) (= or +=, by `accumulate`) the product of an A panel
// and a B tile over `quads` quads, C row-major with stride ldc. rows <= kIntMr, cols <= kIntNr.
struct IntTile {
  const int8_t* a;
  const uint8_t* b;
  int64_t quads;
  int32_t* c;
  int64_t ldc;
  int rows, cols;
  bool accumulate;
  // The previous tile on this thread had the same A panel and quads (the next column tile of
  // a row panel): a kernel that prepares A may reuse what it made.
  bool a_as_before;
};

void int_tile_avx2(const IntTile& t);
void int_tile_vnni512(const IntTile& t);

}  // namespace onnxtool::kernels::detail
