// SPDX-License-Identifier: Apache-2.0
// A run-time value: a tensor, a sequence, a map, or nothing (an absent optional, or an omitted
// input). Copies are shallow, like Tensor's.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/types/tensor.h"

namespace onnx {
class TensorProto;
class SequenceProto;
class MapProto;
class OptionalProto;
}  // namespace onnx

namespace onnxtool {

class Value {
 public:
  enum class Kind { none, tensor, sequence, map };

  Value() = default;  // none
  Value(Tensor t);    // NOLINT(google-explicit-constructor): a tensor is the common case
  // items: tensors (or maps, for ML operators). elem_type: the tensors' element type, kept so an
  // empty sequence still knows its type (0 when unknown).
  static Value sequence(std::vector<Value> items, DataType elem_type = DataType::undefined);
  // keys: 1-D tensor of int64 or string; values: 1-D tensor of the same length.
  static Value map(Tensor keys, Tensor values);

  Kind kind() const { return kind_; }
  bool is_none() const { return kind_ == Kind::none; }
  bool is_tensor() const { return kind_ == Kind::tensor; }
  bool is_sequence() const { return kind_ == Kind::sequence; }
  bool is_map() const { return kind_ == Kind::map; }

  const Tensor& tensor() const { return tensor_; }
  Tensor& mutable_tensor() { return tensor_; }
  const std::vector<Value>& items() const;
  DataType sequence_elem_type() const { return seq_elem_; }
  const Tensor& map_keys() const { return tensor_; }
  const Tensor& map_values() const { return map_values_; }

  // "tensor(float)[2,3]", "seq(tensor(int64)) of 3", "map(string,float) of 5", "none"
  std::string describe() const;

 private:
  Kind kind_ = Kind::none;
  Tensor tensor_;  // tensor, or map keys
  Tensor map_values_;
  std::shared_ptr<const std::vector<Value>> items_;
  DataType seq_elem_ = DataType::undefined;
};

// Test-data containers (onnx_data.proto), as the ONNX backend tests store inputs and outputs.
Value value_from_proto(const onnx::SequenceProto& p);
Value value_from_proto(const onnx::MapProto& p);
Value value_from_proto(const onnx::OptionalProto& p);
// Reads a .pb file holding a TensorProto, SequenceProto, MapProto or OptionalProto; `hint` picks
// the message type when known ("tensor", "sequence", "map", "optional"; "" to detect).
Value read_value_pb(const std::string& path, const std::string& hint = "");

}  // namespace onnxtool
