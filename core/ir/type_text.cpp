// SPDX-License-Identifier: Apache-2.0
#include "core/ir/type_text.h"

#include <cstdio>

#include "core/types/dtype.h"
#include "onnx.pb.h"

namespace onnxtool {

namespace {

bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

// A symbolic dim or opaque name: bare when it is an identifier, else a string literal.
std::string word(const std::string& s) {
  return is_text_identifier(s) ? s : text_string_literal(s);
}

// domain.name parts for opaque(): bare when every dotted part is an identifier.
std::string qualified(const std::string& s) {
  std::size_t start = 0;
  while (true) {
    const auto dot = s.find('.', start);
    if (!is_text_identifier(std::string_view(s).substr(start, dot - start)))
      return text_string_literal(s);
    if (dot == std::string::npos) return s;
    start = dot + 1;
  }
}

bool exact_dims(const onnx::TensorShapeProto& shape) {
  if (!shape.unknown_fields().empty()) return false;
  for (const auto& d : shape.dim())
    if (d.has_denotation() || !d.unknown_fields().empty()) return false;
  return true;
}

template <class T>  // TypeProto::Tensor or TypeProto::SparseTensor
bool exact_tensor(const T& t) {
  return t.unknown_fields().empty() && t.has_elem_type() && find_type_info(t.elem_type()) &&
         (!t.has_shape() || exact_dims(t.shape()));
}

std::string tensor_text(int32_t elem, bool has_shape, const onnx::TensorShapeProto& shape) {
  std::string s = elem_type_to_string(elem);
  if (!has_shape) return s + "[]";
  if (shape.dim_size() > 0) s += shape_to_string(shape);
  return s;
}

}  // namespace

std::size_t utf8_sequence_length(std::string_view s) {
  if (s.empty()) return 0;
  const auto b0 = static_cast<unsigned char>(s[0]);
  if (b0 < 0x80) return 1;
  const std::size_t n = (b0 & 0xE0) == 0xC0   ? 2
                        : (b0 & 0xF0) == 0xE0 ? 3
                        : (b0 & 0xF8) == 0xF0 ? 4
                                              : 0;
  if (n == 0 || s.size() < n) return 0;
  uint32_t cp = b0 & (0x7Fu >> n);
  for (std::size_t i = 1; i < n; ++i) {
    const auto b = static_cast<unsigned char>(s[i]);
    if ((b & 0xC0) != 0x80) return 0;
    cp = (cp << 6) | (b & 0x3Fu);
  }
  static constexpr uint32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (cp < kMin[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return 0;
  return n;
}

bool is_text_identifier(std::string_view s) {
  if (s.empty() || !is_alpha(s[0])) return false;
  for (char c : s)
    if (!is_alpha(c) && !(c >= '0' && c <= '9')) return false;
  return true;
}

std::string text_string_literal(std::string_view s) {
  std::string out = "\"";
  out.reserve(s.size() + 2);
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    const std::size_t n = c >= 0x80 ? utf8_sequence_length(s.substr(i)) : 1;
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == '\n') {
      out += "\\n";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c < 0x20 || c == 0x7F || n == 0) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out.append(s.substr(i, n));
      i += n;
      continue;
    }
    ++i;
  }
  return out + "\"";
}

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
    else if (d.has_dim_param())
      s += word(d.dim_param());
    else
      s += '?';
  }
  return s + "]";
}

std::string type_to_string(const onnx::TypeProto& type) {
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType: {
      const auto& t = type.tensor_type();
      return tensor_text(t.elem_type(), t.has_shape(), t.shape());
    }
    case onnx::TypeProto::kSparseTensorType: {
      const auto& t = type.sparse_tensor_type();
      return "sparse_tensor(" + tensor_text(t.elem_type(), t.has_shape(), t.shape()) + ")";
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
      if (!o.has_name() && !o.has_domain()) return "opaque()";
      if (!o.has_domain()) return "opaque(" + qualified(o.name()) + ")";
      return "opaque(" + qualified(o.domain()) + ", " + qualified(o.name()) + ")";
    }
    case onnx::TypeProto::VALUE_NOT_SET:
      break;
  }
  return "(no type)";
}

// Fields of a newer onnx.proto (unknown here) have no place in the readable form either.
bool text_type_is_exact(const onnx::TypeProto& type) {
  if (type.has_denotation() || !type.unknown_fields().empty()) return false;
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType:
      return exact_tensor(type.tensor_type());
    case onnx::TypeProto::kSparseTensorType:
      return exact_tensor(type.sparse_tensor_type());
    case onnx::TypeProto::kSequenceType: {
      const auto& s = type.sequence_type();
      return s.unknown_fields().empty() && s.has_elem_type() && text_type_is_exact(s.elem_type());
    }
    case onnx::TypeProto::kMapType: {
      const auto& m = type.map_type();
      return m.unknown_fields().empty() && m.has_key_type() && find_type_info(m.key_type()) &&
             m.has_value_type() && text_type_is_exact(m.value_type());
    }
    case onnx::TypeProto::kOptionalType: {
      const auto& o = type.optional_type();
      return o.unknown_fields().empty() && o.has_elem_type() && text_type_is_exact(o.elem_type());
    }
    case onnx::TypeProto::kOpaqueType: {
      const auto& o = type.opaque_type();
      return o.unknown_fields().empty() && (o.has_name() || !o.has_domain());
    }
    case onnx::TypeProto::VALUE_NOT_SET:
      break;
  }
  return false;
}

}  // namespace onnxtool
