// SPDX-License-Identifier: Apache-2.0
// Inputs and outputs of `onnxtool run`: reading input files for a model's declared types,
// generating seeded random inputs, and summarising outputs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <random>
#include <string>

#include "core/exec/session.h"
#include "core/types/value.h"

namespace onnxtool {

// Reads one input: .npy, or a .pb holding a TensorProto, SequenceProto, OptionalProto or
// MapProto (picked from the declared type when there is one). Throws Error naming the file.
Value read_input_file(const std::filesystem::path& path, const onnx::TypeProto* type);
// What read_value_pb should expect in a .pb for a value of this type: "sequence", "optional",
// "map", or "" (a tensor, or no type known).
const char* pb_value_hint(const onnx::TypeProto* type);

// What --random-inputs may be told about one input: its whole shape (--input-shape, which also
// sets unnamed dims) and the range of its values (--val-range).
struct ValueRange {
  double lo = 0, hi = 1;
};
struct RandomSpec {
  std::optional<Shape> shape;
  std::optional<ValueRange> range;
};

// A seeded random value for a tensor input, as ../shared/tools/ort/bench.mjs makes them: floats
// uniform in [0, 1), integers 0 (valid as any index), bools false, strings empty; with a range,
// floats uniform in [lo, hi) and integers uniform in [lo, hi]. Symbolic dims take their value
// from `dims` (name -> value); other unknown dims are 1, unless spec.shape gives them all.
// Throws Error(usage) for inputs that are not tensors, or a shape that contradicts the model.
Value random_input(const Session::Port& port, const std::map<std::string, int64_t>& dims,
                   std::mt19937& rng, const RandomSpec& spec = {});

struct TensorStats {
  bool numeric = false;  // min/max/mean are meaningful (every type but string)
  double min = 0, max = 0, mean = 0;
  int64_t nan_count = 0;
  std::string first;  // the first few elements: "0.1, 0.2, 0.3, ..."
  // The same elements as numbers (numeric tensors; complex ones as their magnitude), for JSON.
  std::vector<double> first_numbers;
};
TensorStats tensor_stats(const Tensor& t, int first_count = 5);

// "float[1,1000]", "seq(float) of 3", "none", "map(int64,float) of 5".
std::string value_type_text(const Value& v);

// A value's name as a file name, losslessly: '%', '/', '\\' and control characters as %XX (their
// hex byte), "." and ".." as %2E and %2E%2E; every other byte as it is. Two names never give
// the same file name. README "Tensor files" documents it.
std::string safe_file_name(const std::string& name);

}  // namespace onnxtool
