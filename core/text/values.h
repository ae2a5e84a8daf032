// SPDX-License-Identifier: Apache-2.0
// Numbers and tensor elements as text, exactly: every value prints as a literal that parses back
// to the same bits.
//
// Floats print in their shortest round-trip form, always with a '.' or an exponent so they
// never read as integers ("1.0", "1e-05", "-0.0", "inf", "nan"). NaNs other than the ones
// "nan" and "-nan" parse to are printed as hex bit patterns (0x7fc00001), which the parser
// accepts wherever a floating-point value is expected. The narrow float types (float16,
// bfloat16, float8 x5, float4e2m1) print as the decimal value of their float expansion, or as
// a hex bit pattern when that value would not encode back to the same bits (their NaNs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/text/lexer.h"
#include "core/types/tensor.h"

namespace onnx {
class TensorProto;
}

namespace onnxtool::text {

void append_float(std::string& out, float v);
void append_double(std::string& out, double v);
std::string format_float(float v);
std::string format_double(double v);
// True when the value needs a hex bit pattern (a NaN the words nan/-nan do not give).
bool float_needs_hex(float v);
bool double_needs_hex(double v);

// Appends the elements of a decoded tensor, separated by ", " (complex: real, imaginary).
// String tensors are not handled here (they live in string_data).
void append_elements(std::string& out, const Tensor& t);

// Parsers for single tokens; they throw text.* errors naming the token's position.
// A real token, an integer token, inf/nan/infinity (any case, optionally negative), or a hex
// bit pattern (0x...) of the type's width.
float parse_float(const Lexer& lex, const Token& t);
double parse_double(const Lexer& lex, const Token& t);
int64_t parse_int64(const Lexer& lex, const Token& t);
uint64_t parse_uint64(const Lexer& lex, const Token& t);
// A value in [lo, hi] (used for int32_data and the small integer types).
int64_t parse_int_in(const Lexer& lex, const Token& t, int64_t lo, int64_t hi, const char* what);

// Stores element i of t (complex: component i of the flattened real/imaginary pairs) from a
// token, checking the element type's range. t must have owned storage.
void set_element(Tensor& t, int64_t i, const Lexer& lex, const Token& tok);
// Values a tensor of this type and element count takes in an element list (2 per complex).
int64_t value_slots(const Tensor& t);

// ---- typed fields ---------------------------------------------------------------------------
// The TensorProto field number onnx.proto assigns to an element type (the one the official
// parser fills for `{...}`): float_data for float and complex64, int32_data for every type of
// 16 bits or fewer and int32, int64_data, uint64_data for uint32/uint64, double_data, string_data.
int typed_field_number(DataType t);
// The encoding onnxtool chooses for a tensor stored in its typed field (float_data, int32_data,
// ...): integers as their value, bit-pattern types (float16, float8, packed 4/2-bit bytes) as the
// unsigned pattern, bool as 0/1. Sets data_type and the field; leaves dims, name and the rest.
void encode_typed(const Tensor& t, onnx::TensorProto& proto);
// True when the proto's typed field is exactly what encode_typed gives for `t`.
bool typed_field_equals(const onnx::TensorProto& proto, const Tensor& t);

// Standard base64 (RFC 4648, with padding), for bytes the readable forms cannot show.
std::string base64_encode(std::string_view bytes);
// nullopt when s is not valid padded base64 (whitespace is not allowed).
std::optional<std::string> base64_decode(std::string_view s);

}  // namespace onnxtool::text
