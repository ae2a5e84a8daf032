// SPDX-License-Identifier: Apache-2.0
#include "core/infer/type.h"

#include "core/ir/type_text.h"
#include "core/types/dtype.h"
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
    if (d.has_dim_value())
      dims.push_back(Dim::value(d.dim_value()));
    else if (d.has_dim_param())
      dims.push_back(Dim::symbol(d.dim_param()));
    else
      dims.emplace_back();
  }
  return dims;
}

void dims_to_proto(const Dims& dims, onnx::TensorShapeProto& shape) {
  shape.Clear();
  for (const auto& d : dims) {
    auto* out = shape.add_dim();
    if (d.is_known())
      out->set_dim_value(d.value());
    else if (d.is_symbolic())
      out->set_dim_param(d.symbol());
  }
}

}  // namespace

Type type_from_proto(const onnx::TypeProto& p) {
  switch (p.value_case()) {
    case onnx::TypeProto::kTensorType: {
      const auto& t = p.tensor_type();
      return Type::tensor(t.elem_type(), t.has_shape()
                                             ? std::optional<Dims>(dims_from_proto(t.shape()))
                                             : std::nullopt);
    }
    case onnx::TypeProto::kSparseTensorType: {
      const auto& t = p.sparse_tensor_type();
      return Type::sparse_tensor(
          t.elem_type(),
          t.has_shape() ? std::optional<Dims>(dims_from_proto(t.shape())) : std::nullopt);
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
    case onnx::TypeProto::VALUE_NOT_SET:
      break;
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
    case Type::Kind::unknown:
      break;
  }
}

namespace {

int32_t elem_from_name(const std::string& name) {
  auto t = data_type_from_name(name);
  return t ? static_cast<int32_t>(*t) : 0;
}

// "kind(args)" -> kind, args (the text between the outer parentheses).
bool split_call(const std::string& s, std::string& kind, std::string& args) {
  const auto open = s.find('(');
  if (open == std::string::npos || s.back() != ')') return false;
  kind = s.substr(0, open);
  args = s.substr(open + 1, s.size() - open - 2);
  return true;
}

}  // namespace

Type type_from_spec(const std::string& spec) {
  std::string kind, args;
  if (!split_call(spec, kind, args)) return Type();
  if (kind == "tensor") return Type::tensor(elem_from_name(args));
  if (kind == "sparse_tensor") return Type::sparse_tensor(elem_from_name(args));
  if (kind == "seq") return Type::sequence(type_from_spec(args));
  if (kind == "optional") return Type::optional(type_from_spec(args));
  if (kind == "map") {
    const auto comma = args.find(',');
    if (comma == std::string::npos) return Type();
    return Type::map(elem_from_name(args.substr(0, comma)), type_from_spec(args.substr(comma + 1)));
  }
  return Type();
}

namespace {
std::string elem_name(int32_t elem) {
  const auto* info = find_type_info(elem);
  return info ? std::string(info->name) : std::string();
}
}  // namespace

std::string type_spec(const Type& t) {
  auto wrap = [](const char* kind, const std::string& inner) {
    return inner.empty() ? std::string() : std::string(kind) + "(" + inner + ")";
  };
  switch (t.kind) {
    case Type::Kind::tensor:
      return wrap("tensor", elem_name(t.elem));
    case Type::Kind::sparse_tensor:
      return wrap("sparse_tensor", elem_name(t.elem));
    case Type::Kind::sequence:
      return wrap("seq", type_spec(t.element()));
    case Type::Kind::optional:
      return wrap("optional", type_spec(t.element()));
    case Type::Kind::map: {
      const std::string key = elem_name(t.elem), value = type_spec(t.element());
      return key.empty() || value.empty() ? std::string() : "map(" + key + "," + value + ")";
    }
    case Type::Kind::opaque:
    case Type::Kind::unknown:
      break;
  }
  return "";
}

bool is_fully_known(const Type& t) {
  switch (t.kind) {
    case Type::Kind::tensor:
    case Type::Kind::sparse_tensor:
      if (!t.elem || !t.shape) return false;
      for (const auto& d : *t.shape)
        if (!d.is_known()) return false;
      return true;
    case Type::Kind::sequence:
    case Type::Kind::optional:
      return is_fully_known(t.element());
    case Type::Kind::map:
      return t.elem && is_fully_known(t.element());
    case Type::Kind::opaque:
      return true;
    case Type::Kind::unknown:
      break;
  }
  return false;
}

Type map_dims(const Type& t, const std::function<Dim(const Dim&)>& f) {
  Type out = t;
  if (out.shape)
    for (auto& d : *out.shape) d = f(d);
  if (t.inner) out.inner = std::make_shared<const Type>(map_dims(*t.inner, f));
  return out;
}

void collect_dim_params(const onnx::TypeProto& type, std::set<std::string>& out) {
  if (type.has_tensor_type())
    for (const auto& d : type.tensor_type().shape().dim())
      if (d.has_dim_param() && !d.dim_param().empty()) out.insert(d.dim_param());
  if (type.has_sequence_type()) collect_dim_params(type.sequence_type().elem_type(), out);
  if (type.has_optional_type()) collect_dim_params(type.optional_type().elem_type(), out);
  if (type.has_map_type()) collect_dim_params(type.map_type().value_type(), out);
}

}  // namespace onnxtool
