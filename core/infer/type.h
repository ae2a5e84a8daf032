// SPDX-License-Identifier: Apache-2.0
// A value's static type as inference works with it: tensors with element type and (maybe)
// shape, sparse tensors, sequences, maps, optionals, opaque types. Converted to and from
// onnx::TypeProto at the edges.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>

#include "core/infer/dim.h"

namespace onnx {
class TypeProto;
}

namespace onnxtool {

struct Type {
  enum class Kind { unknown, tensor, sparse_tensor, sequence, map, optional, opaque };

  Kind kind = Kind::unknown;
  int32_t elem = 0;           // tensor/sparse_tensor: element type (0: unknown); map: key type
  std::optional<Dims> shape;  // tensor/sparse_tensor: nullopt when the rank is unknown
  std::shared_ptr<const Type> inner;  // sequence/optional: element type; map: value type
  std::string opaque_domain, opaque_name;

  static Type unknown() { return {}; }
  static Type tensor(int32_t elem, std::optional<Dims> shape = std::nullopt);
  static Type sparse_tensor(int32_t elem, std::optional<Dims> shape = std::nullopt);
  static Type sequence(Type elem);
  static Type optional(Type elem);
  static Type map(int32_t key, Type value);

  bool is_unknown() const { return kind == Kind::unknown; }
  bool is_tensor() const { return kind == Kind::tensor; }
  bool has_shape() const { return shape.has_value(); }
  int64_t rank() const { return shape ? static_cast<int64_t>(shape->size()) : -1; }
  const Type& element() const;  // inner, or an unknown type

  std::string to_string() const;  // textual syntax: "float[N,3]", "seq(int64[?])"
};

Type type_from_proto(const onnx::TypeProto& proto);
void type_to_proto(const Type& type, onnx::TypeProto& proto);

// Types as the registry writes them (canonical_type_string): "tensor(float)",
// "seq(tensor(int64))", "map(int64,tensor(float))", "optional(tensor(bool))",
// "sparse_tensor(float)". Shapes are not part of them. type_from_spec gives an unknown Type for
// text it does not understand; type_spec gives "" when an element type is unknown.
Type type_from_spec(const std::string& spec);
std::string type_spec(const Type& type);

// Everything about the type is known: element types, rank and every dim a value.
bool is_fully_known(const Type& type);
// Applies f to every dim inside the type (through sequences, optionals, maps).
Type map_dims(const Type& type, const std::function<Dim(const Dim&)>& f);

// Adds to `out` the dim_params named inside a type (through sequences, optionals, maps): the
// names --dim can bind.
void collect_dim_params(const onnx::TypeProto& type, std::set<std::string>& out);

}  // namespace onnxtool
