// SPDX-License-Identifier: Apache-2.0
// Helpers for the tests of the remaining operators (attention, losses, sequences, recurrent
// networks, quantization, signal processing, strings, ML, training): whole models written in
// the ONNX textual syntax, run through the real executor with tensor, sequence, map or absent
// inputs, and inferred through the real engine.
#pragma once

#include <map>
#include <string>
#include <utility>
#include <vector>

#include "core/types/tensor.h"
#include "core/types/value.h"

namespace onnxtool::test::misc {

using Feeds = std::vector<std::pair<std::string, Value>>;

// Runs a model given in the textual syntax; returns its outputs in order.
std::vector<Value> run(const std::string& model_text, const Feeds& feeds = {}, int threads = 2);
// The error message running it raises ("" when it succeeds).
std::string run_error(const std::string& model_text, const Feeds& feeds = {});

// Infers the model; returns each value's type as text ("float[N,3]", "seq(int64[?])") by name.
// An error diagnostic is returned under the key "error".
std::map<std::string, std::string> infer(const std::string& model_text);

// Tensors from values.
Tensor f32(const Shape& shape, const std::vector<float>& v);
Tensor f64(const Shape& shape, const std::vector<double>& v);
Tensor i64(const Shape& shape, const std::vector<int64_t>& v);
Tensor i32(const Shape& shape, const std::vector<int32_t>& v);
Tensor strs(const Shape& shape, const std::vector<std::string>& v);
// Any real tensor's elements as doubles.
std::vector<double> vals(const Tensor& t);
// Converts a real tensor to another element type (rounding to nearest even for narrow floats).
Tensor cast(const Tensor& t, DataType type);

// CHECKs the shape and every element within atol + rtol * |want| (NaN equals NaN).
void check_close(const Tensor& got, const Shape& shape, const std::vector<double>& want,
                 double rtol = 1e-4, double atol = 1e-5);

}  // namespace onnxtool::test::misc
