// SPDX-License-Identifier: Apache-2.0
// Vector math for the element-wise kernels: e^x, and the row reductions a softmax needs. Each
// function gives the same bits on every level (AVX2 + FMA where the CPU has it, scalar code
// otherwise): the scalar code performs the vector code's operations, lane by lane, in the same
// order, with the same fused multiply-adds.
#pragma once

#include <cstdint>

#include "core/kernels/epilogue.h"

namespace onnxtool::kernels {

// y[i] = e^x[i]. Range reduction by n = round(x / ln 2) (ln 2 in two parts), a degree-7
// polynomial on [-ln 2 / 2, ln 2 / 2], and a scaling by 2^n in two steps (so that subnormal
// results round once): within 2 ulp of the true value. Above 88.7228 gives +inf, below -104 gives
// 0, NaN stays NaN. y may be x.
void exp_f32(const float* x, float* y, int64_t n);

// y[i] = erf(x[i]). |x| < 1: x * P(x^2), P of degree 6; 1 <= |x| < 4: 1 - e^(-x^2) * Q(1/|x|),
// Q of degree 8, the sign of x; |x| >= 4: +-1. Both fitted to erf in double precision: within
// 4 ulp of the true value. NaN stays NaN. y may be x.
void erf_f32(const float* x, float* y, int64_t n);

// y[i] = tanh(x[i]). |x| < 0.55: x + x^3 P(x^2), P of degree 4 fitted in double precision;
// above, the sign of x times (1 - e) / (1 + e) with e = e^(-2|x|) (exp_f32's arithmetic): within
// 4 ulp of the true value. NaN stays NaN. y may be x.
void tanh_f32(const float* x, float* y, int64_t n);

// y[i] = 1 / (1 + e^-x[i]), as e = e^-|x| (exp_f32's arithmetic), then 1 / (1 + e) for x >= 0
// and e / (1 + e) below (so that nothing overflows). NaN stays NaN. y may be x.
void sigmoid_f32(const float* x, float* y, int64_t n);

// The greatest element (NaNs passed over); -inf when there is none.
float max_f32(const float* x, int64_t n);

// y[i] = e^(x[i] - shift); returns the sum of the y[i], added in 8 interleaved partial sums
// (element i into sum i % 8, in order) reduced as (s0+s4, s1+s5, s2+s6, s3+s7), then (0+2, 1+3),
// then (0+1). y may be x.
float exp_shifted_sum_f32(const float* x, float shift, float* y, int64_t n);

// x[i] *= s.
void scale_f32(float* x, int64_t n, float s);

// y[i] = activation(a * x[i] + b): the product rounded, then the sum (never one fused
// multiply-add), then the activation's arithmetic (epilogue.h): one channel of a normalisation
// at inference, with the activation fused into it. y may be x.
void affine_f32(const float* x, float a, float b, float* y, int64_t n, const Epilogue& activation);

}  // namespace onnxtool::kernels
