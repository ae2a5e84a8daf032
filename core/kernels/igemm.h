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

// C columns [n0, n1) of rows [0, a.m()) = A B with the zero points, C row-major with stride ldc
// (c points at row 0, column 0). Runs on the calling thread; callers split the columns, and with
// igemm_rows the rows too, across threads.
void igemm(const PackedInt8A& a, const Int8B& b, int64_t n0, int64_t n1, int32_t* c, int64_t ldc);
// The same for rows [m0, m1) only (m0 a multiple of int_row_align(), m1 <= a.m()): tasks that
// split a product with few columns (a 7x7 plane) by rows keep both cores busy.
void igemm_rows(const PackedInt8A& a, const Int8B& b, int64_t m0, int64_t m1, int64_t n0,
                int64_t n1, int32_t* c, int64_t ldc);
// Rows of a register tile: where row blocks of igemm_rows may start.
int64_t int_row_align();

// Columns [n0, n1) of B packed once, for products split by rows that all read them (few columns,
// many rows: a 14x14 or 7x7 plane against hundreds of filters), so that no row block packs (or
// makes, for a convolution's im2col) B again. At most int_packed_b_max_cols() columns. Made in
// depth blocks: each thread may pack some with pack_block, then the products read the whole.
class PackedInt8B {
 public:
  // The packed bytes go in `storage` (the caller's, kept between runs so that no run allocates
  // or faults in its pages again); it must outlive this object and not be shared meanwhile.
  PackedInt8B(const PackedInt8A& a, const Int8B& b, int64_t n0, int64_t n1,
              std::vector<uint8_t>& storage);
  int64_t depth_blocks() const { return depth_blocks_; }
  // Packs depth block `block` of B's rows into this object.
  void pack_block(int64_t block);
  // Rows [m0, m1) of C (m0 a multiple of int_row_align()) for these columns, as igemm_rows.
  void multiply(int64_t m0, int64_t m1, int32_t* c, int64_t ldc) const;

 private:
  // Where depth block `block` starts: every block is laid out block_quads_ deep.
  uint8_t* block_data(int64_t block) const;
  const PackedInt8A& a_;
  const Int8B& b_;
  int64_t n0_, cols_, tiles_, depth_blocks_, block_quads_;
  uint8_t* data_ = nullptr;
  std::vector<int32_t> col_sums_;  // per depth block, cols_ each
};
int64_t int_packed_b_max_cols();

// The plain definition, for tests: int64 sums wrapped to int32 at the end.
void reference_igemm(int64_t m, int64_t n, int64_t k, const void* a, int64_t lda, ByteKind ka,
                     std::span<const int32_t> za, const void* b, int64_t ldb, ByteKind kb,
                     std::span<const int32_t> zb, int32_t* c, int64_t ldc);

}  // namespace onnxtool::kernels
