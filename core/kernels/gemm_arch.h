// SPDX-License-Identifier: Apache-2.0
// What gemm.cpp hands to the ISA-specific files (gemm_avx2.cpp, gemm_avx512.cpp). Those files
// are compiled with their ISA's flags, so they include nothing that defines an inline function
// the rest of the program could end up calling (std headers included): only this plain header
// and the compiler's intrinsics.
#pragma once

#include <cstdint>

namespace onnxtool::kernels::detail {

// Depth of one packed block of A and B (elements along k).
constexpr int64_t kKc = 256;
// Scratch the driver provides for one call, in elements, 64-byte aligned: enough for every
// variant's blocks of A (MC x kKc) and B (kKc x NC).
constexpr int64_t kPackAElems = 128 * kKc;
constexpr int64_t kPackBElems = kKc * 512;
// Rows of A up to which a product reads whole panels of a plain B where B lies rather than
// packing them first (Blocked::reads_b_directly).
constexpr int64_t kDirectBRows = 128;
// Rows of the register tile (and of one packed panel of A) per variant.
constexpr int64_t kMrAvx2 = 6;
constexpr int64_t kMrAvx512 = 8;
// The AVX-512 float tile of 7 rows, for a caller-packed A whose rows it pads less (the 49
// positions of a 7x7 plane fill 7 such tiles exactly, where 8-row tiles compute 56).
constexpr int64_t kMrAvx512Short = 7;

template <class F>
struct Call {
  bool ta, tb;
  int64_t m, n, k;
  F alpha;
  const F* a;
  int64_t lda;
  const F* b;
  int64_t ldb;
  F beta;
  F* c;
  int64_t ldc;
  F* pack_a;  // kPackAElems
  F* pack_b;  // kPackBElems
  // op(A) packed beforehand (see pack_all_a), or null: then each call packs its blocks itself.
  // The panel of rows [r, r + MR) of k block [p, p + kc) is at packed_a + p * packed_rows +
  // r * kc; this product's row 0 is the packed matrix's row packed_row0 (a multiple of MR).
  const F* packed_a = nullptr;
  int64_t packed_rows = 0;
  int64_t packed_row0 = 0;
  // op(B) packed beforehand (see pack_all_b), or null. The panel of columns [j, j + NR) of k
  // block [p, p + kc) is at packed_b + p * packed_cols + j * kc; this product's column 0 is the
  // packed matrix's column packed_col0 (a multiple of NR).
  const F* packed_b = nullptr;
  int64_t packed_cols = 0;
  int64_t packed_col0 = 0;
  // Or B's rows as windows of one buffer: row p's columns start at b + b_rows[p] (ldb unused),
  // and whole panels are read there, past n too (B not transposed, packed or transformed).
  const int64_t* b_rows = nullptr;
  // What happens to each element of C after its last k block, in this order (beta is 0):
  // + row_bias[i] (null: nothing), + col_bias[j] (null: nothing; not with row_bias),
  // + residual[i * ldr + j] (null: nothing), then the
  // activation: act 1 clamps to [act_lo, act_hi], 2 multiplies negatives by act_alpha (the
  // kinds of core/kernels/epilogue.h).
  const F* row_bias = nullptr;
  const F* col_bias = nullptr;
  const F* residual = nullptr;
  int64_t ldr = 0;
  int act = 0;
  F act_lo = 0, act_hi = 0, act_alpha = 0;
  bool has_epilogue() const { return row_bias || col_bias || residual || act != 0; }
  // Called on each row of a finished tile after it is stored (n of its elements), with
  // finish_ctx: the activations the registers do not apply (core/kernels/epilogue.h), in code
  // compiled for no particular ISA. Null: none.
  void (*finish_row)(F* row, int64_t n, const void* ctx) = nullptr;
  const void* finish_ctx = nullptr;
  // A transform of B's elements as they are packed (B not transposed, nor packed beforehand):
  // row p's b becomes b_scale[p] * b + b_shift[p] (a product, then a sum, each rounded), then
  // the activation b_act with b_lo, b_hi, b_alpha (the kinds of act). Null b_scale: none.
  const F* b_scale = nullptr;
  const F* b_shift = nullptr;
  int b_act = 0;
  F b_lo = 0, b_hi = 0, b_alpha = 0;
};

// The blocked product for m >= 1 in the canonical order. Needs k <= kKc or beta == 0 (the
// partial sums of one k block wait in C; the driver handles beta != 0 with a larger k).
void blocked_avx2(const Call<float>& g);
void blocked_avx2(const Call<double>& g);
void blocked_avx512(const Call<float>& g);
void blocked_avx512(const Call<double>& g);
// The same with the 7-row tile: A must be caller-packed (packed_a) in panels of 7 rows.
void blocked_short_avx512(const Call<float>& g);

// All of op(A) (g.m x g.k) into `out` in the layout Call::packed_a describes, packed_rows
// being g.m rounded up to the variant's MR (zero rows below g.m).
void pack_all_a_avx2(const Call<float>& g, float* out);
void pack_all_a_avx2(const Call<double>& g, double* out);
void pack_all_a_avx512(const Call<float>& g, float* out);
void pack_all_a_avx512(const Call<double>& g, double* out);

// All of op(B) (g.k x g.n) into `out` in the layout Call::packed_b describes, packed_cols being
// g.n rounded up to the variant's NR (zero columns past g.n).
void pack_all_b_avx2(const Call<float>& g, float* out);
void pack_all_b_avx512(const Call<float>& g, float* out);
// NR of the float variants: the columns of one packed panel of B.
constexpr int64_t kNrAvx2 = 16;
constexpr int64_t kNrAvx512 = 32;

// One row of C, B not transposed: c[j] in the canonical order, streaming B's rows once.
// x is op(A)'s row, contiguous (the driver gathers a strided one).
void row_avx2(const Call<float>& g, const float* x);
void row_avx2(const Call<double>& g, const double* x);
void row_avx512(const Call<float>& g, const float* x);
void row_avx512(const Call<double>& g, const double* x);

// One row of C, B transposed: c[j] = dot(x, B's row j) in the 16-lane order of gemm.h.
void dot_avx2(const Call<float>& g, const float* x);
void dot_avx2(const Call<double>& g, const double* x);
void dot_avx512(const Call<float>& g, const float* x);
void dot_avx512(const Call<double>& g, const double* x);

// Float fmas in independent chains, for measuring the peak (gemm.h, peak_gflops_per_thread):
// returns the operations done; writes one vector of results to sink (64 floats of room).
double fma_burst_avx2(int64_t iters, float* sink);
double fma_burst_avx512(int64_t iters, float* sink);

}  // namespace onnxtool::kernels::detail
