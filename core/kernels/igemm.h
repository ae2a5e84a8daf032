// SPDX-License-Identifier: Apache-2.0
// 8-bit integer matrix products with exact int32 sums: the shared kernel of the operators that
// multiply quantized integers (integer convolutions and matrix products).
//
//     C[i][j] = sum_p (A[i][p] - za[i]) * (B[p][j] - zb[j])      (int32, wrapping as int32 does)
//
// A and B hold int8 or uint8 (each its own), za is per row of A and zb per column of B (one
// value: per tensor). The result is an integer, so every variant (scalar, AVX2, AVX-512 VNNI)
// gives the same answer whatever the blocking or the threads.
//
// How: the register kernels multiply signed bytes of A by unsigned bytes of B four at a time
// (VNNI's vpdpbusd; vpmaddwd on wider lanes for AVX2), so A is packed as int8 and B as uint8. An
// operand of the other signedness is moved by 128 (x ^ 0x80) while packing, and its zero point
// with it, which changes no difference (A - za). The zero points come in after the product:
//     sum (a - za)(b - zb) = sum ab - zb * rowsum(a) - za * colsum(b) + k * za * zb.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "core/kernels/gemm.h"

namespace onnxtool::kernels {

enum class ByteKind { s8, u8 };

// Which register kernel runs the integer products: the best the CPU has, lowered by
// ONNXTOOL_SIMD like the float products (avx512 there means AVX-512 with VNNI and BW here).
enum class IntLevel { scalar = 0, avx2 = 1, vnni512 = 2 };
IntLevel int_level();
// The best the CPU runs, ignoring ONNXTOOL_SIMD.
IntLevel cpu_int_level();
const char* int_level_name(IntLevel level);

// A (m x k, row-major) packed once: signed bytes in register-tile panels, with the row sums and
// the zero points the product needs. It holds its own copy, so a layer's weights are packed at
// planning and every run multiplies against them.
class PackedInt8A {
 public:
  PackedInt8A() = default;
  // zero: one value, or one per row.
  PackedInt8A(int64_t m, int64_t k, const void* a, int64_t lda, ByteKind kind,
              std::span<const int32_t> zero, IntLevel level = int_level());
  int64_t m() const { return m_; }
  int64_t k() const { return k_; }
  IntLevel level() const { return level_; }
  // The layout of the kernels (see igemm.cpp): panels of kIntMr rows, k in quads.
  const int8_t* panel(int64_t row) const;
  int64_t quads() const { return (k_ + 3) / 4; }
  const std::vector<int32_t>& row_sums() const { return row_sums_; }
  int32_t zero(int64_t row) const {
    return zero_.size() == 1 ? zero_[0] : zero_[static_cast<std::size_t>(row)];
  }
  // Whether any row's (moved) zero point is not 0: then B's column sums are needed.
  bool has_zero() const { return has_zero_; }

 private:
  int64_t m_ = 0, k_ = 0;
  IntLevel level_ = IntLevel::scalar;
  std::vector<int8_t> data_;
  std::vector<int32_t> row_sums_;  // of the packed (signed) values
  std::vector<int32_t> zero_;      // moved with the values
  bool has_zero_ = false;
};

// B (k x n) as rows of bytes: either a row-major matrix, or a producer that writes rows
// [k0, k1) of columns [n0, n1) into a row-major block (a convolution's im2col, made block by
// block so that it never exists whole).
struct Int8B {
  ByteKind kind = ByteKind::u8;
  int64_t k = 0, n = 0;
  const uint8_t* data = nullptr;  // as bytes, whatever the kind
  int64_t ldb = 0;
  std::function<void(int64_t k0, int64_t k1, int64_t n0, int64_t n1, uint8_t* out, int64_t ld)>
      produce;
  std::span<const int32_t> zero;  // one value, one per column, or none (0)
};

// C columns [n0, n1) of rows [0, a.m()) = A B with the zero points, C row-major with stride ldc.
// Runs on the calling thread; callers split the columns across threads.
void igemm(const PackedInt8A& a, const Int8B& b, int64_t n0, int64_t n1, int32_t* c, int64_t ldc);

// The plain definition, for tests: int64 sums wrapped to int32 at the end.
void reference_igemm(int64_t m, int64_t n, int64_t k, const void* a, int64_t lda, ByteKind ka,
                     std::span<const int32_t> za, const void* b, int64_t ldb, ByteKind kb,
                     std::span<const int32_t> zb, int32_t* c, int64_t ldc);

}  // namespace onnxtool::kernels
