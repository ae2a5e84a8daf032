// SPDX-License-Identifier: Apache-2.0
// Types written as in the ONNX textual syntax (Syntax.md): float[N,3,224,224], seq(int64[?]),
// map(string, float[]), optional(float[2]), sparse_tensor(float[10,10]), opaque(dom, name).
// As in the syntax, a bare element type is a scalar (float: rank 0) and float[] is a tensor of
// unknown rank. A symbolic dim that is not an identifier is quoted ("batch size").
//
// These are the strings core/text prints for every type it can show in readable form
// (text_type_is_exact); for the few it cannot (denotations, an unset or unknown element type),
// type_to_string is a best-effort display and the text printer writes protobuf text instead.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace onnx {
class TypeProto;
class TensorShapeProto;
}  // namespace onnx

namespace onnxtool {

std::string type_to_string(const onnx::TypeProto& type);
std::string shape_to_string(const onnx::TensorShapeProto& shape);  // "[N,3,?]"
// Element type number as text: "float", or "type(99)" for an unknown number, "undefined" for 0.
std::string elem_type_to_string(int32_t elem_type);

// True when type_to_string(type) parses back (core/text) to exactly this TypeProto.
bool text_type_is_exact(const onnx::TypeProto& type);

// A string literal of the textual syntax: "..." with \\ \" \n \t \r escaped, other control
// bytes and bytes that are not UTF-8 as \xHH; valid UTF-8 is kept as it is.
std::string text_string_literal(std::string_view s);
// [A-Za-z_][A-Za-z0-9_]*
bool is_text_identifier(std::string_view s);
// Length of the valid UTF-8 sequence starting at s[0] (1 for ASCII), or 0 when the bytes there
// are not one (overlong forms, surrogates and code points past U+10FFFF are invalid).
std::size_t utf8_sequence_length(std::string_view s);

}  // namespace onnxtool
