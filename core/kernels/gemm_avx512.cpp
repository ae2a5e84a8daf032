// SPDX-License-Identifier: Apache-2.0
// The products for AVX-512 (16 floats or 8 doubles a vector); compiled with -mavx512f -mfma and
// without floating-point contraction (CMakeLists.txt). See gemm_arch.h for what may be included.
#include <immintrin.h>

#include "core/kernels/gemm_arch.h"

namespace onnxtool::kernels::detail {

namespace {

struct VecF32 {
  using F = float;
  using T = __m512;
  static constexpr int W = 16;
  static T zero() { return _mm512_setzero_ps(); }
  static T load(const F* p) { return _mm512_loadu_ps(p); }
  static void store(F* p, T v) { _mm512_storeu_ps(p, v); }
  // The first n (0 < n < W) lanes; the others read as zero, and are not written.
  static T load_n(const F* p, int n) { return _mm512_maskz_loadu_ps(mask(n), p); }
  static void store_n(F* p, T v, int n) { _mm512_mask_storeu_ps(p, mask(n), v); }
  static __mmask16 mask(int n) { return static_cast<__mmask16>((1u << n) - 1); }
  static T set1(F x) { return _mm512_set1_ps(x); }
  static T fma(T a, T b, T acc) { return _mm512_fmadd_ps(a, b, acc); }
  static T mul(T a, T b) { return _mm512_mul_ps(a, b); }
  static T add(T a, T b) { return _mm512_add_ps(a, b); }
  // x < lo ? lo : x, then y > hi ? hi : y (vmaxps/vminps give their second operand, here x or
  // y, when one is NaN).
  // (The masked forms with a full mask: GCC 12 warns about the plain ones' undefined filler.)
  static T clamp(T x, T lo, T hi) {
    const T y = _mm512_mask_max_ps(lo, 0xFFFF, lo, x);
    return _mm512_mask_min_ps(hi, 0xFFFF, hi, y);
  }
  static T leaky(T x, T alpha) {
    return _mm512_mask_mul_ps(x, _mm512_cmp_ps_mask(x, zero(), _CMP_LT_OQ), alpha, x);
  }
};

struct VecF64 {
  using F = double;
  using T = __m512d;
  static constexpr int W = 8;
  static T zero() { return _mm512_setzero_pd(); }
  static T load(const F* p) { return _mm512_loadu_pd(p); }
  static void store(F* p, T v) { _mm512_storeu_pd(p, v); }
  static T load_n(const F* p, int n) { return _mm512_maskz_loadu_pd(mask(n), p); }
  static void store_n(F* p, T v, int n) { _mm512_mask_storeu_pd(p, mask(n), v); }
  static __mmask8 mask(int n) { return static_cast<__mmask8>((1u << n) - 1); }
  static T set1(F x) { return _mm512_set1_pd(x); }
  static T fma(T a, T b, T acc) { return _mm512_fmadd_pd(a, b, acc); }
  static T mul(T a, T b) { return _mm512_mul_pd(a, b); }
  static T add(T a, T b) { return _mm512_add_pd(a, b); }
  static T clamp(T x, T lo, T hi) {
    const T y = _mm512_mask_max_pd(lo, 0xFF, lo, x);
    return _mm512_mask_min_pd(hi, 0xFF, hi, y);
  }
  static T leaky(T x, T alpha) {
    return _mm512_mask_mul_pd(x, _mm512_cmp_pd_mask(x, zero(), _CMP_LT_OQ), alpha, x);
  }
};

}  // namespace

#include "core/kernels/gemm_simd.inc"

// 8 rows x 2 vectors: 16 accumulators of the 32 registers, enough to cover the fma latency.
void blocked_avx512(const Call<float>& g) {
  Blocked<VecF32, kMrAvx512, 2>::run(g);
}
void blocked_avx512(const Call<double>& g) {
  Blocked<VecF64, kMrAvx512, 2>::run(g);
}
// 7 rows x 2 vectors: 14 accumulators. Each element takes the same fmas in the same order as
// in the 8-row tile; only the rows sharing a pass over B differ.
void blocked_short_avx512(const Call<float>& g) {
  Blocked<VecF32, kMrAvx512Short, 2>::run(g);
}
void pack_all_a_avx512(const Call<float>& g, float* out) {
  Blocked<VecF32, kMrAvx512, 2>::pack_all_a(g, out);
}
void pack_all_b_avx512(const Call<float>& g, float* out) {
  static_assert(Blocked<VecF32, kMrAvx512, 2>::NR == kNrAvx512, "NR as gemm_arch.h says");
  Blocked<VecF32, kMrAvx512, 2>::pack_all_b(g, out);
}
void pack_all_a_avx512(const Call<double>& g, double* out) {
  Blocked<VecF64, kMrAvx512, 2>::pack_all_a(g, out);
}
void row_avx512(const Call<float>& g, const float* x) {
  row_product<VecF32>(g, x);
}
void row_avx512(const Call<double>& g, const double* x) {
  row_product<VecF64>(g, x);
}
void dot_avx512(const Call<float>& g, const float* x) {
  dot_product<VecF32>(g, x);
}
void dot_avx512(const Call<double>& g, const double* x) {
  dot_product<VecF64>(g, x);
}
double fma_burst_avx512(int64_t iters, float* sink) {
  return fma_burst<VecF32, 16>(iters, sink);
}

}  // namespace onnxtool::kernels::detail
