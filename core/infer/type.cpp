// SPDX-License-Identifier: Apache-2.0
#include "core/infer/type.h"

#include "core/ir/type_text.h"
#include "onnx.pb.h"

namespace onnxtool {

Type Type::tensor(int32_t elem_type, std::optional<Dims> dims) {
  Type t;
  t.kind = Kind::tensor;
  t.elem = elem_type;
  t.shape = std::move(dims);
  return t;
}

Type Type::sparse_tensor(int32_t elem_type, std::optional<Dims> dims) {
  Type t = tensor(elem_type, std::move(dims));
  t.kind = Kind::sparse_tensor;
  return t;
}

Type Type::sequence(Type elem_type) {
  Type t;
  t.kind = Kind::sequence;
  t.inner = std::make_shared<const Type>(std::move(elem_type));
  return t;
}

Type Type::optional(Type elem_type) {
  Type t;
  t.kind = Kind::optional;
  t.inner = std::make_shared<const Type>(std::move(elem_type));
  return t;
}

Type Type::map(int32_t key, Type value) {
  Type t;
  t.kind = Kind::map;
  t.elem = key;
  t.inner = std::make_shared<const Type>(std::move(value));
  return t;
}

const Type& Type::element() const {
  static const Type kUnknown;
  return inner ? *inner : kUnknown;
}

std::string Type::to_string() const {
  if (kind == Kind::unknown) return "?";
  onnx::TypeProto p;
  type_to_proto(*this, p);
  return type_to_string(p);
}

namespace {

Dims dims_from_proto(const onnx::TensorShapeProto& shape) {
  Dims dims;
  for (const auto& d : shape.dim()) {
    if (d.has_dim_value()) dims.push_back(Dim::value(d.dim_value()));
    else if (d.has_dim_param()) dims.push_back(Dim::symbol(d.dim_param()));
    else dims.emplace_back();
  }
  return dims;
}

void dims_to_proto(const Dims& dims, onnx::TensorShapeProto& shape) {
  shape.Clear();
  for (const auto& d : dims) {
    auto* out = shape.add_dim();
    if (d.is_known()) out->set_dim_value(d.value());
    else if (d.is_symbolic()) out->set_dim_param(d.symbol());
  }
}

}  // namespace

Type type_from_proto(const onnx::TypeProto& p) {
  switch (p.value_case()) {
    case onnx::TypeProto::kTensorType: {
      const auto& t = p.tensor_type();
      return Type::tensor(t.elem_type(),
                          t.has_shape() ? std::optional<Dims>(dims_from_proto(t.shape()))
                                        : std::nullopt);
    }
    case onnx::TypeProto::kSparseTensorType: {
      const auto& t = p.sparse_tensor_type();
      return Type::sparse_tensor(t.elem_type(), t.has_shape() ? std::optional<Dims>(
                                                                    dims_from_proto(t.shape()))
                                                              : std::nullopt);
    }
    case onnx::TypeProto::kSequenceType:
      return Type::sequence(p.sequence_type().has_elem_type()
                                ? type_from_proto(p.sequence_type().elem_type())
                                : Type());
    case onnx::TypeProto::kOptionalType:
      return Type::optional(p.optional_type().has_elem_type()
                                ? type_from_proto(p.optional_type().elem_type())
                                : Type());
    case onnx::TypeProto::kMapType:
      return Type::map(p.map_type().key_type(), p.map_type().has_value_type()
                                                    ? type_from_proto(p.map_type().value_type())
                                                    : Type());
    case onnx::TypeProto::kOpaqueType: {
      Type t;
      t.kind = Type::Kind::opaque;
      t.opaque_domain = p.opaque_type().domain();
      t.opaque_name = p.opaque_type().name();
      return t;
    }
    case onnx::TypeProto::VALUE_NOT_SET: break;
  }
  return Type();
}

void type_to_proto(const Type& t, onnx::TypeProto& p) {
  p.Clear();
  switch (t.kind) {
    case Type::Kind::tensor: {
      auto* x = p.mutable_tensor_type();
      x->set_elem_type(t.elem);
      if (t.shape) dims_to_proto(*t.shape, *x->mutable_shape());
      break;
    }
    case Type::Kind::sparse_tensor: {
      auto* x = p.mutable_sparse_tensor_type();
      x->set_elem_type(t.elem);
      if (t.shape) dims_to_proto(*t.shape, *x->mutable_shape());
      break;
    }
    case Type::Kind::sequence:
      if (t.inner && !t.inner->is_unknown())
        type_to_proto(*t.inner, *p.mutable_sequence_type()->mutable_elem_type());
      else
        p.mutable_sequence_type();
      break;
    case Type::Kind::optional:
      if (t.inner && !t.inner->is_unknown())
        type_to_proto(*t.inner, *p.mutable_optional_type()->mutable_elem_type());
      else
        p.mutable_optional_type();
      break;
    case Type::Kind::map:
      p.mutable_map_type()->set_key_type(t.elem);
      if (t.inner && !t.inner->is_unknown())
        type_to_proto(*t.inner, *p.mutable_map_type()->mutable_value_type());
      break;
    case Type::Kind::opaque:
      p.mutable_opaque_type()->set_domain(t.opaque_domain);
      p.mutable_opaque_type()->set_name(t.opaque_name);
      break;
    case Type::Kind::unknown: break;
  }
}

}  // namespace onnxtool
