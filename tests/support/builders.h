// SPDX-License-Identifier: Apache-2.0
// Small models built through the protobuf API, for tests that need exact control of the bytes.
// (Most fixtures are written in the ONNX textual syntax under testdata/.)
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "onnx.pb.h"

namespace onnxtool::test {

// X:float[N,4] -> MatMul(W:float[4,3]) -> Add(B:float[3]) -> Y:float[N,3], opset 17, IR 8.
onnx::ModelProto tiny_model();

onnx::TensorProto float_tensor(const std::string& name, const std::vector<int64_t>& dims,
                               const std::vector<float>& values);
// Marks t as external: location/offset/length keys (length omitted when < 0).
void make_external(onnx::TensorProto& t, const std::string& location, int64_t offset,
                   int64_t length);
void set_tensor_type(onnx::ValueInfoProto& v, int32_t elem_type,
                     const std::vector<std::string>& dims);
std::string serialize(const onnx::ModelProto& m);

}  // namespace onnxtool::test
