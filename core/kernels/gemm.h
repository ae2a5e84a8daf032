// SPDX-License-Identifier: Apache-2.0
// Matrix products for the kernels, with one accumulation order on every CPU.
//
// DESIGN: this is the shared kernel layer under ops/ (see README, "Architecture"). A new SIMD
// variant goes into its own gemm_<isa>.cpp, compiled with that ISA's flags, and is chosen once in
// simd_level(); it must give the same bits as the scalar reference (test_kernels_gemm.cpp).
//
// The order. Every element of C = alpha * op(A) op(B) + beta * C is computed as
//     acc = 0;  for p in 0 .. k-1:  acc = fma(op(A)[i][p], op(B)[p][j], acc)
//     r = alpha == 1 ? acc : alpha * acc;   if beta != 0:  r = r + beta * C[i][j]
// with every fma rounded once, whatever the vector width (lanes run along j, one element each),
// the blocking, the position of the element in C or the way the threads split C. So identical
// rows of A meeting identical columns of B give bitwise identical results, and a result does
// not change with the CPU's vector width, the thread count or any BLAS library's choice of
// kernel. The one exception is a single row of C
// against a transposed B (a fully connected layer on one sample): each element is then a dot
// product of two contiguous rows, summed in 16 interleaved partial sums (lane p mod 16, tail
// elements into lanes 0, 1, ... in order) reduced by a fixed tree (lanes l and l+8, then l and
// l+4, l and l+2, l and l+1) — again the same on every CPU and for every element.
//
// beta == 0 means C is not read (a NaN there does not propagate), as in BLAS.
#pragma once

#include <cstdint>
#include <vector>

#include "core/kernels/epilogue.h"
#include "core/kernels/packed_layout.h"
#include "core/util/huge_pages.h"

namespace onnxtool::kernels {

enum class SimdLevel { scalar = 0, avx2 = 1, avx512 = 2 };

// The best level this CPU and OS run, lowered by ONNXTOOL_SIMD=scalar|avx2|avx512 when set
// (tests use it to compare the variants). Decided once per process.
SimdLevel simd_level();
// The best level the CPU supports, ignoring ONNXTOOL_SIMD.
SimdLevel cpu_simd_level();
const char* simd_level_name(SimdLevel level);
// Whether the 8-lane element kernels compiled with -mavx2 (quantize_avx2.cpp, and F16C in
// half_f16c.cpp: every CPU of the avx2 level has it) may run: simd_level() is avx2 or higher.
bool avx2_element_kernels();

// One product. lda/ldb/ldc are the row strides of A, B and C as stored (row-major).
template <class F>
struct GemmArgs {
  bool trans_a = false, trans_b = false;
  int64_t m = 0, n = 0, k = 0;
  F alpha = 1;
  const F* a = nullptr;
  int64_t lda = 0;
  const F* b = nullptr;
  int64_t ldb = 0;
  F beta = 0;
  F* c = nullptr;
  int64_t ldc = 0;
  // A single row against a transposed B takes the dot-product order. A caller that splits a
  // larger product into row blocks clears this, so that a block of one row keeps the order of
  // the rows around it.
  bool dot_when_one_row = true;
};

// On the calling thread. `level` picks the implementation (all give the same bits).
void gemm(const GemmArgs<float>& g, SimdLevel level = simd_level());
void gemm(const GemmArgs<double>& g, SimdLevel level = simd_level());

// op(A) packed once for many products against it (a layer's weights, each input a new B):
// those products skip packing A and give the same bits as gemm() would. It holds its own copy.
template <class F>
class PackedA {
 public:
  // Not usable() where there is no packed path: the scalar level, m < 2 or k == 0.
  PackedA() = default;
  PackedA(bool trans_a, int64_t m, int64_t k, const F* a, int64_t lda,
          SimdLevel level = simd_level());
  bool usable() const { return !data_.empty(); }
  int64_t m() const { return m_; }
  int64_t k() const { return k_; }
  SimdLevel level() const { return level_; }
  // Row blocks of a product must start at a multiple of this (the register tile's rows).
  int64_t row_align() const { return row_align_; }
  const F* data() const { return data_.data(); }
  // m rounded up to row_align(): the stride between k blocks (see core/kernels/gemm_arch.h).
  int64_t padded_rows() const { return (m_ + row_align_ - 1) / row_align_ * row_align_; }

 private:
  int64_t m_ = 0, k_ = 0, row_align_ = 1;
  SimdLevel level_ = SimdLevel::scalar;
  std::vector<F, HugePageAllocator<F>> data_;
};

// The layout for products with A packed at `level` (the level of the PackedA they use).
PackedBLayout packed_b_layout(int64_t k, int64_t n, SimdLevel level);

// Rows [row0, row0 + m) of C = alpha * A op(B) + beta * C with A packed (row0 a multiple of
// a.row_align()); B is k x n as op(B), C holds those rows only (row stride ldc).
template <class F>
struct PackedGemmArgs {
  const PackedA<F>* a = nullptr;
  int64_t row0 = 0, m = 0, n = 0;
  bool trans_b = false;
  F alpha = 1;
  const F* b = nullptr;
  int64_t ldb = 0;
  // Or B as the caller packed it (float only): a whole matrix in packed_b_layout(a.k(), cols,
  // a.level()) at b_packed, of which this product takes columns [b_col0, b_col0 + n), b_col0 a
  // multiple of the layout's panel.
  const F* b_packed = nullptr;
  int64_t b_packed_cols = 0, b_col0 = 0;
  // Or B's rows as windows of one buffer (float only, B not transposed): row p's n columns
  // start at b + b_row_offsets[p] (k offsets; ldb unused). The product reads whole register
  // tiles there, up to n rounded up to packed_b_layout's panel: those elements must be
  // readable and finite (their results are dropped). A convolution reads its input this way,
  // each kernel offset a window of a padded copy, where im2col would copy it first.
  const int64_t* b_row_offsets = nullptr;
  F beta = 0;
  F* c = nullptr;
  int64_t ldc = 0;
  // A fused epilogue, applied to each element of C right after its sum (beta must be 0), in
  // the order of the nodes it stands for, so the bits are theirs: + row_bias[i] (a Conv's bias;
  // indexed by this product's rows), + residual[i * ldr + j] (a residual Add), then
  // activation.apply (Relu, Clip, LeakyRelu). Each is skipped when null or none.
  const F* row_bias = nullptr;
  const F* residual = nullptr;
  int64_t ldr = 0;
  Epilogue activation;
  // A transform of B as the product reads it (B not transposed, given as b, not b_packed):
  // element (p, j) is b_activation(b_row_scale[p] * b[p][j] + b_row_shift[p]), a product and
  // a sum each rounded, as a per-channel scale and shift followed by that activation compute
  // it (a convolution's input normalised on the way in). Null b_row_scale: none.
  const F* b_row_scale = nullptr;
  const F* b_row_shift = nullptr;
  Epilogue b_activation;
};

// op(B) packed once for many products against it (a MatMul's constant weights, each input a
// new A): those products skip packing B and give the same bits as gemm() would. Float only.
class PackedB {
 public:
  // Not usable() where there is no packed path: the scalar level, or k or n 0.
  PackedB() = default;
  PackedB(bool trans_b, int64_t k, int64_t n, const float* b, int64_t ldb,
          SimdLevel level = simd_level());
  bool usable() const { return !data_.empty(); }
  int64_t k() const { return layout_.k; }
  int64_t n() const { return layout_.n; }
  // Column blocks of a product must start at a multiple of this (the register tile's columns).
  int64_t col_align() const { return layout_.panel; }
  SimdLevel level() const { return level_; }
  const float* data() const { return data_.data(); }
  // Where each element sits: the layout a caller-packed B takes too (PackedGemmArgs::b_packed).
  const PackedBLayout& layout() const { return layout_; }

 private:
  PackedBLayout layout_;
  SimdLevel level_ = SimdLevel::scalar;
  std::vector<float, HugePageAllocator<float>> data_;
};

// Columns [col0, col0 + n) of C = alpha * op(A) B + beta * C with B packed (col0 a multiple of
// b.col_align()); A is m x k as op(A); C holds those columns only (c points at column col0's
// first element). The epilogue fields are those of PackedGemmArgs, residual indexed as C.
struct PackedBGemmArgs {
  bool trans_a = false;
  int64_t m = 0, col0 = 0, n = 0;
  float alpha = 1;
  const float* a = nullptr;
  int64_t lda = 0;
  // Or op(A) as the caller packed it: all m rows, in packed_a_layout(b.k(), m, b.level())
  // (pack_b_rows writes it from A^T's rows); then a is not read. Threads that share one A
  // pack it once between them.
  const float* a_packed = nullptr;
  // With a_packed: this product's rows are rows [a_row0, a_row0 + m) of a packed A of a_rows
  // rows (0: m), a_row0 a multiple of its layout's panel (threads that split the rows).
  int64_t a_row0 = 0, a_rows = 0;
  const PackedB* b = nullptr;
  float beta = 0;
  float* c = nullptr;
  int64_t ldc = 0;
  const float* row_bias = nullptr;
  // Or one bias per column of C (at its column 0): the same arithmetic, along the rows.
  const float* col_bias = nullptr;
  const float* residual = nullptr;
  int64_t ldr = 0;
  Epilogue activation;
};

void gemm_packed(const PackedGemmArgs<float>& g);
// Rows up to which gemm_packed reads a plain B (not transposed, packed or transformed) where it
// lies instead of packing it per call: callers that split a product by rows keep their blocks
// this short, and then nothing packs B at all.
int64_t in_place_b_max_rows();
void gemm_packed_b(const PackedBGemmArgs& g);
// Where a caller puts op(A) (m x k) packed for gemm_packed_b at `level`: A^T (k x m) laid out as
// a packed B whose panels are the register tile's rows (at AVX-512, 7-row panels where they pad
// fewer rows than 8-row ones: the product then runs a 7-row tile, with the same bits).
PackedBLayout packed_a_layout(int64_t k, int64_t m, SimdLevel level);
// Rows [p0, p1) of a plain k x n matrix (row p0 at `rows`, row stride ld) into out, laid out as
// `layout` (whose k and n are the matrix's): a panel's columns past n are set to zero. Threads
// that share one packing take disjoint row ranges; packing moves values only, so a product
// gives the bits it gives on the matrix unpacked.
void pack_b_rows(const PackedBLayout& layout, const float* rows, int64_t ld, int64_t p0, int64_t p1,
                 float* out);
// Rows [r0, r1) of a plain m x k matrix A (row r0 at `rows`, row stride ld) into out, laid
// out as packed_a_layout(k, m, level) is (`layout`): r0 a multiple of its panel, r1 one too or
// m; a last panel's rows past m are set to zero. A product that packs its own A from the same
// rows gets the same values, so the same bits; threads that share one A take disjoint panels.
void pack_a_rows(const PackedBLayout& layout, const float* rows, int64_t ld, int64_t r0, int64_t r1,
                 float* out);
// The same with each row p's values v taken as activation(scale[p] * v + shift[p]) (see
// PackedGemmArgs::b_row_scale): the transform moved into the packing.
struct RowTransform {
  const float* scale = nullptr;
  const float* shift = nullptr;
  Epilogue activation;
};
void pack_b_rows(const PackedBLayout& layout, const float* rows, int64_t ld, int64_t p0, int64_t p1,
                 float* out, const RowTransform& transform);
void gemm_packed(const PackedGemmArgs<double>& g);

// Float32 operations per second one thread reaches at the selected level, in GFLOP/s: fmas in
// independent chains, timed on the calling thread for about 30 ms the first time it is asked
// (0 at the scalar level). What --profile calls the machine's peak, times the threads.
double peak_gflops_per_thread();

// The scalar definition of the order above, for tests.
void reference_gemm(const GemmArgs<float>& g);
void reference_gemm(const GemmArgs<double>& g);

}  // namespace onnxtool::kernels
