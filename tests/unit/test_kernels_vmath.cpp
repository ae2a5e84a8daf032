// SPDX-License-Identifier: Apache-2.0
// The vector math (core/kernels/vmath.h): e^x within 2 ulp (erf and tanh within 4) of the true
// value on the whole range, its edges and NaN; the vector code and the scalar code (one element at
// a time) give the same bits; the softmax reductions add in the order vmath.h states.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/kernels/vmath.h"

using namespace onnxtool;

namespace {

bool same_bits(float a, float b) {
  return std::memcmp(&a, &b, sizeof a) == 0;
}

// Distance in units in the last place between two finite floats of one sign.
double ulps(float got, double want) {
  const double ulp = std::ldexp(1.0, std::ilogb(static_cast<float>(want)) - 23);
  return std::abs(static_cast<double>(got) - want) / ulp;
}

}  // namespace

TEST_CASE("exp_f32: within 2 ulp, the same bits by vector and one by one, the edges") {
  std::vector<float> x;
  for (float v = -87.0f; v < 88.7f; v += 0.0137f) x.push_back(v);
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-1, 1);
  for (int i = 0; i < 1000; ++i) x.push_back(u(rng) * 1e-3f);
  std::vector<float> y(x.size());
  kernels::exp_f32(x.data(), y.data(), static_cast<int64_t>(x.size()));
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    float one;
    kernels::exp_f32(&x[i], &one, 1);
    REQUIRE(same_bits(one, y[i]));
    worst = std::max(worst, ulps(y[i], std::exp(static_cast<double>(x[i]))));
  }
  CHECK(worst <= 2.0);

  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> edges = {0.0f, -0.0f, 88.8f, inf, -105.0f, -inf, nan, 1.0f};
  std::vector<float> e(edges.size());
  kernels::exp_f32(edges.data(), e.data(), static_cast<int64_t>(edges.size()));
  CHECK(e[0] == 1.0f);
  CHECK(e[1] == 1.0f);
  CHECK(e[2] == inf);
  CHECK(e[3] == inf);
  CHECK(e[4] == 0.0f);
  CHECK(e[5] == 0.0f);
  CHECK(std::isnan(e[6]));
  CHECK(ulps(e[7], std::exp(1.0)) <= 2.0);
  // Subnormal results: small, positive, and the same one by one.
  const float tiny_in[8] = {-90, -95, -100, -103.9f, -88, -89, -91, -99};
  float tiny[8];
  kernels::exp_f32(tiny_in, tiny, 8);
  for (int i = 0; i < 8; ++i) {
    float one;
    kernels::exp_f32(&tiny_in[i], &one, 1);
    CHECK(same_bits(one, tiny[i]));
    CHECK(tiny[i] >= 0.0f);
    CHECK(std::abs(tiny[i] - std::exp(tiny_in[i])) <= 2 * std::numeric_limits<float>::denorm_min());
  }
}

TEST_CASE("max_f32 passes NaN over; exp_shifted_sum_f32 adds in its stated order") {
  std::mt19937 rng(6);
  std::uniform_real_distribution<float> u(-4, 4);
  for (int64_t n : {0, 1, 7, 8, 9, 37, 128}) {
    std::vector<float> x(static_cast<std::size_t>(n));
    for (auto& v : x) v = u(rng);
    if (n > 3) x[2] = std::numeric_limits<float>::quiet_NaN();
    float want_max = -std::numeric_limits<float>::infinity();
    for (float v : x) want_max = v > want_max ? v : want_max;
    CHECK(same_bits(kernels::max_f32(x.data(), n), want_max));
    if (n > 3) x[2] = 0.25f;
    // The definition: e^(x - shift) one at a time, lane i % 8, then the stated tree.
    float lanes[8] = {};
    std::vector<float> want(x.size()), got(x.size());
    for (int64_t i = 0; i < n; ++i) {
      const float d = x[static_cast<std::size_t>(i)] - 1.5f;
      kernels::exp_f32(&d, &want[static_cast<std::size_t>(i)], 1);
      lanes[i % 8] = lanes[i % 8] + want[static_cast<std::size_t>(i)];
    }
    const float want_sum = ((lanes[0] + lanes[4]) + (lanes[2] + lanes[6])) +
                           ((lanes[1] + lanes[5]) + (lanes[3] + lanes[7]));
    const float sum = kernels::exp_shifted_sum_f32(x.data(), 1.5f, got.data(), n);
    INFO("n=", n);
    for (std::size_t i = 0; i < got.size(); ++i) CHECK(same_bits(got[i], want[i]));
    CHECK(same_bits(sum, want_sum));
  }
}

TEST_CASE("erf_f32: within 4 ulp, odd, the same bits by vector and one by one, the edges") {
  std::vector<float> x;
  for (float v = -5.0f; v < 5.0f; v += 0.00071f) x.push_back(v);
  for (float v : {0.0f, -0.0f, 1e-30f, -1e-20f, 1.0f, -1.0f, 4.0f, -4.0f, 3.9999f, 0.99999f})
    x.push_back(v);
  std::vector<float> y(x.size());
  kernels::erf_f32(x.data(), y.data(), static_cast<int64_t>(x.size()));
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    float one;
    kernels::erf_f32(&x[i], &one, 1);
    REQUIRE(same_bits(one, y[i]));
    const double want = std::erf(static_cast<double>(x[i]));
    if (want != 0) worst = std::max(worst, ulps(y[i], want));
    const float neg = -x[i];
    float minus;
    kernels::erf_f32(&neg, &minus, 1);
    CHECK(same_bits(minus, -y[i]));
  }
  CHECK(worst <= 4.0);
  const float special[3] = {std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN()};
  float out[3];
  kernels::erf_f32(special, out, 3);
  CHECK(out[0] == 1.0f);
  CHECK(out[1] == -1.0f);
  CHECK(std::isnan(out[2]));
}

TEST_CASE("tanh_f32: within 4 ulp, odd, the same bits by vector and one by one, the edges") {
  std::vector<float> x;
  for (float v = -12.0f; v < 12.0f; v += 0.00113f) x.push_back(v);
  for (float v = -0.7f; v < 0.7f; v += 0.0000371f) x.push_back(v);  // both sides of the split
  for (float v : {0.0f, -0.0f, 1e-30f, -1e-20f, 0.55f, -0.55f, 0.5499999f, 9.0f, 50.0f, 1e-6f})
    x.push_back(v);
  std::vector<float> y(x.size());
  kernels::tanh_f32(x.data(), y.data(), static_cast<int64_t>(x.size()));
  double worst = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    float one;
    kernels::tanh_f32(&x[i], &one, 1);
    REQUIRE(same_bits(one, y[i]));
    const double want = std::tanh(static_cast<double>(x[i]));
    if (want != 0) worst = std::max(worst, ulps(y[i], want));
    const float neg = -x[i];
    float minus;
    kernels::tanh_f32(&neg, &minus, 1);
    CHECK(same_bits(minus, -y[i]));
  }
  CHECK(worst <= 4.0);
  const float special[4] = {std::numeric_limits<float>::infinity(),
                            -std::numeric_limits<float>::infinity(),
                            std::numeric_limits<float>::quiet_NaN(), -0.0f};
  float out[4];
  kernels::tanh_f32(special, out, 4);
  CHECK(out[0] == 1.0f);
  CHECK(out[1] == -1.0f);
  CHECK(std::isnan(out[2]));
  CHECK(same_bits(out[3], -0.0f));
}

TEST_CASE("affine_f32: a product, a sum, then the activation, element by element's bits") {
  std::mt19937 rng(5);
  std::uniform_real_distribution<float> u(-3, 3);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float inf = std::numeric_limits<float>::infinity();
  using Kind = kernels::Epilogue::Kind;
  const kernels::Epilogue activations[] = {{},
                                           {Kind::clamp, 0.0f, inf, 0.0f},
                                           {Kind::clamp, -1.0f, 6.0f, 0.0f},
                                           {Kind::leaky, 0, 0, 0.1f}};
  for (int64_t n : {0, 1, 7, 8, 9, 31, 100})
    for (const kernels::Epilogue& act : activations) {
      std::vector<float> x(static_cast<std::size_t>(n));
      for (auto& v : x) v = u(rng);
      if (n > 3) x[3] = nan, x[1] = -0.0f;
      if (n > 8) x[8] = -inf;
      const float a = 1.37f, b = -0.21f;
      std::vector<float> got(x.size());
      kernels::affine_f32(x.data(), a, b, got.data(), n, act);
      INFO("n=", n, " kind=", static_cast<int>(act.kind));
      for (std::size_t i = 0; i < x.size(); ++i) {
        float want = a * x[i];  // rounded, then the sum: no fused multiply-add
        want = want + b;
        act.apply(&want, 1);
        CHECK(same_bits(got[i], want));
      }
      // In place, as BatchNormalization may write it.
      std::vector<float> inplace = x;
      kernels::affine_f32(inplace.data(), a, b, inplace.data(), n, act);
      for (std::size_t i = 0; i < got.size(); ++i) CHECK(same_bits(inplace[i], got[i]));
    }
}
