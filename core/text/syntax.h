// SPDX-License-Identifier: Apache-2.0
// Words with a meaning in the ONNX textual syntax, shared by the parser and the printer.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "core/types/dtype.h"

namespace onnxtool::text {

// Element type names of the syntax: float, int64, bool, double, float16, bfloat16, float8e4m3fn,
// int4, ... (the names in core/types/dtype.h).
std::optional<DataType> element_type_named(std::string_view word);
// seq, map, optional, sparse_tensor, opaque.
bool is_type_keyword(std::string_view word);
// inf, infinity, nan in any letter case.
bool is_float_word(std::string_view word);
// word with A-Z as a-z (the syntax's case-free words: inf, nan, true, ...).
std::string ascii_lower(std::string_view word);
// Any of the above: a name spelled like one is written in double quotes.
bool is_keyword(std::string_view word);

// Attribute type annotations (`name: ints = []`): float, int, string, tensor, graph,
// sparse_tensor, type_proto and their plurals. Returns the AttributeProto.AttributeType value.
std::optional<int> attribute_type_named(std::string_view word);
std::string attribute_type_name(int type);

}  // namespace onnxtool::text
