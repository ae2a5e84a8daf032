// SPDX-License-Identifier: Apache-2.0
#include "core/types/float_formats.h"

#include <array>
#include <bit>
#include <cstdint>
#include <limits>

namespace onnxtool {

namespace {

// ---- the source value, taken apart --------------------------------------------------------

enum class Kind { zero, finite, inf, nan };

// A float or double as sign, kind and, for finite non-zero values, |x| = sig * 2^(exp - 63)
// with bit 63 of sig set. For NaN, sig holds the fraction bits left-aligned (the quiet bit at
// bit 63). Every float and double fits exactly, so one rounding routine serves both and a
// double is rounded once, straight to the narrow format.
struct Parts {
  bool negative = false;
  Kind kind = Kind::zero;
  int exp = 0;
  uint64_t sig = 0;
};

template <class F>
Parts decompose(F x) {
  using Bits = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;
  constexpr int kTotal = static_cast<int>(sizeof(F)) * 8;
  constexpr int kMan = std::numeric_limits<F>::digits - 1;  // 23 or 52 stored bits
  constexpr int kExpBits = kTotal - 1 - kMan;
  constexpr int kBias = (1 << (kExpBits - 1)) - 1;
  constexpr Bits kExpMask = (Bits{1} << kExpBits) - 1;

  const Bits b = std::bit_cast<Bits>(x);
  const Bits e = (b >> kMan) & kExpMask;
  const Bits m = b & ((Bits{1} << kMan) - 1);
  Parts p;
  p.negative = (b >> (kTotal - 1)) != 0;
  if (e == kExpMask) {
    p.kind = m ? Kind::nan : Kind::inf;
    p.sig = static_cast<uint64_t>(m) << (64 - kMan);
  } else if (e == 0) {
    if (m == 0) return p;  // zero
    const int lead = std::bit_width(m) - 1;
    p.kind = Kind::finite;
    p.exp = 1 - kBias - (kMan - lead);
    p.sig = static_cast<uint64_t>(m) << (63 - lead);
  } else {
    p.kind = Kind::finite;
    p.exp = static_cast<int>(e) - kBias;
    p.sig = (static_cast<uint64_t>(m) | (uint64_t{1} << kMan)) << (63 - kMan);
  }
  return p;
}

// v / 2^shift rounded to nearest, ties to even; any shift >= 0.
uint64_t shift_round_even(uint64_t v, int shift) {
  if (shift == 0) return v;
  if (shift > 64) return 0;  // v < 2^64 <= half of 2^shift: below the halfway point
  const uint64_t q = shift == 64 ? 0 : v >> shift;
  const uint64_t rem = shift == 64 ? v : v & ((uint64_t{1} << shift) - 1);
  const uint64_t half = uint64_t{1} << (shift - 1);
  return (rem > half || (rem == half && (q & 1))) ? q + 1 : q;
}

// A narrow format with an implicit leading bit and subnormals.
struct Format {
  int exp_bits;
  int man_bits;
  int bias;
  uint32_t max_code;  // largest finite magnitude: (exponent field << man_bits) | mantissa
};

constexpr Format kFloat16{5, 10, 15, 0x7BFF};
constexpr Format kBFloat16{8, 7, 127, 0x7F7F};
constexpr Format kE4M3FN{4, 3, 7, 0x7E};
constexpr Format kE4M3FNUZ{4, 3, 8, 0x7F};
constexpr Format kE5M2{5, 2, 15, 0x7B};
constexpr Format kE5M2FNUZ{5, 2, 16, 0x7F};
constexpr Format kE2M1{2, 1, 1, 0x7};

constexpr uint64_t kOverflow = std::numeric_limits<uint64_t>::max();

// Rounds a finite non-zero |x| to the format and returns its magnitude code, which exceeds
// f.max_code when the rounded value is out of range. Codes grow with the value, so a mantissa
// that rounds up to 2^(man_bits+1) carries into the exponent field by plain addition, and a
// subnormal that rounds up to the smallest normal lands on its code as well.
uint64_t round_magnitude(const Parts& p, const Format& f) {
  const int emin = 1 - f.bias;
  // Far above every format's range: answer before the shifts below could overflow.
  if (p.exp + f.bias > (1 << f.exp_bits)) return kOverflow;
  if (p.exp >= emin) {
    const uint64_t q = shift_round_even(p.sig, 63 - f.man_bits);  // in [2^M, 2^(M+1)]
    return (static_cast<uint64_t>(p.exp + f.bias) << f.man_bits) + q - (uint64_t{1} << f.man_bits);
  }
  return shift_round_even(p.sig, 63 - f.man_bits + (emin - p.exp));
}

// float16 and bfloat16: IEEE specials, overflow to inf.
uint16_t encode_ieee16(const Parts& p, const Format& f) {
  const uint32_t sign = p.negative ? 0x8000u : 0u;
  const uint32_t inf = ((1u << f.exp_bits) - 1) << f.man_bits;
  switch (p.kind) {
    case Kind::zero:
      return static_cast<uint16_t>(sign);
    case Kind::inf:
      return static_cast<uint16_t>(sign | inf);
    case Kind::nan: {
      // Keep the top payload bits and force the quiet bit, so the result is a NaN (never inf)
      // and a signalling NaN does not stay signalling.
      const auto payload = static_cast<uint32_t>(p.sig >> (64 - f.man_bits));
      return static_cast<uint16_t>(sign | inf | payload | (1u << (f.man_bits - 1)));
    }
    case Kind::finite:
      break;
  }
  const uint64_t code = round_magnitude(p, f);
  if (code > f.max_code) return static_cast<uint16_t>(sign | inf);
  return static_cast<uint16_t>(sign | code);
}

// The float8 formats of Cast's two tables.
enum class F8Specials {
  fn,    // E4M3FN: NaN is S.1111.111, no inf
  ieee,  // E5M2: inf S.11111.00, NaN S.11111.11 (as written by ONNX)
  fnuz,  // single NaN 0x80, no inf, no -0
};

uint8_t encode_float8(const Parts& p, const Format& f, F8Specials kind, bool saturate) {
  const uint32_t sign = p.negative ? 0x80u : 0u;
  const uint32_t nan = kind == F8Specials::fnuz ? 0x80u : (sign | 0x7Fu);
  if (p.kind == Kind::nan) return static_cast<uint8_t>(nan);
  uint64_t code = 0;
  if (p.kind == Kind::inf) code = kOverflow;
  if (p.kind == Kind::finite) code = round_magnitude(p, f);
  if (code > f.max_code) {
    if (saturate) return static_cast<uint8_t>(sign | f.max_code);
    if (kind == F8Specials::ieee) return static_cast<uint8_t>(sign | 0x7Cu);
    return static_cast<uint8_t>(nan);
  }
  if (code == 0 && kind == F8Specials::fnuz) return 0;  // no negative zero
  return static_cast<uint8_t>(sign | code);
}

uint8_t encode_float4(const Parts& p) {
  if (p.kind == Kind::nan) return 0x7;
  const uint32_t sign = p.negative ? 0x8u : 0u;
  uint64_t code = 0;
  if (p.kind == Kind::inf) code = kOverflow;
  if (p.kind == Kind::finite) code = round_magnitude(p, kE2M1);
  if (code > kE2M1.max_code) code = kE2M1.max_code;
  return static_cast<uint8_t>(sign | code);
}

// E8M0: the biased exponent alone. Rounding works on the unbounded exponent first; the range
// check then applies to the rounded power of two, like Cast's "[x] > FLT_MAX" for float8.
uint8_t encode_e8m0(const Parts& p, bool saturate, E8M0Rounding rounding) {
  constexpr uint8_t kNan = 0xFF, kMax = 0xFE, kMin = 0x00;
  const uint8_t out_of_range_high = saturate ? kMax : kNan;
  const uint8_t out_of_range_low = saturate ? kMin : kNan;
  switch (p.kind) {
    case Kind::nan:
      return kNan;
    case Kind::inf:
      return out_of_range_high;
    case Kind::zero:
      return out_of_range_low;  // below 2^-127 whichever way it rounds
    case Kind::finite:
      break;
  }
  int e = p.exp;
  const uint64_t fraction = p.sig << 1;  // the bits after the leading one
  if (rounding == E8M0Rounding::up && fraction != 0) ++e;
  // Nearest compares values: 2^e * (1 + f) is nearer 2^(e+1) from f = 0.5 on (tie goes up).
  if (rounding == E8M0Rounding::nearest && (fraction >> 63) != 0) ++e;
  const int biased = e + 127;
  if (biased > 254) return out_of_range_high;
  if (biased < 0) return out_of_range_low;
  return static_cast<uint8_t>(biased);
}

// ---- decoding -------------------------------------------------------------------------------

constexpr uint32_t kFloatQuietNan = 0x7FC00000u;

// The float bits of a narrow code (sign bit at sign_bit) in a format with subnormals.
constexpr uint32_t decode_bits(uint32_t code, uint32_t sign_bit, const Format& f, bool is_nan,
                               bool is_inf) {
  // The FNUZ formats' only NaN sits where -0 would be; it has no sign of its own.
  if (is_nan && code == sign_bit) return kFloatQuietNan;
  const uint32_t sign = (code & sign_bit) ? 0x80000000u : 0u;
  const uint32_t mag = code & (sign_bit - 1);
  const uint32_t man_mask = (1u << f.man_bits) - 1;
  const uint32_t m = mag & man_mask;
  const uint32_t e = mag >> f.man_bits;
  if (is_nan) return sign | kFloatQuietNan | (m << (23 - f.man_bits));
  if (is_inf) return sign | 0x7F800000u;
  if (e != 0) {
    const auto fe = static_cast<uint32_t>(static_cast<int>(e) - f.bias + 127);
    return sign | (fe << 23) | (m << (23 - f.man_bits));
  }
  if (m == 0) return sign;
  // Subnormal m * 2^(1 - bias - man_bits): normalise around its leading bit.
  const int lead = std::bit_width(m) - 1;
  const auto fe = static_cast<uint32_t>(lead + 1 - f.bias - f.man_bits + 127);
  return sign | (fe << 23) | ((m & ((1u << lead) - 1)) << (23 - lead));
}

template <std::size_t N, class IsNan, class IsInf>
constexpr std::array<float, N> make_table(const Format& f, IsNan is_nan, IsInf is_inf) {
  std::array<float, N> t{};
  for (uint32_t c = 0; c < N; ++c)
    t[c] = std::bit_cast<float>(decode_bits(c, N / 2, f, is_nan(c), is_inf(c)));
  return t;
}

constexpr auto kNever = [](uint32_t) { return false; };
constexpr auto kFnuzNan = [](uint32_t c) { return c == 0x80; };

constexpr auto kE4M3FNTable = make_table<256>(
    kE4M3FN, [](uint32_t c) { return (c & 0x7F) == 0x7F; }, kNever);
constexpr auto kE4M3FNUZTable = make_table<256>(kE4M3FNUZ, kFnuzNan, kNever);
constexpr auto kE5M2Table = make_table<256>(
    kE5M2, [](uint32_t c) { return (c & 0x7C) == 0x7C && (c & 0x3) != 0; },
    [](uint32_t c) { return (c & 0x7F) == 0x7C; });
constexpr auto kE5M2FNUZTable = make_table<256>(kE5M2FNUZ, kFnuzNan, kNever);
constexpr auto kE2M1Table = make_table<16>(kE2M1, kNever, kNever);

}  // namespace

// ---- decode --------------------------------------------------------------------------------

float to_float(Float16 v) {
  const uint32_t h = v.bits;
  const uint32_t sign = (h & 0x8000u) << 16;
  const uint32_t e = (h >> 10) & 0x1F;
  const uint32_t m = h & 0x3FF;
  if (e == 0x1F) return std::bit_cast<float>(sign | (m ? kFloatQuietNan : 0x7F800000u) | (m << 13));
  if (e == 0) {
    // Subnormal (or zero): m * 2^-24 is exact in float.
    const float mag = static_cast<float>(m) * 0x1p-24f;
    return std::bit_cast<float>(sign | std::bit_cast<uint32_t>(mag));
  }
  return std::bit_cast<float>(sign | ((e + 112) << 23) | (m << 13));
}

// bfloat16 is the top half of a float, so widening is exact for every pattern (NaN included).
float to_float(BFloat16 v) {
  return std::bit_cast<float>(static_cast<uint32_t>(v.bits) << 16);
}

float to_float(Float8E4M3FN v) {
  return kE4M3FNTable[v.bits];
}
float to_float(Float8E4M3FNUZ v) {
  return kE4M3FNUZTable[v.bits];
}
float to_float(Float8E5M2 v) {
  return kE5M2Table[v.bits];
}
float to_float(Float8E5M2FNUZ v) {
  return kE5M2FNUZTable[v.bits];
}
float to_float(Float4E2M1 v) {
  return kE2M1Table[v.bits & 0xF];
}

float to_float(Float8E8M0 v) {
  if (v.bits == 0xFF) return std::bit_cast<float>(kFloatQuietNan);
  // 2^-127 (bits 0) is a float subnormal: only the top mantissa bit set.
  if (v.bits == 0) return std::bit_cast<float>(0x00400000u);
  return std::bit_cast<float>(static_cast<uint32_t>(v.bits) << 23);
}

// ---- encode --------------------------------------------------------------------------------

// float -> float16 and float -> bfloat16 are the hot conversions (converting whole models), so
// they get branch-light forms; the tests hold them to the general path for sampled floats and
// they were checked against it for all 2^32 floats.
Float16 to_float16(float x) {
  const uint32_t u = std::bit_cast<uint32_t>(x);
  const auto sign = static_cast<uint16_t>((u >> 16) & 0x8000u);
  uint32_t a = u & 0x7FFFFFFFu;
  if (a >= 0x7F800000u) return {encode_ieee16(decompose(x), kFloat16)};  // inf, NaN
  if (a >= 0x477FF000u) return {static_cast<uint16_t>(sign | 0x7C00u)};  // rounds to >= 2^16
  if (a < 0x38800000u) {
    // Below 2^-14 the result is a float16 subnormal, in steps of 2^-24. Adding 0.5 puts the
    // value where float's own step is 2^-24, so the FPU's round-to-nearest-even does the
    // rounding and the low mantissa bits are the float16 code.
    const float shifted = std::bit_cast<float>(a) + 0.5f;
    return {static_cast<uint16_t>(sign | (std::bit_cast<uint32_t>(shifted) - 0x3F000000u))};
  }
  // Normal: rebias the exponent (127 -> 15) and round the 13 dropped bits to nearest even; a
  // carry out of the mantissa moves into the exponent, up to inf, as it should.
  const uint32_t odd = (a >> 13) & 1u;
  a = a - 0x38000000u + 0xFFFu + odd;
  return {static_cast<uint16_t>(sign | (a >> 13))};
}
Float16 to_float16(double x) {
  return {encode_ieee16(decompose(x), kFloat16)};
}
BFloat16 to_bfloat16(float x) {
  const uint32_t u = std::bit_cast<uint32_t>(x);
  // NaN: keep sign and top payload bits, force the quiet bit (as encode_ieee16 does).
  if ((u & 0x7FFFFFFFu) > 0x7F800000u) return {static_cast<uint16_t>((u >> 16) | 0x40u)};
  // Round the low 16 bits to nearest even; overflow carries into inf.
  return {static_cast<uint16_t>((u + 0x7FFFu + ((u >> 16) & 1u)) >> 16)};
}
BFloat16 to_bfloat16(double x) {
  return {encode_ieee16(decompose(x), kBFloat16)};
}

Float8E4M3FN to_float8e4m3fn(float x, bool saturate) {
  return {encode_float8(decompose(x), kE4M3FN, F8Specials::fn, saturate)};
}
Float8E4M3FN to_float8e4m3fn(double x, bool saturate) {
  return {encode_float8(decompose(x), kE4M3FN, F8Specials::fn, saturate)};
}
Float8E4M3FNUZ to_float8e4m3fnuz(float x, bool saturate) {
  return {encode_float8(decompose(x), kE4M3FNUZ, F8Specials::fnuz, saturate)};
}
Float8E4M3FNUZ to_float8e4m3fnuz(double x, bool saturate) {
  return {encode_float8(decompose(x), kE4M3FNUZ, F8Specials::fnuz, saturate)};
}
Float8E5M2 to_float8e5m2(float x, bool saturate) {
  return {encode_float8(decompose(x), kE5M2, F8Specials::ieee, saturate)};
}
Float8E5M2 to_float8e5m2(double x, bool saturate) {
  return {encode_float8(decompose(x), kE5M2, F8Specials::ieee, saturate)};
}
Float8E5M2FNUZ to_float8e5m2fnuz(float x, bool saturate) {
  return {encode_float8(decompose(x), kE5M2FNUZ, F8Specials::fnuz, saturate)};
}
Float8E5M2FNUZ to_float8e5m2fnuz(double x, bool saturate) {
  return {encode_float8(decompose(x), kE5M2FNUZ, F8Specials::fnuz, saturate)};
}

Float8E8M0 to_float8e8m0(float x, bool saturate, E8M0Rounding rounding) {
  return {encode_e8m0(decompose(x), saturate, rounding)};
}
Float8E8M0 to_float8e8m0(double x, bool saturate, E8M0Rounding rounding) {
  return {encode_e8m0(decompose(x), saturate, rounding)};
}

Float4E2M1 to_float4e2m1(float x) {
  return {encode_float4(decompose(x))};
}
Float4E2M1 to_float4e2m1(double x) {
  return {encode_float4(decompose(x))};
}

}  // namespace onnxtool
