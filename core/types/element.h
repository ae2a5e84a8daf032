// SPDX-License-Identifier: Apache-2.0
// C++ types standing for ONNX element types in memory, and dispatch from DataType to them.
// Narrow float formats are kept as their bit patterns; sub-byte integers are unpacked, one
// element per byte (packing happens only on the wire).
#pragma once

#include <complex>
#include <cstdint>
#include <string>
#include <type_traits>

#include "core/types/dtype.h"

namespace onnxtool {

struct Float16 {
  uint16_t bits;
};
struct BFloat16 {
  uint16_t bits;
};
struct Float8E4M3FN {
  uint8_t bits;
};
struct Float8E4M3FNUZ {
  uint8_t bits;
};
struct Float8E5M2 {
  uint8_t bits;
};
struct Float8E5M2FNUZ {
  uint8_t bits;
};
struct Float8E8M0 {
  uint8_t bits;
};
struct Float4E2M1 {
  uint8_t bits;
};  // low 4 bits hold the code
struct Int4 {
  int8_t value;
};  // -8..7
struct UInt4 {
  uint8_t value;
};  // 0..15
struct Int2 {
  int8_t value;
};  // -2..1
struct UInt2 {
  uint8_t value;
};  // 0..3

template <DataType>
struct ElementOf;
#define ONNXTOOL_ELEMENT(dt, T)    \
  template <>                      \
  struct ElementOf<DataType::dt> { \
    using type = T;                \
  };
ONNXTOOL_ELEMENT(float32, float)
ONNXTOOL_ELEMENT(uint8, uint8_t)
ONNXTOOL_ELEMENT(int8, int8_t)
ONNXTOOL_ELEMENT(uint16, uint16_t)
ONNXTOOL_ELEMENT(int16, int16_t)
ONNXTOOL_ELEMENT(int32, int32_t)
ONNXTOOL_ELEMENT(int64, int64_t)
ONNXTOOL_ELEMENT(string, std::string)
ONNXTOOL_ELEMENT(boolean, bool)
ONNXTOOL_ELEMENT(float16, Float16)
ONNXTOOL_ELEMENT(float64, double)
ONNXTOOL_ELEMENT(uint32, uint32_t)
ONNXTOOL_ELEMENT(uint64, uint64_t)
ONNXTOOL_ELEMENT(complex64, std::complex<float>)
ONNXTOOL_ELEMENT(complex128, std::complex<double>)
ONNXTOOL_ELEMENT(bfloat16, BFloat16)
ONNXTOOL_ELEMENT(float8e4m3fn, Float8E4M3FN)
ONNXTOOL_ELEMENT(float8e4m3fnuz, Float8E4M3FNUZ)
ONNXTOOL_ELEMENT(float8e5m2, Float8E5M2)
ONNXTOOL_ELEMENT(float8e5m2fnuz, Float8E5M2FNUZ)
ONNXTOOL_ELEMENT(uint4, UInt4)
ONNXTOOL_ELEMENT(int4, Int4)
ONNXTOOL_ELEMENT(float4e2m1, Float4E2M1)
ONNXTOOL_ELEMENT(float8e8m0, Float8E8M0)
ONNXTOOL_ELEMENT(uint2, UInt2)
ONNXTOOL_ELEMENT(int2, Int2)
#undef ONNXTOOL_ELEMENT

template <DataType D>
using element_t = typename ElementOf<D>::type;

// The DataType of a C++ element type (only for the types above).
template <class T>
constexpr DataType data_type_of();
#define ONNXTOOL_TYPE_OF(dt, T)          \
  template <>                            \
  constexpr DataType data_type_of<T>() { \
    return DataType::dt;                 \
  }
ONNXTOOL_TYPE_OF(float32, float)
ONNXTOOL_TYPE_OF(uint8, uint8_t)
ONNXTOOL_TYPE_OF(int8, int8_t)
ONNXTOOL_TYPE_OF(uint16, uint16_t)
ONNXTOOL_TYPE_OF(int16, int16_t)
ONNXTOOL_TYPE_OF(int32, int32_t)
ONNXTOOL_TYPE_OF(int64, int64_t)
ONNXTOOL_TYPE_OF(string, std::string)
ONNXTOOL_TYPE_OF(boolean, bool)
ONNXTOOL_TYPE_OF(float16, Float16)
ONNXTOOL_TYPE_OF(float64, double)
ONNXTOOL_TYPE_OF(uint32, uint32_t)
ONNXTOOL_TYPE_OF(uint64, uint64_t)
ONNXTOOL_TYPE_OF(complex64, std::complex<float>)
ONNXTOOL_TYPE_OF(complex128, std::complex<double>)
ONNXTOOL_TYPE_OF(bfloat16, BFloat16)
ONNXTOOL_TYPE_OF(float8e4m3fn, Float8E4M3FN)
ONNXTOOL_TYPE_OF(float8e4m3fnuz, Float8E4M3FNUZ)
ONNXTOOL_TYPE_OF(float8e5m2, Float8E5M2)
ONNXTOOL_TYPE_OF(float8e5m2fnuz, Float8E5M2FNUZ)
ONNXTOOL_TYPE_OF(uint4, UInt4)
ONNXTOOL_TYPE_OF(int4, Int4)
ONNXTOOL_TYPE_OF(float4e2m1, Float4E2M1)
ONNXTOOL_TYPE_OF(float8e8m0, Float8E8M0)
ONNXTOOL_TYPE_OF(uint2, UInt2)
ONNXTOOL_TYPE_OF(int2, Int2)
#undef ONNXTOOL_TYPE_OF

// Calls f(T{}) -- a default-constructed value of the element's C++ type, used only as a tag --
// for the runtime type t. Returns what f returns. t must be a defined type.
template <class F>
decltype(auto) visit_type(DataType t, F&& f) {
  switch (t) {
    // clang-format off
#define ONNXTOOL_CASE(dt) \
  case DataType::dt: return f(element_t<DataType::dt>{});
    ONNXTOOL_CASE(float32) ONNXTOOL_CASE(uint8) ONNXTOOL_CASE(int8) ONNXTOOL_CASE(uint16)
    ONNXTOOL_CASE(int16) ONNXTOOL_CASE(int32) ONNXTOOL_CASE(int64) ONNXTOOL_CASE(string)
    ONNXTOOL_CASE(boolean) ONNXTOOL_CASE(float16) ONNXTOOL_CASE(float64) ONNXTOOL_CASE(uint32)
    ONNXTOOL_CASE(uint64) ONNXTOOL_CASE(complex64) ONNXTOOL_CASE(complex128)
    ONNXTOOL_CASE(bfloat16) ONNXTOOL_CASE(float8e4m3fn) ONNXTOOL_CASE(float8e4m3fnuz)
    ONNXTOOL_CASE(float8e5m2) ONNXTOOL_CASE(float8e5m2fnuz) ONNXTOOL_CASE(uint4)
    ONNXTOOL_CASE(int4) ONNXTOOL_CASE(float4e2m1) ONNXTOOL_CASE(float8e8m0)
    ONNXTOOL_CASE(uint2) ONNXTOOL_CASE(int2)
    // clang-format on
#undef ONNXTOOL_CASE
                                        default : break;
  }
  return f(float{});  // unreachable for valid types; callers validate first
}

}  // namespace onnxtool
