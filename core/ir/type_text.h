// SPDX-License-Identifier: Apache-2.0
// Types written as in the ONNX textual syntax (Syntax.md): float[N,3,224,224], seq(int64[?]),
// map(string, float[]), optional(float[2]), sparse_tensor(float[10,10]), opaque(dom, name).
// A tensor without a shape (rank unknown) is just its element type: float.
#pragma once

#include <string>

namespace onnx {
class TypeProto;
class TensorShapeProto;
}  // namespace onnx

namespace onnxtool {

std::string type_to_string(const onnx::TypeProto& type);
std::string shape_to_string(const onnx::TensorShapeProto& shape);  // "[N,3,?]"
// Element type number as text: "float", or "type(99)" for an unknown number, "undefined" for 0.
std::string elem_type_to_string(int32_t elem_type);

}  // namespace onnxtool
