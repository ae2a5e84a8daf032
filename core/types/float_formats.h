// SPDX-License-Identifier: Apache-2.0
// Conversions between float/double and the narrow float formats of ONNX, on bit patterns.
//
// Decoding is exact: every narrow value is a float. Encoding rounds to nearest, ties to even,
// with one rounding from the source (double is never narrowed to float first). Out-of-range
// values and specials follow the Cast operator (Operators.md): the float8 tables for saturate
// true/false, the FLOAT8E8M0 round_mode/saturate rules, and float4e2m1 saturating to +-6.
#pragma once

#include <type_traits>

#include "core/types/element.h"

namespace onnxtool {

// ---- decode: exact -----------------------------------------------------------------------
// NaN encodings decode to a quiet float NaN carrying the encoding's sign (where it has one).
float to_float(Float16 v);
float to_float(BFloat16 v);
float to_float(Float8E4M3FN v);    // 0x7F/0xFF NaN, no inf, max 448
float to_float(Float8E4M3FNUZ v);  // 0x80 NaN, no inf, no -0, bias 8, max 240
float to_float(Float8E5M2 v);      // IEEE-like: inf 0x7C/0xFC, NaN 0x7D..0x7F, max 57344
float to_float(Float8E5M2FNUZ v);  // 0x80 NaN, no inf, no -0, bias 16, max 57344
float to_float(Float8E8M0 v);      // 2^(bits-127); 0xFF NaN
float to_float(Float4E2M1 v);      // low 4 bits; no inf/NaN, max 6

// ---- encode ------------------------------------------------------------------------------
// float16, bfloat16: IEEE. Overflow gives inf, NaN stays NaN (quiet, sign and top payload
// bits kept). Cast's `saturate` does not apply to them.
Float16 to_float16(float x);
Float16 to_float16(double x);
BFloat16 to_bfloat16(float x);
BFloat16 to_bfloat16(double x);

// float8. saturate=true: +-inf and values whose rounding exceeds the format's max become
// +-max. saturate=false: they become inf (E5M2) or NaN (the others). NaN becomes NaN (with its
// sign for E4M3FN and E5M2). The FNUZ formats have no -0: -0 and negatives rounding to zero
// give +0.
Float8E4M3FN to_float8e4m3fn(float x, bool saturate = true);
Float8E4M3FN to_float8e4m3fn(double x, bool saturate = true);
Float8E4M3FNUZ to_float8e4m3fnuz(float x, bool saturate = true);
Float8E4M3FNUZ to_float8e4m3fnuz(double x, bool saturate = true);
Float8E5M2 to_float8e5m2(float x, bool saturate = true);
Float8E5M2 to_float8e5m2(double x, bool saturate = true);
Float8E5M2FNUZ to_float8e5m2fnuz(float x, bool saturate = true);
Float8E5M2FNUZ to_float8e5m2fnuz(double x, bool saturate = true);

// Cast's round_mode for FLOAT8E8M0 (the default is up).
enum class E8M0Rounding {
  up,       // to the next power of two away from zero (unless already a power of two)
  down,     // to the power of two towards zero
  nearest,  // to the nearer power of two (as values, not exponents); ties go up
};

// E8M0 holds 2^-127..2^127. The power of two is chosen by `rounding`; a result outside that
// range (and zero or inf) saturates to the min/max with saturate=true, and is NaN with
// saturate=false. NaN gives NaN. Cast leaves negative inputs unspecified: the sign is dropped.
Float8E8M0 to_float8e8m0(float x, bool saturate = true, E8M0Rounding rounding = E8M0Rounding::up);
Float8E8M0 to_float8e8m0(double x, bool saturate = true, E8M0Rounding rounding = E8M0Rounding::up);

// float4e2m1 always saturates: |x| > 6 and +-inf give +-6. NaN gives +6 (the format has no
// NaN; this is what ONNX's reference and backend tests do). -0 stays -0.
Float4E2M1 to_float4e2m1(float x);
Float4E2M1 to_float4e2m1(double x);

// ---- generic forms for templated kernels ---------------------------------------------------
template <class T>
inline constexpr bool is_narrow_float_v =
    std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16> || std::is_same_v<T, Float8E4M3FN> ||
    std::is_same_v<T, Float8E4M3FNUZ> || std::is_same_v<T, Float8E5M2> ||
    std::is_same_v<T, Float8E5M2FNUZ> || std::is_same_v<T, Float8E8M0> ||
    std::is_same_v<T, Float4E2M1>;

// Encodes x (float or double) as the narrow type T. `saturate` is used by the float8 types
// only (as in Cast); E8M0 rounds up.
template <class T, class Src>
T narrow_float(Src x, bool saturate = true) {
  static_assert(std::is_same_v<Src, float> || std::is_same_v<Src, double>);
  if constexpr (std::is_same_v<T, Float16>)
    return to_float16(x);
  else if constexpr (std::is_same_v<T, BFloat16>)
    return to_bfloat16(x);
  else if constexpr (std::is_same_v<T, Float8E4M3FN>)
    return to_float8e4m3fn(x, saturate);
  else if constexpr (std::is_same_v<T, Float8E4M3FNUZ>)
    return to_float8e4m3fnuz(x, saturate);
  else if constexpr (std::is_same_v<T, Float8E5M2>)
    return to_float8e5m2(x, saturate);
  else if constexpr (std::is_same_v<T, Float8E5M2FNUZ>)
    return to_float8e5m2fnuz(x, saturate);
  else if constexpr (std::is_same_v<T, Float8E8M0>)
    return to_float8e8m0(x, saturate);
  else {
    static_assert(std::is_same_v<T, Float4E2M1>, "not a narrow float type");
    return to_float4e2m1(x);
  }
}

}  // namespace onnxtool
