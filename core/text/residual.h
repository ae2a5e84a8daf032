// SPDX-License-Identifier: Apache-2.0
// The escape hatch that makes the text form exact: whatever part of a message the readable
// syntax does not show travels as protobuf text format.
//
//   %{ doc_string: "..." metadata_props { key: "k" value: "v" } }   after an entity: merged in
//   %tensor{ ... }, %type{ ... }, ...                                  a whole message
//
// When text format would not read back bit for bit (a NaN with a payload or a sign, fields
// unknown to this onnx.proto) the block holds the message's protobuf bytes as one base64 string
// instead: %{"CgR0ZXN0"}.
//
// The printer lists the fields its readable form covered; every other field that is set (or,
// in proto2, present with its default value) goes into the annotation, so nothing is lost by
// construction, including fields added to onnx.proto later.
#pragma once

#include <initializer_list>
#include <string>
#include <vector>

#include "core/text/lexer.h"

namespace google::protobuf {
class Message;
}

namespace onnxtool::text {

// Field numbers a printer has written in readable form.
using Covered = std::vector<int>;

// " %{...}" holding the fields of msg not in `covered`, or "" when there are none.
std::string annotation_for(const google::protobuf::Message& msg, const Covered& covered);
// "%kind{...}": the whole message.
std::string raw_entity(const char* kind, const google::protobuf::Message& msg);

// Merges an annotation token's protobuf text into msg (repeated fields append, singular fields
// are set). Errors name the position inside the annotation. `nesting` bounds how deep messages
// in the text may nest.
void merge_annotation(const Lexer& lex, const Token& t, google::protobuf::Message& msg,
                      int nesting);
// Replaces msg with a raw entity token's content.
void parse_raw_entity(const Lexer& lex, const Token& t, google::protobuf::Message& msg,
                      int nesting);

}  // namespace onnxtool::text
