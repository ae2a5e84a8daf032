// SPDX-License-Identifier: Apache-2.0
// Types of values (TypeProto): well-formedness, the IR version each kind needs, the canonical
// strings type constraints are written in, and whether two declarations can agree.
#include "core/check/context.h"
#include "core/ir/type_text.h"
#include "core/types/dtype.h"

namespace onnxtool {

namespace {

using onnx::TypeProto;

bool valid_map_key(int32_t t) {
  const auto dt = data_type_from_int(t);
  if (!dt) return false;
  if (*dt == DataType::string) return true;
  // Integer types; the sub-byte ones cannot key a map.
  return is_integer(*dt) && type_info(*dt).bits >= 8;
}

void check_elem_type(CheckContext& ctx, int32_t elem, const std::string& loc, bool required) {
  if (elem == 0) {
    if (required)
      ctx.report("type.missing-elem-type", loc,
                 "the type has no element type; main-graph inputs and outputs need one");
    return;
  }
  const DataTypeInfo* info = find_type_info(elem);
  if (!info) {
    ctx.report("type.unknown-elem-type", loc,
               "element type " + std::to_string(elem) + " is not a known data type; expected 1.." +
                   std::to_string(kMaxDataType));
    return;
  }
  ctx.require_ir(info->min_ir_version, "element type " + std::string(info->name), loc);
}

void check_shape(CheckContext& ctx, bool has_shape, const onnx::TensorShapeProto& shape,
                 const std::string& loc, bool required) {
  if (!has_shape) {
    if (required)
      ctx.report("type.missing-shape", loc,
                 "the tensor type has no shape; main-graph inputs and outputs must give their "
                 "rank (dims may be symbolic or unknown)");
    return;
  }
  for (int i = 0; i < shape.dim_size(); ++i) {
    const auto& d = shape.dim(i);
    if (d.has_dim_value() && d.dim_value() < 0)
      ctx.report("type.negative-dim", loc,
                 "dim " + std::to_string(i) + " is " + std::to_string(d.dim_value()) +
                     "; expected a size >= 0, a dimension variable or nothing");
    if (d.has_dim_param() && ctx.first_dim_param(d.dim_param()))
      check_name(ctx, d.dim_param(), loc, "dimension variable");
  }
}

void check_type_at(CheckContext& ctx, const TypeProto& type, const std::string& loc,
                   TypeRequirements req, int depth);

// The element of a sequence or optional, or a map's value.
void check_inner(CheckContext& ctx, bool present, const TypeProto& inner, const std::string& loc,
                 TypeRequirements req, int depth) {
  if (!present) {
    if (req.elem_type)
      ctx.report("type.missing-elem-type", loc,
                 "the type has no element type; main-graph inputs and outputs need one");
    return;
  }
  // Nested tensors need an element type where the outer one did, but no shape (ONNX's checker).
  check_type_at(ctx, inner, loc, {req.elem_type, req.elem_type, false}, depth + 1);
}

void check_type_at(CheckContext& ctx, const TypeProto& type, const std::string& loc,
                   TypeRequirements req, int depth) {
  if (depth > kMaxCheckDepth) {
    ctx.too_deep(loc);
    return;
  }
  switch (type.value_case()) {
    case TypeProto::kTensorType:
      check_elem_type(ctx, type.tensor_type().elem_type(), loc, req.elem_type);
      check_shape(ctx, type.tensor_type().has_shape(), type.tensor_type().shape(), loc, req.shape);
      return;
    case TypeProto::kSparseTensorType:
      ctx.require_ir(8, "the sparse_tensor type", loc);
      check_elem_type(ctx, type.sparse_tensor_type().elem_type(), loc, req.elem_type);
      check_shape(ctx, type.sparse_tensor_type().has_shape(), type.sparse_tensor_type().shape(),
                  loc, req.shape);
      return;
    case TypeProto::kSequenceType:
      check_inner(ctx, type.sequence_type().has_elem_type(), type.sequence_type().elem_type(), loc,
                  req, depth);
      return;
    case TypeProto::kOptionalType:
      ctx.require_ir(8, "the optional type", loc);
      check_inner(ctx, type.optional_type().has_elem_type(), type.optional_type().elem_type(), loc,
                  req, depth);
      return;
    case TypeProto::kMapType: {
      const auto& m = type.map_type();
      if (m.key_type() == 0 && req.elem_type)
        ctx.report("type.missing-elem-type", loc, "the map type has no key type");
      else if (m.key_type() != 0 && !valid_map_key(m.key_type()))
        ctx.report("type.bad-map-key", loc,
                   "map key type " + elem_type_to_string(m.key_type()) +
                       " is not allowed; expected an integer type of 8 bits or more, or string");
      check_inner(ctx, m.has_value_type(), m.value_type(), loc, req, depth);
      return;
    }
    case TypeProto::kOpaqueType:
      return;
    case TypeProto::VALUE_NOT_SET:
      if (req.type) ctx.report("type.missing", loc, "the type is empty; expected a type");
      return;
  }
}

std::string constraint_string_at(const TypeProto& type, int depth) {
  if (depth > kMaxCheckDepth) return "";
  auto elem = [](int32_t e) -> std::string {
    const DataTypeInfo* info = find_type_info(e);
    return info ? std::string(info->name) : std::string();
  };
  auto wrap = [](const char* kind, const std::string& inner) {
    return inner.empty() ? std::string() : std::string(kind) + "(" + inner + ")";
  };
  switch (type.value_case()) {
    case TypeProto::kTensorType:
      return wrap("tensor", elem(type.tensor_type().elem_type()));
    case TypeProto::kSparseTensorType:
      return wrap("sparse_tensor", elem(type.sparse_tensor_type().elem_type()));
    case TypeProto::kSequenceType:
      return wrap("seq", constraint_string_at(type.sequence_type().elem_type(), depth + 1));
    case TypeProto::kOptionalType:
      return wrap("optional", constraint_string_at(type.optional_type().elem_type(), depth + 1));
    case TypeProto::kMapType: {
      const std::string key = elem(type.map_type().key_type());
      const std::string value = constraint_string_at(type.map_type().value_type(), depth + 1);
      if (key.empty() || value.empty()) return "";
      return "map(" + key + "," + value + ")";
    }
    default:
      return "";
  }
}

std::string shape_conflict(bool has_a, const onnx::TensorShapeProto& a, bool has_b,
                           const onnx::TensorShapeProto& b) {
  if (!has_a || !has_b) return "";
  if (a.dim_size() != b.dim_size())
    return "rank " + std::to_string(a.dim_size()) + " vs " + std::to_string(b.dim_size());
  for (int i = 0; i < a.dim_size(); ++i) {
    const auto &x = a.dim(i), &y = b.dim(i);
    if (x.has_dim_value() && y.has_dim_value() && x.dim_value() != y.dim_value() &&
        x.dim_value() >= 0 && y.dim_value() >= 0)
      return "dim " + std::to_string(i) + " is " + std::to_string(x.dim_value()) + " vs " +
             std::to_string(y.dim_value());
  }
  return "";
}

std::string elem_conflict(int32_t a, int32_t b) {
  // Unset or unknown element types are reported where they are declared, not here.
  if (a == b || !find_type_info(a) || !find_type_info(b)) return "";
  return "element type " + elem_type_to_string(a) + " vs " + elem_type_to_string(b);
}

std::string conflict_at(const TypeProto& a, const TypeProto& b, int depth) {
  if (depth > kMaxCheckDepth) return "";
  if (a.value_case() == TypeProto::VALUE_NOT_SET || b.value_case() == TypeProto::VALUE_NOT_SET)
    return "";
  if (a.value_case() != b.value_case()) return "different kinds of type";
  switch (a.value_case()) {
    case TypeProto::kTensorType: {
      const auto &x = a.tensor_type(), &y = b.tensor_type();
      std::string why = elem_conflict(x.elem_type(), y.elem_type());
      return why.empty() ? shape_conflict(x.has_shape(), x.shape(), y.has_shape(), y.shape()) : why;
    }
    case TypeProto::kSparseTensorType: {
      const auto &x = a.sparse_tensor_type(), &y = b.sparse_tensor_type();
      std::string why = elem_conflict(x.elem_type(), y.elem_type());
      return why.empty() ? shape_conflict(x.has_shape(), x.shape(), y.has_shape(), y.shape()) : why;
    }
    case TypeProto::kSequenceType:
      return conflict_at(a.sequence_type().elem_type(), b.sequence_type().elem_type(), depth + 1);
    case TypeProto::kOptionalType:
      return conflict_at(a.optional_type().elem_type(), b.optional_type().elem_type(), depth + 1);
    case TypeProto::kMapType: {
      std::string why = elem_conflict(a.map_type().key_type(), b.map_type().key_type());
      if (!why.empty()) return "map key " + why;
      return conflict_at(a.map_type().value_type(), b.map_type().value_type(), depth + 1);
    }
    default:
      return "";
  }
}

}  // namespace

void check_type(CheckContext& ctx, const TypeProto& type, const std::string& loc,
                TypeRequirements req) {
  check_type_at(ctx, type, loc, req, 0);
}

void check_value_type(CheckContext& ctx, const TypeProto* type, bool has_type,
                      const std::string& loc, TypeRequirements req) {
  if (!has_type || !type) {
    if (req.type)
      ctx.report("type.missing", loc,
                 "no type; main-graph inputs and outputs must declare their type and rank");
    return;
  }
  check_type(ctx, *type, loc, req);
}

TypeProto tensor_type_of(const onnx::TensorProto& t) {
  TypeProto type;
  auto* tensor = type.mutable_tensor_type();
  tensor->set_elem_type(t.data_type());
  auto* shape = tensor->mutable_shape();
  for (int64_t d : t.dims()) shape->add_dim()->set_dim_value(d);
  return type;
}

std::string constraint_type_string(const TypeProto& type) {
  return constraint_string_at(type, 0);
}

std::string type_conflict(const TypeProto& a, const TypeProto& b) {
  return conflict_at(a, b, 0);
}

}  // namespace onnxtool
