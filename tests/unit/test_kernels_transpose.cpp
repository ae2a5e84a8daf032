// SPDX-License-Identifier: Apache-2.0
// transpose_f32 (core/kernels/transpose.h): every element where the transpose puts it, on shapes
// with and without whole 8x8 blocks and with row strides wider than the rows, and nothing written
// outside the destination's rows.
#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

#include "core/kernels/transpose.h"

using namespace onnxtool;

namespace {

// A value that tells its position apart from every other one (and is exact as a float).
float tag(int64_t r, int64_t c) {
  return static_cast<float>(r * 1000 + c) + 0.5f;
}

}  // namespace

TEST_CASE("transpose_f32: dst[c][r] = src[r][c] on blocks, edges and strides") {
  constexpr float kUntouched = -7.0f;
  const int64_t shapes[][2] = {{1, 1},   {1, 13},   {13, 1},   {8, 8},   {7, 9},  {9, 7},
                               {16, 24}, {49, 160}, {49, 960}, {17, 33}, {64, 5}, {3, 64}};
  for (const auto& shape : shapes) {
    const int64_t rows = shape[0], cols = shape[1];
    const int64_t src_ld = cols + 3, dst_ld = rows + 5;
    std::vector<float> src(static_cast<std::size_t>(rows * src_ld), kUntouched);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < cols; ++c) src[static_cast<std::size_t>(r * src_ld + c)] = tag(r, c);
    std::vector<float> dst(static_cast<std::size_t>(cols * dst_ld), kUntouched);
    kernels::transpose_f32(src.data(), src_ld, rows, cols, dst.data(), dst_ld);
    CAPTURE(rows);
    CAPTURE(cols);
    int64_t wrong = 0, touched_padding = 0;
    for (int64_t c = 0; c < cols; ++c)
      for (int64_t j = 0; j < dst_ld; ++j) {
        const float v = dst[static_cast<std::size_t>(c * dst_ld + j)];
        if (j < rows)
          wrong += v != tag(j, c);
        else
          touched_padding += v != kUntouched;
      }
    CHECK(wrong == 0);
    CHECK(touched_padding == 0);
  }
}
