// SPDX-License-Identifier: Apache-2.0
#include "core/types/float_formats.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace onnxtool;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();
constexpr float kNan = std::numeric_limits<float>::quiet_NaN();

// One narrow format seen through plain functions on codes, so that a test can loop over all.
struct Fmt {
  std::string name;
  int bits;           // width of a code
  uint32_t max_code;  // largest finite magnitude
  bool uz;            // no negative zero (FNUZ)
  float (*decode)(uint32_t);
  uint32_t (*from_float)(float, bool saturate);
  uint32_t (*from_double)(double, bool saturate);
};

template <class T>
float decode_as(uint32_t c) {
  using B = decltype(T{}.bits);
  return to_float(T{static_cast<B>(c)});
}

template <class T, class Src>
uint32_t encode_as(Src x, bool saturate) {
  return narrow_float<T>(x, saturate).bits;
}

template <class T>
Fmt make_fmt(std::string name, int bits, uint32_t max_code, bool uz) {
  return {std::move(name),     bits, max_code, uz, decode_as<T>, encode_as<T, float>,
          encode_as<T, double>};
}

std::vector<Fmt> all_formats() {
  return {
      make_fmt<Float16>("float16", 16, 0x7BFF, false),
      make_fmt<BFloat16>("bfloat16", 16, 0x7F7F, false),
      make_fmt<Float8E4M3FN>("float8e4m3fn", 8, 0x7E, false),
      make_fmt<Float8E4M3FNUZ>("float8e4m3fnuz", 8, 0x7F, true),
      make_fmt<Float8E5M2>("float8e5m2", 8, 0x7B, false),
      make_fmt<Float8E5M2FNUZ>("float8e5m2fnuz", 8, 0x7F, true),
      make_fmt<Float4E2M1>("float4e2m1", 4, 0x7, false),
  };
}

uint32_t sign_bit(const Fmt& f) {
  return 1u << (f.bits - 1);
}

// The code of sign * magnitude code `c`, as the format writes it (FNUZ has only +0).
uint32_t signed_code(const Fmt& f, bool negative, uint32_t c) {
  if (!negative || (f.uz && c == 0)) return c;
  return c | sign_bit(f);
}

bool is_nan_code(const Fmt& f, uint32_t c) {
  return std::isnan(f.decode(c));
}

uint32_t fbits(float x) {
  return std::bit_cast<uint32_t>(x);
}

}  // namespace

// ---- every bit pattern ---------------------------------------------------------------------

TEST_CASE("float formats: every pattern decodes and encodes back to itself") {
  for (const Fmt& f : all_formats()) {
    CAPTURE(f.name);
    const uint32_t count = 1u << f.bits;
    for (uint32_t c = 0; c < count; ++c) {
      CAPTURE(c);
      const float v = f.decode(c);
      for (bool saturate : {true, false}) {
        const uint32_t back_f = f.from_float(v, saturate);
        const uint32_t back_d = f.from_double(static_cast<double>(v), saturate);
        if (std::isnan(v)) {
          REQUIRE(is_nan_code(f, back_f));
          REQUIRE(is_nan_code(f, back_d));
        } else if (std::isinf(v) && saturate && f.bits == 8) {
          // Cast's first table: float8 saturates inf to the largest finite value.
          const uint32_t max = signed_code(f, v < 0, f.max_code);
          REQUIRE(back_f == max);
          REQUIRE(back_d == max);
        } else {
          REQUIRE(back_f == c);
          REQUIRE(back_d == c);
        }
      }
    }
  }
}

TEST_CASE("float formats: NaN patterns are exactly the ones the spec names") {
  auto nan_codes = [](const Fmt& f) {
    std::vector<uint32_t> out;
    for (uint32_t c = 0; c < (1u << f.bits); ++c)
      if (is_nan_code(f, c)) out.push_back(c);
    return out;
  };
  const auto fmts = all_formats();
  CHECK(nan_codes(fmts[0]).size() == 2 * 1023);  // float16: exponent 31, mantissa != 0
  CHECK(nan_codes(fmts[1]).size() == 2 * 127);   // bfloat16
  CHECK(nan_codes(fmts[2]) == std::vector<uint32_t>{0x7F, 0xFF});
  CHECK(nan_codes(fmts[3]) == std::vector<uint32_t>{0x80});
  CHECK(nan_codes(fmts[4]) == std::vector<uint32_t>{0x7D, 0x7E, 0x7F, 0xFD, 0xFE, 0xFF});
  CHECK(nan_codes(fmts[5]) == std::vector<uint32_t>{0x80});
  CHECK(nan_codes(fmts[6]).empty());
  // Signs of NaN: kept where the format has them, none for the FNUZ NaN.
  CHECK(std::signbit(to_float(Float8E4M3FN{0xFF})));
  CHECK_FALSE(std::signbit(to_float(Float8E4M3FN{0x7F})));
  CHECK_FALSE(std::signbit(to_float(Float8E4M3FNUZ{0x80})));
  CHECK_FALSE(std::signbit(to_float(Float8E5M2FNUZ{0x80})));
}

TEST_CASE("float formats: values grow with the code (decoding is monotonic)") {
  for (const Fmt& f : all_formats()) {
    CAPTURE(f.name);
    for (uint32_t c = 0; c < f.max_code; ++c) {
      CAPTURE(c);
      REQUIRE(f.decode(c) < f.decode(c + 1));
      REQUIRE(f.decode(signed_code(f, true, c + 1)) == -f.decode(c + 1));
    }
  }
}

// ---- rounding ----------------------------------------------------------------------------------

TEST_CASE("float formats: ties round to even, off-ties to nearest, at every midpoint") {
  for (const Fmt& f : all_formats()) {
    CAPTURE(f.name);
    for (uint32_t c = 0; c < f.max_code; ++c) {
      CAPTURE(c);
      const double lo = f.decode(c), hi = f.decode(c + 1);
      const double mid = (lo + hi) / 2;  // exact: both are short binary fractions
      const uint32_t even = (c & 1) ? c + 1 : c;
      for (bool neg : {false, true}) {
        const double s = neg ? -1.0 : 1.0;
        const double down = std::nextafter(s * mid, s * 0.0);
        const double up = std::nextafter(s * mid, s * 1e300);
        REQUIRE(f.from_double(s * mid, true) == signed_code(f, neg, even));
        REQUIRE(f.from_double(down, true) == signed_code(f, neg, c));
        REQUIRE(f.from_double(up, true) == signed_code(f, neg, c + 1));
        const float sf = neg ? -1.0f : 1.0f;
        const float midf = static_cast<float>(s * mid);
        REQUIRE(static_cast<double>(midf) == s * mid);
        REQUIRE(f.from_float(midf, true) == signed_code(f, neg, even));
        REQUIRE(f.from_float(std::nextafter(midf, sf * 0.0f), true) == signed_code(f, neg, c));
        REQUIRE(f.from_float(std::nextafter(midf, sf * kInf), true) == signed_code(f, neg, c + 1));
      }
    }
  }
}

TEST_CASE("float formats: the tie above the max rounds to even, which may overflow") {
  // float16: 65520 is halfway between 65504 (odd mantissa) and 65536: IEEE gives inf.
  CHECK(to_float16(65519.0f).bits == 0x7BFF);
  CHECK(to_float16(65520.0f).bits == 0x7C00);
  CHECK(to_float16(-65520.0).bits == 0xFC00);
  CHECK(to_bfloat16(std::ldexp(0x1FFp0f, 119)).bits == 0x7F80);  // (2 - 2^-8) * 2^127 -> inf
  // E4M3FN: max 448 has an even mantissa, so 464 stays 448 even without saturation.
  CHECK(to_float8e4m3fn(464.0f, false).bits == 0x7E);
  CHECK(to_float8e4m3fn(464.01f, false).bits == 0x7F);
  CHECK(to_float8e4m3fn(464.01f, true).bits == 0x7E);
  // E4M3FNUZ: max 240 is odd; 248 rounds to 256, out of range.
  CHECK(to_float8e4m3fnuz(247.9f, false).bits == 0x7F);
  CHECK(to_float8e4m3fnuz(248.0f, false).bits == 0x80);
  CHECK(to_float8e4m3fnuz(248.0f, true).bits == 0x7F);
  // E5M2: 61440 is halfway between 57344 (odd) and 65536 -> rounds up -> inf or max.
  CHECK(to_float8e5m2(61439.0f, false).bits == 0x7B);
  CHECK(to_float8e5m2(61440.0f, false).bits == 0x7C);
  CHECK(to_float8e5m2(-61440.0f, false).bits == 0xFC);
  CHECK(to_float8e5m2(61440.0f, true).bits == 0x7B);
  CHECK(to_float8e5m2fnuz(61439.0f, false).bits == 0x7F);
  CHECK(to_float8e5m2fnuz(61440.0f, false).bits == 0x80);
  CHECK(to_float8e5m2fnuz(61440.0f, true).bits == 0x7F);
  // float4e2m1: 7 is halfway between 6 and 8; always saturates.
  CHECK(to_float4e2m1(7.0f).bits == 0x7);
  CHECK(to_float4e2m1(-7.5f).bits == 0xF);
}

TEST_CASE("float formats: a double is rounded once, never through float") {
  // 1 + 2^-11 + 2^-40: just above the float16 tie between 1 and 1 + 2^-10. Via float it
  // becomes the tie itself and then rounds down to even.
  const double x = 1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40);
  CHECK(to_float16(x).bits == 0x3C01);
  CHECK(to_float16(static_cast<float>(x)).bits == 0x3C00);
  const double y = 1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40);
  CHECK(to_bfloat16(y).bits == 0x3F81);
  CHECK(to_bfloat16(static_cast<float>(y)).bits == 0x3F80);
  const double z = 1.0 + std::ldexp(1.0, -4) + std::ldexp(1.0, -40);  // e4m3 ulp at 1 is 2^-3
  CHECK(to_float8e4m3fn(z).bits == 0x39);
  CHECK(to_float8e4m3fn(static_cast<float>(z)).bits == 0x38);
  // Far below every format: rounds to zero, keeping the sign where there is one.
  CHECK(to_float16(std::ldexp(1.0, -1000)).bits == 0x0000);
  CHECK(to_float16(-std::ldexp(1.0, -1074)).bits == 0x8000);
  CHECK(to_bfloat16(std::numeric_limits<double>::max()).bits == 0x7F80);
  CHECK(to_float8e5m2(std::numeric_limits<double>::max(), false).bits == 0x7C);
}

TEST_CASE("float formats: the float and double encoders agree on every sampled float") {
  const auto fmts = all_formats();
  // A stride through all 2^32 float patterns (prime, so every exponent and many mantissas).
  for (uint64_t b = 0; b < (uint64_t{1} << 32); b += 65521) {
    const float x = std::bit_cast<float>(static_cast<uint32_t>(b));
    for (const Fmt& f : fmts)
      for (bool saturate : {true, false})
        REQUIRE(f.from_float(x, saturate) == f.from_double(static_cast<double>(x), saturate));
    for (auto r : {E8M0Rounding::up, E8M0Rounding::down, E8M0Rounding::nearest})
      for (bool saturate : {true, false})
        REQUIRE(to_float8e8m0(x, saturate, r).bits ==
                to_float8e8m0(static_cast<double>(x), saturate, r).bits);
  }
}

#if defined(__FLT16_MANT_DIG__) && defined(__x86_64__)
// The compiler's own _Float16 conversions (libgcc soft-float, correctly rounded) as a second
// opinion on random doubles and floats across the whole float16 range and beyond.
TEST_CASE("float16: agrees with the compiler's _Float16 conversions") {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> mant(1.0, 2.0);
  std::uniform_int_distribution<int> expo(-30, 18);
  for (int i = 0; i < 200000; ++i) {
    double x = std::ldexp(mant(rng), expo(rng));
    if (i & 1) x = -x;
    const auto want = std::bit_cast<uint16_t>(static_cast<_Float16>(x));
    REQUIRE(to_float16(x).bits == want);
    const auto xf = static_cast<float>(x);
    REQUIRE(to_float16(xf).bits == std::bit_cast<uint16_t>(static_cast<_Float16>(xf)));
  }
}
#endif

// ---- known values --------------------------------------------------------------------------

TEST_CASE("float16: known values") {
  CHECK(to_float(Float16{0x7BFF}) == 65504.0f);                  // max
  CHECK(to_float(Float16{0x0400}) == std::ldexp(1.0f, -14));     // min normal
  CHECK(to_float(Float16{0x0001}) == std::ldexp(1.0f, -24));     // min subnormal
  CHECK(to_float(Float16{0x03FF}) == std::ldexp(1023.0f, -24));  // max subnormal
  CHECK(to_float(Float16{0x3C00}) == 1.0f);
  CHECK(to_float(Float16{0xC000}) == -2.0f);
  CHECK(to_float(Float16{0x7C00}) == kInf);
  CHECK(to_float(Float16{0xFC00}) == -kInf);
  CHECK(fbits(to_float(Float16{0x8000})) == 0x80000000u);  // -0
  CHECK(to_float16(0.1f).bits == 0x2E66);
  CHECK(to_float16(0.1).bits == 0x2E66);
  CHECK(to_float16(1e5f).bits == 0x7C00);  // overflow: inf
  CHECK(to_float16(-1e5).bits == 0xFC00);
  CHECK(to_float16(-0.0f).bits == 0x8000);
  CHECK(to_float16(kInf).bits == 0x7C00);
  CHECK(to_float16(std::ldexp(1.0f, -25)).bits == 0x0000);  // tie with 0: even
  CHECK(to_float16(std::ldexp(3.0f, -26)).bits == 0x0001);  // 0.75 of the min: up
  // NaN stays a quiet NaN, with sign and top payload bits.
  CHECK(to_float16(kNan).bits == 0x7E00);
  CHECK(to_float16(-kNan).bits == 0xFE00);
  CHECK(to_float16(std::bit_cast<float>(0x7F800001u)).bits == 0x7E00);  // signalling -> quiet
  CHECK(to_float16(std::bit_cast<float>(0x7FA00000u)).bits == 0x7F00);  // payload kept
  CHECK(to_float16(std::numeric_limits<double>::quiet_NaN()).bits == 0x7E00);
}

TEST_CASE("bfloat16: known values") {
  CHECK(to_float(BFloat16{0x7F7F}) == std::ldexp(255.0f, 120));            // max
  CHECK(to_float(BFloat16{0x0080}) == std::numeric_limits<float>::min());  // min normal
  CHECK(to_float(BFloat16{0x0001}) == std::ldexp(1.0f, -133));             // min subnormal
  CHECK(to_float(BFloat16{0x3F80}) == 1.0f);
  CHECK(to_bfloat16(1.0f + std::ldexp(1.0f, -8)).bits == 0x3F80);  // tie: even
  CHECK(to_bfloat16(1.0f + std::ldexp(3.0f, -8)).bits == 0x3F82);  // tie: even (up)
  CHECK(to_bfloat16(std::numeric_limits<float>::max()).bits == 0x7F80);
  CHECK(to_bfloat16(-0.0).bits == 0x8000);
  CHECK(to_bfloat16(kNan).bits == 0x7FC0);
  CHECK(to_bfloat16(std::bit_cast<float>(0xFF800001u)).bits == 0xFFC0);  // quiet, sign kept
  CHECK(to_bfloat16(std::ldexp(1.0, -134)).bits == 0x0000);  // half the min subnormal: even
  CHECK(to_bfloat16(std::ldexp(1.0, -134) * 1.0000001).bits == 0x0001);
}

TEST_CASE("float8e4m3fn: known values") {
  CHECK(to_float(Float8E4M3FN{0x7E}) == 448.0f);
  CHECK(to_float(Float8E4M3FN{0x08}) == std::ldexp(1.0f, -6));  // min normal
  CHECK(to_float(Float8E4M3FN{0x01}) == std::ldexp(1.0f, -9));  // min subnormal
  CHECK(to_float(Float8E4M3FN{0x38}) == 1.0f);
  CHECK(to_float(Float8E4M3FN{0xFE}) == -448.0f);
  CHECK(fbits(to_float(Float8E4M3FN{0x80})) == 0x80000000u);
  CHECK(to_float8e4m3fn(std::ldexp(1.0f, -10)).bits == 0x00);  // tie with 0: even
  CHECK(to_float8e4m3fn(std::ldexp(3.0f, -11)).bits == 0x01);
  CHECK(to_float8e4m3fn(1.0625f).bits == 0x38);  // tie: even (down)
  CHECK(to_float8e4m3fn(1.1875f).bits == 0x3A);  // tie: even (up)
}

TEST_CASE("float8e4m3fnuz: known values") {
  CHECK(to_float(Float8E4M3FNUZ{0x7F}) == 240.0f);
  CHECK(to_float(Float8E4M3FNUZ{0x08}) == std::ldexp(1.0f, -7));
  CHECK(to_float(Float8E4M3FNUZ{0x01}) == std::ldexp(1.0f, -10));
  CHECK(to_float(Float8E4M3FNUZ{0x40}) == 1.0f);  // bias 8
  CHECK(to_float(Float8E4M3FNUZ{0xFF}) == -240.0f);
  CHECK(to_float8e4m3fnuz(1.0f).bits == 0x40);
}

TEST_CASE("float8e5m2: known values") {
  CHECK(to_float(Float8E5M2{0x7B}) == 57344.0f);
  CHECK(to_float(Float8E5M2{0x04}) == std::ldexp(1.0f, -14));
  CHECK(to_float(Float8E5M2{0x01}) == std::ldexp(1.0f, -16));
  CHECK(to_float(Float8E5M2{0x3C}) == 1.0f);
  CHECK(to_float(Float8E5M2{0x7C}) == kInf);
  CHECK(to_float(Float8E5M2{0xFC}) == -kInf);
  // E5M2 is float16 with the low byte cut off: encoding agrees with float16 rounding.
  for (uint32_t h = 0; h < 0x10000; h += 0x100) {
    const float v = to_float(Float16{static_cast<uint16_t>(h)});
    if (!std::isnan(v)) CHECK(to_float8e5m2(v, false).bits == h >> 8);
  }
}

TEST_CASE("float8e5m2fnuz: known values") {
  CHECK(to_float(Float8E5M2FNUZ{0x7F}) == 57344.0f);
  CHECK(to_float(Float8E5M2FNUZ{0x04}) == std::ldexp(1.0f, -15));
  CHECK(to_float(Float8E5M2FNUZ{0x01}) == std::ldexp(1.0f, -17));
  CHECK(to_float(Float8E5M2FNUZ{0x40}) == 1.0f);  // bias 16
}

TEST_CASE("float4e2m1: every value and the Cast rules") {
  const float values[8] = {0.0f, 0.5f, 1.0f, 1.5f, 2.0f, 3.0f, 4.0f, 6.0f};
  for (uint8_t c = 0; c < 8; ++c) {
    CHECK(to_float(Float4E2M1{c}) == values[c]);
    CHECK(to_float(Float4E2M1{static_cast<uint8_t>(c | 8)}) == -values[c]);
    CHECK(to_float(Float4E2M1{static_cast<uint8_t>(c | 0xF0)}) == values[c]);  // high bits unused
  }
  CHECK(to_float4e2m1(-0.0f).bits == 0x8);
  CHECK(to_float4e2m1(0.25f).bits == 0x0);  // tie: even
  CHECK(to_float4e2m1(0.75f).bits == 0x2);  // tie: even (up)
  CHECK(to_float4e2m1(2.5f).bits == 0x4);   // tie between 2 and 3: even (2)
  CHECK(to_float4e2m1(5.0f).bits == 0x6);   // tie between 4 and 6: even (4)
  CHECK(to_float4e2m1(100.0f).bits == 0x7);
  CHECK(to_float4e2m1(-1e30).bits == 0xF);
  CHECK(to_float4e2m1(kInf).bits == 0x7);
  CHECK(to_float4e2m1(-kInf).bits == 0xF);
  CHECK(to_float4e2m1(kNan).bits == 0x7);
  CHECK(to_float4e2m1(-kNan).bits == 0x7);
}

// ---- Cast's saturation tables ------------------------------------------------------------------

TEST_CASE("float8: Cast with saturate=1 (first table)") {
  // x: 0, -0, NaN, Inf, -Inf, [x] > max, [x] < -max
  CHECK(to_float8e4m3fn(0.0f).bits == 0x00);
  CHECK(to_float8e4m3fn(-0.0f).bits == 0x80);
  CHECK(to_float8e4m3fn(kNan).bits == 0x7F);
  CHECK(to_float8e4m3fn(kInf).bits == 0x7E);
  CHECK(to_float8e4m3fn(-kInf).bits == 0xFE);
  CHECK(to_float8e4m3fn(1e6f).bits == 0x7E);
  CHECK(to_float8e4m3fn(-1e6f).bits == 0xFE);

  CHECK(to_float8e4m3fnuz(0.0f).bits == 0x00);
  CHECK(to_float8e4m3fnuz(-0.0f).bits == 0x00);
  CHECK(to_float8e4m3fnuz(kNan).bits == 0x80);
  CHECK(to_float8e4m3fnuz(kInf).bits == 0x7F);
  CHECK(to_float8e4m3fnuz(-kInf).bits == 0xFF);
  CHECK(to_float8e4m3fnuz(1e6f).bits == 0x7F);
  CHECK(to_float8e4m3fnuz(-1e6f).bits == 0xFF);

  CHECK(to_float8e5m2(0.0f).bits == 0x00);
  CHECK(to_float8e5m2(-0.0f).bits == 0x80);
  CHECK(to_float8e5m2(kNan).bits == 0x7F);
  CHECK(to_float8e5m2(kInf).bits == 0x7B);
  CHECK(to_float8e5m2(-kInf).bits == 0xFB);
  CHECK(to_float8e5m2(1e6f).bits == 0x7B);
  CHECK(to_float8e5m2(-1e6f).bits == 0xFB);

  CHECK(to_float8e5m2fnuz(0.0f).bits == 0x00);
  CHECK(to_float8e5m2fnuz(-0.0f).bits == 0x00);
  CHECK(to_float8e5m2fnuz(kNan).bits == 0x80);
  CHECK(to_float8e5m2fnuz(kInf).bits == 0x7F);
  CHECK(to_float8e5m2fnuz(-kInf).bits == 0xFF);
  CHECK(to_float8e5m2fnuz(1e6f).bits == 0x7F);
  CHECK(to_float8e5m2fnuz(-1e6f).bits == 0xFF);
}

TEST_CASE("float8: Cast with saturate=0 (second table)") {
  // x: 0, -0, NaN, -NaN, Inf, -Inf, [x] > max, [x] < -max
  CHECK(to_float8e4m3fn(0.0f, false).bits == 0x00);
  CHECK(to_float8e4m3fn(-0.0f, false).bits == 0x80);
  CHECK(to_float8e4m3fn(kNan, false).bits == 0x7F);
  CHECK(to_float8e4m3fn(-kNan, false).bits == 0xFF);
  CHECK(to_float8e4m3fn(kInf, false).bits == 0x7F);
  CHECK(to_float8e4m3fn(-kInf, false).bits == 0xFF);
  CHECK(to_float8e4m3fn(1e6f, false).bits == 0x7F);
  CHECK(to_float8e4m3fn(-1e6f, false).bits == 0xFF);

  CHECK(to_float8e4m3fnuz(-0.0f, false).bits == 0x00);
  CHECK(to_float8e4m3fnuz(-kNan, false).bits == 0x80);
  CHECK(to_float8e4m3fnuz(kInf, false).bits == 0x80);
  CHECK(to_float8e4m3fnuz(-kInf, false).bits == 0x80);
  CHECK(to_float8e4m3fnuz(1e6f, false).bits == 0x80);
  CHECK(to_float8e4m3fnuz(-1e6f, false).bits == 0x80);

  CHECK(to_float8e5m2(-0.0f, false).bits == 0x80);
  CHECK(to_float8e5m2(kNan, false).bits == 0x7F);
  CHECK(to_float8e5m2(-kNan, false).bits == 0xFF);
  CHECK(to_float8e5m2(kInf, false).bits == 0x7C);
  CHECK(to_float8e5m2(-kInf, false).bits == 0xFC);
  CHECK(to_float8e5m2(1e6f, false).bits == 0x7C);
  CHECK(to_float8e5m2(-1e6f, false).bits == 0xFC);

  CHECK(to_float8e5m2fnuz(-0.0f, false).bits == 0x00);
  CHECK(to_float8e5m2fnuz(-kNan, false).bits == 0x80);
  CHECK(to_float8e5m2fnuz(kInf, false).bits == 0x80);
  CHECK(to_float8e5m2fnuz(-kInf, false).bits == 0x80);
  CHECK(to_float8e5m2fnuz(1e6f, false).bits == 0x80);
  CHECK(to_float8e5m2fnuz(-1e6f, false).bits == 0x80);
}

TEST_CASE("float8: the ONNX backend test vectors for Cast") {
  // Inputs and expected outputs of test_cast_FLOAT_to_FLOAT8* and test_cast_no_saturate_*.
  const std::vector<float> x = {0.47892547f, 0.48033667f, 0.49968487f, 0.81910545f, 0.47031248f,
                                0.7229038f,  1000000.0f,  1e-7f,       kNan,        kInf,
                                kInf,        -kInf,       -1e-7f,      1e-7f,       -1000000.0f};
  struct Row {
    std::vector<uint32_t> sat, nosat;
  };
  const Row e4m3fn{{47, 47, 48, 53, 47, 52, 126, 0, 127, 126, 126, 254, 128, 0, 254},
                   {47, 47, 48, 53, 47, 52, 127, 0, 127, 127, 127, 255, 128, 0, 255}};
  const Row e4m3fnuz{{55, 55, 56, 61, 55, 60, 127, 0, 128, 127, 127, 255, 0, 0, 255},
                     {55, 55, 56, 61, 55, 60, 128, 0, 128, 128, 128, 128, 0, 0, 128}};
  const Row e5m2{{56, 56, 56, 59, 56, 58, 123, 0, 127, 123, 123, 251, 128, 0, 251},
                 {56, 56, 56, 59, 56, 58, 124, 0, 127, 124, 124, 252, 128, 0, 252}};
  const Row e5m2fnuz{{60, 60, 60, 63, 60, 62, 127, 0, 128, 127, 127, 255, 0, 0, 255},
                     {60, 60, 60, 63, 60, 62, 128, 0, 128, 128, 128, 128, 0, 0, 128}};
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(i);
    CHECK(to_float8e4m3fn(x[i], true).bits == e4m3fn.sat[i]);
    CHECK(to_float8e4m3fn(x[i], false).bits == e4m3fn.nosat[i]);
    CHECK(to_float8e4m3fnuz(x[i], true).bits == e4m3fnuz.sat[i]);
    CHECK(to_float8e4m3fnuz(x[i], false).bits == e4m3fnuz.nosat[i]);
    CHECK(to_float8e5m2(x[i], true).bits == e5m2.sat[i]);
    CHECK(to_float8e5m2(x[i], false).bits == e5m2.nosat[i]);
    CHECK(to_float8e5m2fnuz(x[i], true).bits == e5m2fnuz.sat[i]);
    CHECK(to_float8e5m2fnuz(x[i], false).bits == e5m2fnuz.nosat[i]);
  }
}

TEST_CASE("float4e2m1: the ONNX backend test vectors for Cast") {
  const std::vector<float> x = {0.48f, 0.25f, 1.05f, -3.5f, -8.0f, 9.0f,  1000000.0f, 1e-7f,
                                kNan,  kInf,  kInf,  -kInf, -4.0f, 0.01f, -0.0f};
  // test_cast_FLOAT_to_FLOAT4E2M1 output, unpacked from int32_data 1,226,127,7,119,247,14,8.
  const std::vector<uint32_t> want = {0x1, 0x0, 0x2, 0xE, 0xF, 0x7, 0x7, 0x0,
                                      0x7, 0x7, 0x7, 0xF, 0xE, 0x0, 0x8};
  for (std::size_t i = 0; i < x.size(); ++i) {
    CAPTURE(i);
    CHECK(to_float4e2m1(x[i]).bits == want[i]);
  }
}

// ---- float8e8m0 ---------------------------------------------------------------------------------

TEST_CASE("float8e8m0: every pattern") {
  for (uint32_t b = 0; b < 255; ++b) {
    CAPTURE(b);
    const float v = to_float(Float8E8M0{static_cast<uint8_t>(b)});
    REQUIRE(v == std::ldexp(1.0f, static_cast<int>(b) - 127));
    for (auto r : {E8M0Rounding::up, E8M0Rounding::down, E8M0Rounding::nearest})
      for (bool saturate : {true, false}) REQUIRE(to_float8e8m0(v, saturate, r).bits == b);
  }
  CHECK(std::isnan(to_float(Float8E8M0{0xFF})));
  CHECK(to_float(Float8E8M0{0x7F}) == 1.0f);
  CHECK(to_float(Float8E8M0{0xFE}) == std::ldexp(1.0f, 127));
  CHECK(to_float(Float8E8M0{0x00}) == std::ldexp(1.0f, -127));
}

TEST_CASE("float8e8m0: Cast's table for saturate+up and non-saturate+nearest") {
  const auto up = E8M0Rounding::up, nearest = E8M0Rounding::nearest;
  CHECK(to_float8e8m0(0.0f, true, up).bits == 0x00);
  CHECK(to_float8e8m0(0.0f, false, nearest).bits == 0xFF);
  CHECK(to_float8e8m0(kNan, true, up).bits == 0xFF);
  CHECK(to_float8e8m0(kNan, false, nearest).bits == 0xFF);
  CHECK(to_float8e8m0(kInf, true, up).bits == 0xFE);
  CHECK(to_float8e8m0(kInf, false, nearest).bits == 0xFF);
  CHECK(to_float8e8m0(3e38f, true, up).bits == 0xFE);  // > 2^127, rounds to 2^128
  CHECK(to_float8e8m0(3e38f, false, nearest).bits == 0xFF);
  CHECK(to_float8e8m0(std::ldexp(1.0f, -130), true, up).bits == 0x00);  // < 2^-127
  CHECK(to_float8e8m0(std::ldexp(1.0f, -130), false, nearest).bits == 0xFF);
}

TEST_CASE("float8e8m0: rounding modes") {
  const auto up = E8M0Rounding::up, down = E8M0Rounding::down, nearest = E8M0Rounding::nearest;
  // The inputs of the e8m0 example of Cast: 0, 0.124, 0.25, 0.5, 1.1, 2, 4, 8 (round up).
  const std::vector<float> x = {0.0f, 0.124f, 0.25f, 0.5f, 1.1f, 2.0f, 4.0f, 8.0f};
  const std::vector<uint32_t> want_up = {0x00, 124, 125, 126, 128, 128, 129, 130};
  for (std::size_t i = 0; i < x.size(); ++i)
    CHECK(to_float8e8m0(x[i], true, up).bits == want_up[i]);
  CHECK(to_float8e8m0(1.1f, true, down).bits == 127);
  CHECK(to_float8e8m0(1.1f, true, nearest).bits == 127);
  CHECK(to_float8e8m0(1.4999f, true, nearest).bits == 127);
  CHECK(to_float8e8m0(1.5f, true, nearest).bits == 128);  // tie goes up
  CHECK(to_float8e8m0(1.9f, true, down).bits == 127);
  CHECK(to_float8e8m0(0.124f, true, down).bits == 123);
  CHECK(to_float8e8m0(0.124f, true, nearest).bits == 124);
  // The range check applies to the rounded power of two.
  const float big = std::ldexp(1.25f, 127);
  CHECK(to_float8e8m0(big, false, down).bits == 0xFE);
  CHECK(to_float8e8m0(big, false, nearest).bits == 0xFE);
  CHECK(to_float8e8m0(big, false, up).bits == 0xFF);
  CHECK(to_float8e8m0(big, true, up).bits == 0xFE);
  // Float subnormals: 1.5 * 2^-128 rounds up to 2^-127; down it is 2^-128, out of range.
  const float tiny = std::ldexp(1.5f, -128);
  CHECK(to_float8e8m0(tiny, false, up).bits == 0x00);
  CHECK(to_float8e8m0(tiny, false, nearest).bits == 0x00);
  CHECK(to_float8e8m0(tiny, false, down).bits == 0xFF);
  CHECK(to_float8e8m0(tiny, true, down).bits == 0x00);
  CHECK(to_float8e8m0(std::numeric_limits<float>::denorm_min(), true, up).bits == 0x00);
  // Negative inputs are unspecified by Cast: the sign is dropped.
  CHECK(to_float8e8m0(-4.0f).bits == 129);
  CHECK(to_float8e8m0(-0.0f, true).bits == 0x00);
  // From double, directly.
  CHECK(to_float8e8m0(std::ldexp(1.0, 200), true, up).bits == 0xFE);
  CHECK(to_float8e8m0(std::ldexp(1.0, -200), false, up).bits == 0xFF);
  CHECK(to_float8e8m0(1.0 + 1e-15, true, up).bits == 128);
  CHECK(to_float8e8m0(1.0 + 1e-15, true, nearest).bits == 127);
}
