// SPDX-License-Identifier: Apache-2.0
// Bulk float16/bfloat16 conversions (core/kernels/half.h): the bits of the element conversions
// of core/types/float_formats.h for every float16 pattern, and for floats around every rounding
// boundary, the specials and the subnormals, at every tail length.
#include <doctest/doctest.h>

#include <bit>
#include <cstring>
#include <random>
#include <vector>

#include "core/kernels/half.h"

using namespace onnxtool;

namespace {

std::vector<float> awkward_floats() {
  std::vector<float> v = {0.0f,
                          -0.0f,
                          1.0f,
                          -1.0f,
                          65504.0f,
                          65520.0f,
                          65519.99f,
                          1e9f,
                          -1e9f,
                          5.96e-8f,
                          2.98e-8f,
                          2.99e-8f,
                          6.1e-5f,
                          1e-40f,
                          std::bit_cast<float>(0x7F800000u),
                          std::bit_cast<float>(0xFF800000u),
                          std::bit_cast<float>(0x7FC12345u),
                          std::bit_cast<float>(0xFF812345u)};
  // Each float16 value and the floats half-way to its neighbours, and a little either side.
  for (uint32_t h = 0; h < 0x7C00; h += 7) {
    const float x = to_float(Float16{static_cast<uint16_t>(h)});
    const uint32_t u = std::bit_cast<uint32_t>(x);
    for (uint32_t d : {0u, 0xFFFu, 0x1000u, 0x1001u})
      for (float s : {1.0f, -1.0f}) v.push_back(s * std::bit_cast<float>(u + d));
  }
  std::mt19937 rng(3);
  for (int i = 0; i < 5000; ++i) v.push_back(std::bit_cast<float>(static_cast<uint32_t>(rng())));
  return v;
}

template <class T>
bool same_bits(const std::vector<T>& a, const std::vector<T>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0;
}

}  // namespace

TEST_CASE("bulk float16 decode: every pattern as to_float gives it") {
  std::vector<Float16> in(65536);
  for (uint32_t i = 0; i < 65536; ++i) in[i].bits = static_cast<uint16_t>(i);
  for (int64_t n : {int64_t{65536}, int64_t{65535}, int64_t{7}}) {
    std::vector<float> want(static_cast<std::size_t>(n)), got(want.size());
    for (int64_t i = 0; i < n; ++i) want[static_cast<std::size_t>(i)] = to_float(in[i]);
    kernels::to_float(in.data(), got.data(), n);
    CHECK(same_bits(got, want));
  }
}

TEST_CASE("bulk float16 and bfloat16 encode: the element conversions' bits") {
  const auto x = awkward_floats();
  for (std::size_t n : {x.size(), x.size() - 3, std::size_t{5}}) {
    CAPTURE(n);
    std::vector<Float16> want(n), got(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = to_float16(x[i]);
    kernels::to_float16(x.data(), got.data(), static_cast<int64_t>(n));
    CHECK(same_bits(got, want));
    std::vector<BFloat16> bwant(n), bgot(n);
    for (std::size_t i = 0; i < n; ++i) bwant[i] = to_bfloat16(x[i]);
    kernels::to_bfloat16(x.data(), bgot.data(), static_cast<int64_t>(n));
    CHECK(same_bits(bgot, bwant));
    std::vector<float> back(n), bback(n);
    kernels::to_float(bgot.data(), bback.data(), static_cast<int64_t>(n));
    for (std::size_t i = 0; i < n; ++i) back[i] = to_float(bgot[i]);
    CHECK(same_bits(bback, back));
  }
}
