// SPDX-License-Identifier: Apache-2.0
// What vmath.cpp hands to vmath_avx2.cpp (compiled with -mavx2 -mfma -ffp-contract=off; includes
// only this plain header and the intrinsics, as gemm_arch.h explains), and the constants both
// use. The vector code does whole vectors of 8 and returns how many elements it did (a multiple
// of 8); vmath.cpp does the rest with the same operations.
#pragma once

#include <cstdint>

namespace onnxtool::kernels::detail {

// The constants of exp_f32 (vmath.h).
inline constexpr float kExpHi = 88.72283f, kExpLo = -104.0f;
inline constexpr float kLog2e = 1.44269504088896341f;
// ln 2 = kLn2Hi + kLn2Lo, kLn2Hi with its low 12 bits clear, so that n * kLn2Hi is exact.
inline constexpr float kLn2Hi = 0.693145751953125f, kLn2Lo = 1.42860682030941723212e-6f;
// 1/7!, 1/6!, ..., 1/2!, 1, 1: Horner's steps from the top.
inline constexpr float kExpPoly[8] = {1.0f / 5040, 1.0f / 720, 1.0f / 120, 1.0f / 24,
                                      1.0f / 6,    0.5f,       1.0f,       1.0f};

// The coefficients of erf_f32 (vmath.h), highest degree first: P in x^2 for |x| < 1, Q in
// 1/|x| for 1 <= |x| < 4.
inline constexpr float kErfSmall[7] = {7.88250036e-05f, -0.000801885908f, 0.00518931262f,
                                       -0.0268543288f,  0.112835974f,     -0.37612626f,
                                       1.12837911f};
inline constexpr float kErfLarge[9] = {-0.00710721128f, 0.0168464519f, 0.048697006f,
                                       -0.271449566f,   0.518165529f,  -0.481054515f,
                                       0.0445161834f,   0.558677077f,  0.00029260997f};
inline constexpr float kErfSplit = 1.0f, kErfOne = 4.0f;

// The coefficients of tanh_f32 (vmath.h), highest degree first: P in x^2 for |x| < kTanhSplit.
inline constexpr float kTanhSmall[5] = {-0.006438933778554201f, 0.02118605189025402f,
                                        -0.05387955531477928f, 0.1333284080028534f,
                                        -0.33333325386047363f};
inline constexpr float kTanhSplit = 0.55f;

int64_t exp_avx2(const float* x, float* y, int64_t n);
int64_t tanh_avx2(const float* x, float* y, int64_t n);
int64_t sigmoid_avx2(const float* x, float* y, int64_t n);
int64_t erf_avx2(const float* x, float* y, int64_t n);
// The 8 lanes' maxima of whole vectors into lanes[8] (seeded with -inf by the caller).
int64_t max_lanes_avx2(const float* x, int64_t n, float* lanes);
// The 8 partial sums of exp_shifted_sum_f32 over whole vectors into lanes[8] (seeded with 0).
int64_t exp_shifted_lanes_avx2(const float* x, float shift, float* y, int64_t n, float* lanes);
int64_t scale_avx2(float* x, int64_t n, float s);
// affine_f32 over whole vectors; act: 0 none, 1 clamp to [lo, hi], 2 alpha times negatives.
int64_t affine_avx2(const float* x, float a, float b, float* y, int64_t n, int act, float lo,
                    float hi, float alpha);

}  // namespace onnxtool::kernels::detail
