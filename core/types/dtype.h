// SPDX-License-Identifier: Apache-2.0
// The tensor element types of ONNX IR 14 and what onnxtool knows about each.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace onnxtool {

// Values are TensorProto.DataType numbers.
enum class DataType : int32_t {
  undefined = 0,
  float32 = 1,
  uint8 = 2,
  int8 = 3,
  uint16 = 4,
  int16 = 5,
  int32 = 6,
  int64 = 7,
  string = 8,
  boolean = 9,
  float16 = 10,
  float64 = 11,
  uint32 = 12,
  uint64 = 13,
  complex64 = 14,
  complex128 = 15,
  bfloat16 = 16,
  float8e4m3fn = 17,
  float8e4m3fnuz = 18,
  float8e5m2 = 19,
  float8e5m2fnuz = 20,
  uint4 = 21,
  int4 = 22,
  float4e2m1 = 23,
  float8e8m0 = 24,
  uint2 = 25,
  int2 = 26,
};

inline constexpr int32_t kMaxDataType = 26;

enum class TypeClass { undefined, floating, signed_int, unsigned_int, boolean, complex, string };

struct DataTypeInfo {
  DataType type;
  std::string_view name;  // as written in ONNX docs and textual syntax: "float", "int64", ...
  int bits;               // width on the wire (raw_data): 2, 4, 8, 16, 32, 64 or 128; 0 for string
  int mem_bytes;          // bytes per element in a Tensor in memory (sub-byte types: 1)
  TypeClass cls;
  int min_ir_version;  // first IR version that has the type
};

// nullptr for values outside 1..kMaxDataType.
const DataTypeInfo* find_type_info(int32_t value);
const DataTypeInfo& type_info(DataType t);  // t must be a valid defined type
std::optional<DataType> data_type_from_int(int32_t value);
std::optional<DataType> data_type_from_name(std::string_view name);
std::string_view type_name(DataType t);
// "float", or "type(99)" for an unknown number.
std::string type_name_or_number(int32_t value);
std::span<const DataTypeInfo> all_type_infos();

inline bool is_packed(DataType t) {
  return type_info(t).bits < 8 && t != DataType::string;
}
inline bool is_float(DataType t) {
  return type_info(t).cls == TypeClass::floating;
}
inline bool is_integer(DataType t) {
  auto c = type_info(t).cls;
  return c == TypeClass::signed_int || c == TypeClass::unsigned_int;
}

// Bytes that n elements occupy on the wire (raw_data / external data), with sub-byte types
// packed. Returns nullopt on overflow or for string.
std::optional<uint64_t> wire_bytes(DataType t, uint64_t n);

// Product of dims; nullopt when a dim is negative or the product overflows int64.
std::optional<int64_t> element_count(std::span<const int64_t> dims);

}  // namespace onnxtool
