// SPDX-License-Identifier: Apache-2.0
#include "core/types/dtype.h"

#include <array>
#include <limits>
#include <string>

namespace onnxtool {

namespace {

using C = TypeClass;
constexpr std::array<DataTypeInfo, kMaxDataType> kTypes = {{
    {DataType::float32, "float", 32, 4, C::floating, 1},
    {DataType::uint8, "uint8", 8, 1, C::unsigned_int, 1},
    {DataType::int8, "int8", 8, 1, C::signed_int, 1},
    {DataType::uint16, "uint16", 16, 2, C::unsigned_int, 1},
    {DataType::int16, "int16", 16, 2, C::signed_int, 1},
    {DataType::int32, "int32", 32, 4, C::signed_int, 1},
    {DataType::int64, "int64", 64, 8, C::signed_int, 1},
    {DataType::string, "string", 0, 0, C::string, 1},
    {DataType::boolean, "bool", 8, 1, C::boolean, 1},
    {DataType::float16, "float16", 16, 2, C::floating, 1},
    {DataType::float64, "double", 64, 8, C::floating, 1},
    {DataType::uint32, "uint32", 32, 4, C::unsigned_int, 1},
    {DataType::uint64, "uint64", 64, 8, C::unsigned_int, 1},
    {DataType::complex64, "complex64", 64, 8, C::complex, 1},
    {DataType::complex128, "complex128", 128, 16, C::complex, 1},
    {DataType::bfloat16, "bfloat16", 16, 2, C::floating, 4},
    {DataType::float8e4m3fn, "float8e4m3fn", 8, 1, C::floating, 9},
    {DataType::float8e4m3fnuz, "float8e4m3fnuz", 8, 1, C::floating, 9},
    {DataType::float8e5m2, "float8e5m2", 8, 1, C::floating, 9},
    {DataType::float8e5m2fnuz, "float8e5m2fnuz", 8, 1, C::floating, 9},
    {DataType::uint4, "uint4", 4, 1, C::unsigned_int, 10},
    {DataType::int4, "int4", 4, 1, C::signed_int, 10},
    {DataType::float4e2m1, "float4e2m1", 4, 1, C::floating, 11},
    {DataType::float8e8m0, "float8e8m0", 8, 1, C::floating, 12},
    {DataType::uint2, "uint2", 2, 1, C::unsigned_int, 13},
    {DataType::int2, "int2", 2, 1, C::signed_int, 13},
}};

}  // namespace

const DataTypeInfo* find_type_info(int32_t value) {
  if (value < 1 || value > kMaxDataType) return nullptr;
  return &kTypes[static_cast<size_t>(value - 1)];
}

const DataTypeInfo& type_info(DataType t) {
  const DataTypeInfo* info = find_type_info(static_cast<int32_t>(t));
  return info ? *info : kTypes[0];
}

std::optional<DataType> data_type_from_int(int32_t value) {
  if (!find_type_info(value)) return std::nullopt;
  return static_cast<DataType>(value);
}

std::optional<DataType> data_type_from_name(std::string_view name) {
  for (const auto& info : kTypes)
    if (info.name == name) return info.type;
  if (name == "float32") return DataType::float32;
  if (name == "float64") return DataType::float64;
  return std::nullopt;
}

std::string_view type_name(DataType t) {
  const DataTypeInfo* info = find_type_info(static_cast<int32_t>(t));
  return info ? info->name : std::string_view("undefined");
}

std::string type_name_or_number(int32_t value) {
  const DataTypeInfo* info = find_type_info(value);
  if (info) return std::string(info->name);
  if (value == 0) return "undefined";
  return "type(" + std::to_string(value) + ")";
}

std::span<const DataTypeInfo> all_type_infos() {
  return kTypes;
}

std::optional<uint64_t> wire_bytes(DataType t, uint64_t n) {
  const int bits = type_info(t).bits;
  if (bits == 0) return std::nullopt;
  if (bits < 8) {
    const uint64_t per_byte = 8 / static_cast<uint64_t>(bits);
    return n / per_byte + (n % per_byte ? 1 : 0);
  }
  const uint64_t width = static_cast<uint64_t>(bits) / 8;
  if (n > std::numeric_limits<uint64_t>::max() / width) return std::nullopt;
  return n * width;
}

std::optional<int64_t> element_count(std::span<const int64_t> dims) {
  int64_t n = 1;
  bool zero = false;
  for (int64_t d : dims) {
    if (d < 0) return std::nullopt;
    if (d == 0) zero = true;
  }
  if (zero) return 0;
  for (int64_t d : dims) {
    if (__builtin_mul_overflow(n, d, &n)) return std::nullopt;
  }
  return n;
}

}  // namespace onnxtool
