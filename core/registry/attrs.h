// SPDX-License-Identifier: Apache-2.0
// Reading a node's attributes with the schema's defaults filled in. Used by inference, kernels
// and the checker alike, so every one of them agrees on what an absent attribute means.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace onnx {
class NodeProto;
class AttributeProto;
class TensorProto;
class GraphProto;
class TypeProto;
class SparseTensorProto;
}  // namespace onnx

namespace onnxtool {

struct OpVersion;

class AttrView {
 public:
  // schema may be null (unknown operator): then only the node's own attributes exist.
  AttrView(const onnx::NodeProto& node, const OpVersion* schema);

  // The node's own attribute, or nullptr.
  const onnx::AttributeProto* find(std::string_view name) const;
  // Set on the node (defaults do not count).
  bool has(std::string_view name) const { return find(name) != nullptr; }

  // The node's value, else the schema's default, else `fallback` (first overloads), else an
  // Error(invalid, rule "attr.missing") naming the node (second overloads: no fallback).
  int64_t get_int(std::string_view name, int64_t fallback) const;
  int64_t get_int(std::string_view name) const;
  float get_float(std::string_view name, float fallback) const;
  float get_float(std::string_view name) const;
  std::string get_string(std::string_view name, const std::string& fallback) const;
  std::string get_string(std::string_view name) const;
  std::vector<int64_t> get_ints(std::string_view name, std::vector<int64_t> fallback) const;
  std::vector<int64_t> get_ints(std::string_view name) const;
  std::vector<float> get_floats(std::string_view name, std::vector<float> fallback) const;
  std::vector<float> get_floats(std::string_view name) const;
  std::vector<std::string> get_strings(std::string_view name,
                                       std::vector<std::string> fallback) const;
  std::vector<std::string> get_strings(std::string_view name) const;

  // nullopt when neither the node nor the schema gives a value.
  std::optional<int64_t> opt_int(std::string_view name) const;
  std::optional<float> opt_float(std::string_view name) const;
  std::optional<std::string> opt_string(std::string_view name) const;
  std::optional<std::vector<int64_t>> opt_ints(std::string_view name) const;
  std::optional<std::vector<float>> opt_floats(std::string_view name) const;

  // Only the node can hold these (no schema defaults).
  const onnx::TensorProto* tensor(std::string_view name) const;
  const onnx::SparseTensorProto* sparse_tensor(std::string_view name) const;
  const onnx::GraphProto* graph(std::string_view name) const;
  std::vector<const onnx::GraphProto*> graphs(std::string_view name) const;
  const onnx::TypeProto* type_proto(std::string_view name) const;

  const onnx::NodeProto& node() const { return *node_; }

 private:
  [[noreturn]] void missing(std::string_view name) const;
  const onnx::NodeProto* node_;
  const OpVersion* schema_;
};

}  // namespace onnxtool
