// SPDX-License-Identifier: Apache-2.0
// The quantization kernels (core/kernels/quantize.h): the AVX2 variant gives the scalar
// definition's bytes and range, halves rounding to even, saturation, NaN and every tail length.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

#include "core/kernels/gemm.h"
#include "core/kernels/quantize.h"
#include "core/kernels/quantize_arch.h"

using namespace onnxtool;

namespace {

std::vector<float> awkward_values(std::size_t n) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-300, 300);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  // Exact halves of the scale used below (0.5), values past both ends, a NaN, signed zeros.
  const float special[] = {
      0.25f, 0.75f, -0.25f, 1.25f, 1e9f, -1e9f, std::numeric_limits<float>::quiet_NaN(),
      -0.0f, 0.0f,  127.25f};
  for (std::size_t i = 0; i < std::size(special) && i * 3 < n; ++i) v[i * 3] = special[i];
  return v;
}

}  // namespace

TEST_CASE("quantize_u8: the definition, and AVX2 gives its bytes") {
  const float q1[] = {0.25f, 0.75f, -0.25f, 1e9f, std::numeric_limits<float>::quiet_NaN()};
  uint8_t y[5];
  kernels::detail::quantize_u8_scalar(q1, 5, 0.5f, 10.0f, y);
  // 0.5 -> 0 and 1.5 -> 2 (half to even), -0.5 -> -0; saturation; NaN -> 0.
  CHECK(std::vector<uint8_t>(y, y + 5) == std::vector<uint8_t>{10, 12, 10, 255, 0});
  if (kernels::cpu_simd_level() == kernels::SimdLevel::scalar) return;
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{8},
                        std::size_t{9}, std::size_t{100}, std::size_t{1023}}) {
    CAPTURE(n);
    const auto x = awkward_values(n);
    std::vector<uint8_t> want(n), got(n);
    kernels::detail::quantize_u8_scalar(x.data(), static_cast<int64_t>(n), 0.5f, 3.0f, want.data());
    kernels::detail::quantize_u8_avx2(x.data(), static_cast<int64_t>(n), 0.5f, 3.0f, got.data());
    CHECK(got == want);
    float lo1 = 0, hi1 = 0, lo2 = 0, hi2 = 0;
    kernels::detail::float_range_scalar(x.data(), static_cast<int64_t>(n), lo1, hi1);
    kernels::detail::float_range_avx2(x.data(), static_cast<int64_t>(n), lo2, hi2);
    CHECK(lo1 == lo2);
    CHECK(hi1 == hi2);
  }
}

namespace {

// n int32 sums (some past 2^24, where the conversion rounds) as dequantize_sums takes them.
std::vector<int32_t> awkward_sums(std::size_t n) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int32_t> u(-40000, 40000);
  std::vector<int32_t> v(n);
  for (auto& x : v) x = u(rng);
  const int32_t special[] = {0, 16777217, -16777219, 2147483647, -2147483647 - 1, 1, -1};
  for (std::size_t i = 0; i < std::size(special) && i * 2 < n; ++i) v[i * 2] = special[i];
  return v;
}

// The definition written out: each step rounded to float, in order.
float dequantized(int32_t sum, float scale, bool has_bias, float bias, const float* r,
                  const kernels::Epilogue& act) {
  float v = static_cast<float>(sum) * scale;
  if (has_bias) v = v + bias;
  if (r) v = v + *r;
  act.apply(&v, 1);
  return v;
}

// (memcmp and memcpy of nothing still need pointers that are not null: empty vectors skip them.)
bool same_bits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0);
}

// The sums' bytes into got, where dequantize_sums turns them into floats in place.
void load_sums(std::vector<float>& got, const std::vector<int32_t>& sums) {
  if (!sums.empty()) std::memcpy(got.data(), sums.data(), sums.size() * sizeof(int32_t));
}

}  // namespace

TEST_CASE("dequantize_sums: int32 sums to floats in place, every variant the definition's bits") {
  const kernels::Epilogue acts[] = {
      {},
      {kernels::Epilogue::Kind::clamp, 0.0f, std::numeric_limits<float>::infinity(), 0.0f},
      {kernels::Epilogue::Kind::clamp, -3.0f, 6.0f, 0.0f},
      {kernels::Epilogue::Kind::leaky, 0.0f, 0.0f, 0.1f}};
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{8},
                        std::size_t{9}, std::size_t{100}, std::size_t{1023}})
    for (const auto& act : acts)
      for (bool with_residual : {false, true}) {
        CAPTURE(n);
        CAPTURE(with_residual);
        const auto sums = awkward_sums(n);
        auto residual = awkward_values(n);  // holds a NaN, which must come through
        const float* r = with_residual ? residual.data() : nullptr;
        std::vector<float> want(n);
        for (std::size_t i = 0; i < n; ++i)
          want[i] = dequantized(sums[i], 0.0125f, true, -0.7f, r ? r + i : nullptr, act);
        // The dispatching entry point (this CPU's best), and the scalar definition.
        std::vector<float> got(n);
        load_sums(got, sums);
        kernels::dequantize_sums(got.data(), static_cast<int64_t>(n), 0.0125f, true, -0.7f, r, act);
        CHECK(same_bits(got, want));
        kernels::detail::SumsToFloat f;
        f.scale = 0.0125f;
        f.has_bias = true;
        f.bias = -0.7f;
        f.residual = r;
        f.act_kind = static_cast<int>(act.kind);
        f.lo = act.lo;
        f.hi = act.hi;
        f.alpha = act.alpha;
        load_sums(got, sums);
        kernels::detail::dequantize_sums_scalar(got.data(), static_cast<int64_t>(n), f);
        CHECK(same_bits(got, want));
        if (kernels::cpu_simd_level() == kernels::SimdLevel::scalar) continue;
        load_sums(got, sums);
        kernels::detail::dequantize_sums_avx2(got.data(), static_cast<int64_t>(n), f);
        CHECK(same_bits(got, want));
      }
}
