// SPDX-License-Identifier: Apache-2.0
#include "core/text/json.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <optional>

#include "core/diag/error.h"
#include "core/ir/type_text.h"
#include "onnx.pb.h"

namespace onnxtool::text {

namespace {

namespace pb = google::protobuf;

// protobuf's parse errors quote the input on following lines; a diagnostic is one line.
std::string one_line(const std::string& message) {
  const auto nl = message.find('\n');
  if (nl == std::string::npos) return message;
  std::string context = message.substr(nl + 1);
  context = context.substr(0, context.find('\n'));
  std::string head = message.substr(0, nl);
  while (!head.empty() && (head.back() == '.' || head.back() == ' ')) head.pop_back();
  return context.empty() ? head : head + ", at '" + context.substr(0, 40) + "'";
}

bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence_length(std::string_view(s).substr(i));
    if (n == 0) return false;
    i += n;
  }
  return true;
}

// The path of the first string (not bytes) field that is not UTF-8, which JSON cannot carry.
std::optional<std::string> non_utf8_field(const pb::Message& m, const std::string& path) {
  std::vector<const pb::FieldDescriptor*> fields;
  m.GetReflection()->ListFields(m, &fields);
  const pb::Reflection* r = m.GetReflection();
  for (const auto* f : fields) {
    const std::string here = path + (path.empty() ? "" : ".") + f->name();
    if (f->type() == pb::FieldDescriptor::TYPE_STRING) {
      if (!f->is_repeated() && !valid_utf8(r->GetString(m, f))) return here;
      for (int i = 0; f->is_repeated() && i < r->FieldSize(m, f); ++i)
        if (!valid_utf8(r->GetRepeatedString(m, f, i))) return here + "[" + std::to_string(i) + "]";
    } else if (f->cpp_type() == pb::FieldDescriptor::CPPTYPE_MESSAGE) {
      if (!f->is_repeated()) {
        if (auto p = non_utf8_field(r->GetMessage(m, f), here)) return p;
        continue;
      }
      for (int i = 0; i < r->FieldSize(m, f); ++i)
        if (auto p = non_utf8_field(r->GetRepeatedMessage(m, f, i),
                                    here + "[" + std::to_string(i) + "]"))
          return p;
    }
  }
  return std::nullopt;
}

// protobuf prints -0.0 as the number -0, which its own parser reads back as +0 (an integer);
// written -0.0 it keeps the sign.
std::string keep_negative_zeros(const std::string& json) {
  std::string out;
  out.reserve(json.size());
  bool in_string = false;
  for (std::size_t i = 0; i < json.size(); ++i) {
    const char c = json[i];
    out += c;
    if (in_string) {
      if (c == '\\' && i + 1 < json.size()) out += json[++i];
      if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') in_string = true;
    const bool number_start =
        c == '-' && i + 1 < json.size() && json[i + 1] == '0' &&
        (i + 2 == json.size() ||
         std::string_view(",]} \n\r\t").find(json[i + 2]) != std::string_view::npos);
    if (number_start) {
      out += "0.0";
      ++i;
    }
  }
  return out;
}

}  // namespace

std::string model_to_json(const onnx::ModelProto& model) {
  if (auto field = non_utf8_field(model, ""))
    throw_invalid("json.not-utf8", "", "",
                  field->substr(0, 200) +
                      " is not UTF-8, which JSON cannot carry; write the text format instead");
  pb::util::JsonPrintOptions options;
  options.add_whitespace = true;
  std::string out;
  const auto status = pb::util::MessageToJsonString(model, &out, options);
  if (!status.ok())
    throw_invalid(
        "json.write", "", "",
        "the model cannot be written as JSON: " + one_line(std::string(status.message())));
  out = keep_negative_zeros(out);
  if (out.empty() || out.back() != '\n') out += '\n';
  return out;
}

void model_from_json(std::string_view json, const std::string& file, onnx::ModelProto& model) {
  const auto first = json.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos)
    throw_invalid("json.syntax", file, "", "the JSON text is empty, expected a ModelProto object");
  if (json[first] != '{')
    throw_invalid(
        "json.not-a-model", file, "",
        "expected a JSON object holding a ModelProto, found '" + std::string(1, json[first]) + "'");
  pb::util::JsonParseOptions options;
  options.ignore_unknown_fields = false;
  const auto status =
      pb::util::JsonStringToMessage(pb::StringPiece(json.data(), json.size()), &model, options);
  if (!status.ok())
    throw_invalid("json.syntax", file, "",
                  "not a ModelProto in JSON: " + one_line(std::string(status.message())));
}

}  // namespace onnxtool::text
