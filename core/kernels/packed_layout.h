// SPDX-License-Identifier: Apache-2.0
// The layout of a B operand packed by its producer (a convolution's im2col) for gemm_packed
// (gemm.h, PackedGemmArgs::b_packed). A plain header: the ISA-specific files include it.
#pragma once

#include <cstdint>

namespace onnxtool::kernels {

// Where element (p, j) of a k x n B goes: blocks of block_rows rows (the last one shorter),
// each of panels of `panel` columns, kc x panel row-major. The panels' columns past n are read
// too (their results dropped), so they must hold finite values.
struct PackedBLayout {
  int64_t k = 0, n = 0, panel = 1, block_rows = 1;
  int64_t padded_cols() const { return (n + panel - 1) / panel * panel; }
  int64_t size() const { return k * padded_cols(); }
  int64_t offset(int64_t p, int64_t j) const {
    const int64_t p0 = p / block_rows * block_rows;
    const int64_t kc = k - p0 < block_rows ? k - p0 : block_rows;
    return p0 * padded_cols() + (j / panel) * panel * kc + (p - p0) * panel + j % panel;
  }
};

}  // namespace onnxtool::kernels
