// SPDX-License-Identifier: Apache-2.0
// The products for AVX2 + FMA (8 floats or 4 doubles a vector); compiled with -mavx2 -mfma and
// without floating-point contraction (CMakeLists.txt). See gemm_arch.h for what may be included.
#include <immintrin.h>

#include "core/kernels/gemm_arch.h"

namespace onnxtool::kernels::detail {

namespace {

struct VecF32 {
  using F = float;
  using T = __m256;
  static constexpr int W = 8;
  static T zero() { return _mm256_setzero_ps(); }
  static T load(const F* p) { return _mm256_loadu_ps(p); }
  static void store(F* p, T v) { _mm256_storeu_ps(p, v); }
  // The first n (0 < n < W) lanes; the others read as zero, and are not written.
  static T load_n(const F* p, int n) { return _mm256_maskload_ps(p, mask(n)); }
  static void store_n(F* p, T v, int n) { _mm256_maskstore_ps(p, mask(n), v); }
  static __m256i mask(int n) {
    return _mm256_cmpgt_epi32(_mm256_set1_epi32(n), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
  }
  static T set1(F x) { return _mm256_set1_ps(x); }
  static T fma(T a, T b, T acc) { return _mm256_fmadd_ps(a, b, acc); }
  static T mul(T a, T b) { return _mm256_mul_ps(a, b); }
  static T add(T a, T b) { return _mm256_add_ps(a, b); }
  // x < lo ? lo : x, then y > hi ? hi : y (vmaxps/vminps give their second operand, here x or
  // y, when one is NaN).
  static T clamp(T x, T lo, T hi) { return _mm256_min_ps(hi, _mm256_max_ps(lo, x)); }
  static T leaky(T x, T alpha) {
    return _mm256_blendv_ps(x, _mm256_mul_ps(alpha, x), _mm256_cmp_ps(x, zero(), _CMP_LT_OQ));
  }
};

struct VecF64 {
  using F = double;
  using T = __m256d;
  static constexpr int W = 4;
  static T zero() { return _mm256_setzero_pd(); }
  static T load(const F* p) { return _mm256_loadu_pd(p); }
  static void store(F* p, T v) { _mm256_storeu_pd(p, v); }
  static T load_n(const F* p, int n) { return _mm256_maskload_pd(p, mask(n)); }
  static void store_n(F* p, T v, int n) { _mm256_maskstore_pd(p, mask(n), v); }
  static __m256i mask(int n) {
    return _mm256_cmpgt_epi64(_mm256_set1_epi64x(n), _mm256_setr_epi64x(0, 1, 2, 3));
  }
  static T set1(F x) { return _mm256_set1_pd(x); }
  static T fma(T a, T b, T acc) { return _mm256_fmadd_pd(a, b, acc); }
  static T mul(T a, T b) { return _mm256_mul_pd(a, b); }
  static T add(T a, T b) { return _mm256_add_pd(a, b); }
  static T clamp(T x, T lo, T hi) { return _mm256_min_pd(hi, _mm256_max_pd(lo, x)); }
  static T leaky(T x, T alpha) {
    return _mm256_blendv_pd(x, _mm256_mul_pd(alpha, x), _mm256_cmp_pd(x, zero(), _CMP_LT_OQ));
  }
};

}  // namespace

#include "core/kernels/gemm_simd.inc"

// 6 rows x 2 vectors: 12 accumulators, 2 for B and 1 broadcast fill the 16 registers.
void blocked_avx2(const Call<float>& g) {
  Blocked<VecF32, kMrAvx2, 2>::run(g);
}
void blocked_avx2(const Call<double>& g) {
  Blocked<VecF64, kMrAvx2, 2>::run(g);
}
void pack_all_a_avx2(const Call<float>& g, float* out) {
  Blocked<VecF32, kMrAvx2, 2>::pack_all_a(g, out);
}
void pack_all_b_avx2(const Call<float>& g, float* out) {
  static_assert(Blocked<VecF32, kMrAvx2, 2>::NR == kNrAvx2, "NR as gemm_arch.h says");
  Blocked<VecF32, kMrAvx2, 2>::pack_all_b(g, out);
}
void pack_all_a_avx2(const Call<double>& g, double* out) {
  Blocked<VecF64, kMrAvx2, 2>::pack_all_a(g, out);
}
void row_avx2(const Call<float>& g, const float* x) {
  row_product<VecF32>(g, x);
}
void row_avx2(const Call<double>& g, const double* x) {
  row_product<VecF64>(g, x);
}
void dot_avx2(const Call<float>& g, const float* x) {
  dot_product<VecF32>(g, x);
}
void dot_avx2(const Call<double>& g, const double* x) {
  dot_product<VecF64>(g, x);
}
// 12 chains in the 16 registers: two fma ports of latency up to 6.
double fma_burst_avx2(int64_t iters, float* sink) {
  return fma_burst<VecF32, 12>(iters, sink);
}

}  // namespace onnxtool::kernels::detail
