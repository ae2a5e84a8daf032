// SPDX-License-Identifier: Apache-2.0
#include "core/kernels/vmath.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

#include "core/kernels/gemm.h"
#include "core/kernels/vmath_arch.h"

namespace onnxtool::kernels {

namespace {

using namespace detail;

float pow2(int32_t k) {
  const uint32_t bits = static_cast<uint32_t>(k + 127) << 23;
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// One lane of exp8 in vmath_avx2.cpp, operation for operation.
float exp1(float x) {
  float xc = x > kExpLo ? x : kExpLo;  // vmaxps(x, lo): lo for a NaN
  xc = xc < kExpHi ? xc : kExpHi;
  const float nf = std::nearbyint(xc * kLog2e);
  float r = std::fma(-nf, kLn2Hi, xc);
  r = std::fma(-nf, kLn2Lo, r);
  float p = kExpPoly[0];
  for (int i = 1; i < 8; ++i) p = std::fma(p, r, kExpPoly[i]);
  const auto n = static_cast<int32_t>(nf);
  const int32_t n1 = n >> 1, n2 = n - n1;
  float y = (p * pow2(n1)) * pow2(n2);
  if (x > kExpHi) y = std::numeric_limits<float>::infinity();
  if (x < kExpLo) y = 0.0f;
  return std::isnan(x) ? x : y;
}

// One lane of erf8 in vmath_avx2.cpp, operation for operation.
float erf1(float x) {
  const float a = std::fabs(x);
  const float t = x * x;
  float ps = kErfSmall[0];
  for (int i = 1; i < 7; ++i) ps = std::fma(ps, t, kErfSmall[i]);
  const float small = x * ps;
  const float u = 1.0f / a;
  float pl = kErfLarge[0];
  for (int i = 1; i < 9; ++i) pl = std::fma(pl, u, kErfLarge[i]);
  const float e = exp1(-t);
  const float large = std::copysign(std::fma(-e, pl, 1.0f), x);
  float y = a < kErfSplit ? small : large;
  if (a >= kErfOne) y = std::copysign(1.0f, x);
  return std::isnan(x) ? x : y;
}

// One lane of tanh8 in vmath_avx2.cpp, operation for operation.
float tanh1(float x) {
  const float a = std::fabs(x);
  const float t = x * x;
  float p = kTanhSmall[0];
  for (int i = 1; i < 5; ++i) p = std::fma(p, t, kTanhSmall[i]);
  const float small = std::copysign(std::fma(x * t, p, x), x);
  const float e = exp1(a * -2.0f);
  const float large = std::copysign((1.0f - e) / (1.0f + e), x);
  const float y = a < kTanhSplit ? small : large;
  return std::isnan(x) ? x : y;
}

// One lane of sigmoid_avx2, operation for operation.
float sigmoid1(float x) {
  const float e = exp1(-std::fabs(x));
  const float d = 1.0f + e;
  return x >= 0.0f ? 1.0f / d : e / d;
}

// The reductions of vmath.h over the 8 lanes.
float max_of_lanes(const float* l) {
  float m = l[0];
  for (int i = 1; i < 8; ++i) m = l[i] > m ? l[i] : m;
  return m;
}

float sum_of_lanes(const float* l) {
  const float a0 = l[0] + l[4], a1 = l[1] + l[5], a2 = l[2] + l[6], a3 = l[3] + l[7];
  const float b0 = a0 + a2, b1 = a1 + a3;
  return b0 + b1;
}

bool vector_code() {
#if defined(ONNXTOOL_X86_KERNELS)
  return avx2_element_kernels();
#else
  return false;
#endif
}

}  // namespace

void exp_f32(const float* x, float* y, int64_t n) {
  int64_t i = 0;
#if defined(ONNXTOOL_X86_KERNELS)
  if (vector_code()) i = exp_avx2(x, y, n);
#endif
  for (; i < n; ++i) y[i] = exp1(x[i]);
}

void tanh_f32(const float* x, float* y, int64_t n) {
  int64_t i = 0;
#if defined(ONNXTOOL_X86_KERNELS)
  if (vector_code()) i = tanh_avx2(x, y, n);
#endif
  for (; i < n; ++i) y[i] = tanh1(x[i]);
}

void erf_f32(const float* x, float* y, int64_t n) {
  int64_t i = 0;
#if defined(ONNXTOOL_X86_KERNELS)
  if (vector_code()) i = erf_avx2(x, y, n);
#endif
  for (; i < n; ++i) y[i] = erf1(x[i]);
}

void sigmoid_f32(const float* x, float* y, int64_t n) {
  int64_t i = 0;
#if defined(ONNXTOOL_X86_KERNELS)
  if (vector_code()) i = sigmoid_avx2(x, y, n);
#endif
  for (; i < n; ++i) y[i] = sigmoid1(x[i]);
}

float max_f32(const float* x, int64_t n) {
  float lanes[8];
  for (float& l : lanes) l = -std::numeric_limits<float>::infinity();
  int64_t i = 0;
#if defined(ONNXTOOL_X86_KERNELS)
  if (vector_code()) i = max_lanes_avx2(x, n, lanes);
#endif
  for (; i < n; ++i) lanes[i % 8] = x[i] > lanes[i % 8] ? x[i] : lanes[i % 8];
  return max_of_lanes(lanes);
}

float exp_shifted_sum_f32(const float* x, float shift, float* y, int64_t n) {
  float lanes[8] = {};
  int64_t i = 0;
#if defined(ONNXTOOL_X86_KERNELS)
  if (vector_code()) i = exp_shifted_lanes_avx2(x, shift, y, n, lanes);
#endif
  for (; i < n; ++i) {
    y[i] = exp1(x[i] - shift);
    lanes[i % 8] = lanes[i % 8] + y[i];
  }
  return sum_of_lanes(lanes);
}

void scale_f32(float* x, int64_t n, float s) {
  int64_t i = 0;
#if defined(ONNXTOOL_X86_KERNELS)
  if (vector_code()) i = scale_avx2(x, n, s);
#endif
  for (; i < n; ++i) x[i] = x[i] * s;
}

void affine_f32(const float* x, float a, float b, float* y, int64_t n, const Epilogue& activation) {
  int64_t i = 0;
  // The vector code applies clamps in its registers; the other kinds go over y at the end.
  const Epilogue clamp = activation.in_registers() ? activation : Epilogue{};
#if defined(ONNXTOOL_X86_KERNELS)
  if (vector_code())
    i = affine_avx2(x, a, b, y, n, static_cast<int>(clamp.kind), clamp.lo, clamp.hi, clamp.alpha);
#endif
  for (int64_t j = i; j < n; ++j) y[j] = a * x[j] + b;
  clamp.apply(y + i, n - i);
  if (!activation.in_registers()) activation.apply(y, n);
}

void apply_activation_f32(float* p, int64_t n, const Epilogue& e) {
  switch (e.kind) {
    case Epilogue::Kind::sigmoid:
      return sigmoid_f32(p, p, n);
    case Epilogue::Kind::hard_sigmoid:
      for (int64_t i = 0; i < n; ++i) p[i] = hard_sigmoid_of(p[i], e.alpha, e.lo);
      return;
    case Epilogue::Kind::hard_swish:
      for (int64_t i = 0; i < n; ++i) p[i] = hard_swish_of(p[i]);
      return;
    case Epilogue::Kind::swish: {
      // The sigmoids a block at a time, then the products (the Mul after the Sigmoid).
      constexpr int64_t kBlock = 256;
      float s[kBlock];
      for (int64_t i = 0; i < n; i += kBlock) {
        const int64_t len = std::min(kBlock, n - i);
        sigmoid_f32(p + i, s, len);
        for (int64_t j = 0; j < len; ++j) p[i + j] = p[i + j] * s[j];
      }
      return;
    }
    default:
      if (e.in_registers()) e.apply(p, n);
      return;
  }
}

}  // namespace onnxtool::kernels
