// SPDX-License-Identifier: Apache-2.0
#include "core/ir/type_text.h"

#include "core/types/dtype.h"
#include "onnx.pb.h"

namespace onnxtool {

std::string elem_type_to_string(int32_t elem_type) {
  return type_name_or_number(elem_type);
}

std::string shape_to_string(const onnx::TensorShapeProto& shape) {
  std::string s = "[";
  for (int i = 0; i < shape.dim_size(); ++i) {
    if (i) s += ',';
    const auto& d = shape.dim(i);
    if (d.has_dim_value())
      s += std::to_string(d.dim_value());
    else if (d.has_dim_param() && !d.dim_param().empty())
      s += d.dim_param();
    else
      s += '?';
  }
  return s + "]";
}

std::string type_to_string(const onnx::TypeProto& type) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType: {
      const auto& t = type.tensor_type();
      std::string s = elem_type_to_string(t.elem_type());
      if (t.has_shape()) s += shape_to_string(t.shape());
      return s;
    }
    case onnx::TypeProto::kSparseTensorType: {
      const auto& t = type.sparse_tensor_type();
      std::string s = elem_type_to_string(t.elem_type());
      if (t.has_shape()) s += shape_to_string(t.shape());
      return "sparse_tensor(" + s + ")";
    }
    case onnx::TypeProto::kSequenceType:
      return "seq(" + type_to_string(type.sequence_type().elem_type()) + ")";
    case onnx::TypeProto::kMapType:
      return "map(" + elem_type_to_string(type.map_type().key_type()) + ", " +
             type_to_string(type.map_type().value_type()) + ")";
    case onnx::TypeProto::kOptionalType:
      return "optional(" + type_to_string(type.optional_type().elem_type()) + ")";
    case onnx::TypeProto::kOpaqueType: {
      const auto& o = type.opaque_type();
      if (o.domain().empty()) return "opaque(" + o.name() + ")";
      return "opaque(" + o.domain() + ", " + o.name() + ")";
    }
    case onnx::TypeProto::VALUE_NOT_SET:
      break;
  }
  return "(no type)";
}

}  // namespace onnxtool
