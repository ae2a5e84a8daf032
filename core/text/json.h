// SPDX-License-Identifier: Apache-2.0
// ModelProto as JSON, in protobuf's canonical JSON mapping (proto3 JSON mapping applied to
// onnx.proto): lowerCamelCase field names, bytes as base64, 64-bit integers as strings, enums by
// name. Reading accepts the original snake_case names too. Fields present with their default
// value (proto2 presence) are kept, and -0.0 is written so that it reads back negative, so
// binary -> JSON -> binary is exact, with two limits of the mapping itself: every NaN is
// "NaN" (sign and payload are not kept), string fields must be UTF-8 (a model with other
// bytes in a name or doc_string is refused; the text format carries them), and fields that
// onnx.proto does not define cannot be written (refused too; the text format keeps them).
#pragma once

#include <string>
#include <string_view>

namespace onnx {
class ModelProto;
}

namespace onnxtool::text {

// Pretty-printed (two-space indent), newline-terminated.
std::string model_to_json(const onnx::ModelProto& model);
// Throws Error(invalid, "json.syntax" or "json.not-a-model", file, ...) with protobuf's reason.
void model_from_json(std::string_view json, const std::string& file, onnx::ModelProto& model);

}  // namespace onnxtool::text
