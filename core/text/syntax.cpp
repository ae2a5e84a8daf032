// SPDX-License-Identifier: Apache-2.0
#include "core/text/syntax.h"

#include <array>
#include <utility>

#include "onnx.pb.h"

namespace onnxtool::text {

namespace {

using A = onnx::AttributeProto;
constexpr std::array<std::pair<std::string_view, int>, 14> kAttributeTypes = {{
    {"float", A::FLOAT},
    {"int", A::INT},
    {"string", A::STRING},
    {"tensor", A::TENSOR},
    {"graph", A::GRAPH},
    {"sparse_tensor", A::SPARSE_TENSOR},
    {"type_proto", A::TYPE_PROTO},
    {"floats", A::FLOATS},
    {"ints", A::INTS},
    {"strings", A::STRINGS},
    {"tensors", A::TENSORS},
    {"graphs", A::GRAPHS},
    {"sparse_tensors", A::SPARSE_TENSORS},
    {"type_protos", A::TYPE_PROTOS},
}};

bool equals_lower_ascii(std::string_view word, std::string_view lower) {
  if (word.size() != lower.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i) {
    char c = word[i];
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
    if (c != lower[i]) return false;
  }
  return true;
}

}  // namespace

std::string ascii_lower(std::string_view word) {
  std::string out(word);
  for (auto& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c + 32);
  return out;
}

std::optional<DataType> element_type_named(std::string_view word) {
  // Only the syntax's own names: data_type_from_name also takes aliases such as float32.
  for (const auto& info : all_type_infos())
    if (info.name == word) return info.type;
  return std::nullopt;
}

bool is_type_keyword(std::string_view word) {
  return word == "seq" || word == "map" || word == "optional" || word == "sparse_tensor" ||
         word == "opaque";
}

bool is_float_word(std::string_view word) {
  return equals_lower_ascii(word, "inf") || equals_lower_ascii(word, "infinity") ||
         equals_lower_ascii(word, "nan");
}

bool is_keyword(std::string_view word) {
  return element_type_named(word) || is_type_keyword(word) || is_float_word(word);
}

std::optional<int> attribute_type_named(std::string_view word) {
  for (const auto& [name, type] : kAttributeTypes)
    if (name == word) return type;
  return std::nullopt;
}

std::string attribute_type_name(int type) {
  for (const auto& [name, t] : kAttributeTypes)
    if (t == type) return std::string(name);
  return "undefined";
}

}  // namespace onnxtool::text
