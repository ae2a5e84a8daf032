// SPDX-License-Identifier: Apache-2.0
#include "core/text/json.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <functional>
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

// What a probe finds in one message (its path given), or nothing.
using MessageProbe =
    std::function<std::optional<std::string>(const pb::Message&, const std::string&)>;

// The first finding of `probe` in m or in a message inside it, depth first, in field order.
std::optional<std::string> first_in_messages(const pb::Message& m, const std::string& path,
                                             const MessageProbe& probe) {
  if (auto found = probe(m, path)) return found;
  const pb::Reflection* r = m.GetReflection();
  std::vector<const pb::FieldDescriptor*> fields;
  r->ListFields(m, &fields);
  for (const auto* f : fields) {
    if (f->cpp_type() != pb::FieldDescriptor::CPPTYPE_MESSAGE) continue;
    const std::string here = path + (path.empty() ? "" : ".") + f->name();
    const int n = f->is_repeated() ? r->FieldSize(m, f) : 1;
    for (int i = 0; i < n; ++i) {
      const pb::Message& inner =
          f->is_repeated() ? r->GetRepeatedMessage(m, f, i) : r->GetMessage(m, f);
      const std::string at = f->is_repeated() ? here + "[" + std::to_string(i) + "]" : here;
      if (auto found = first_in_messages(inner, at, probe)) return found;
    }
  }
  return std::nullopt;
}

// The path of the first string (not bytes) field that is not UTF-8, which JSON cannot carry.
std::optional<std::string> non_utf8_field(const pb::Message& model) {
  return first_in_messages(
      model, "", [](const pb::Message& m, const std::string& path) -> std::optional<std::string> {
        const pb::Reflection* r = m.GetReflection();
        std::vector<const pb::FieldDescriptor*> fields;
        r->ListFields(m, &fields);
        for (const auto* f : fields) {
          if (f->type() != pb::FieldDescriptor::TYPE_STRING) continue;
          const std::string here = path + (path.empty() ? "" : ".") + f->name();
          if (!f->is_repeated() && !valid_utf8(r->GetString(m, f))) return here;
          for (int i = 0; f->is_repeated() && i < r->FieldSize(m, f); ++i)
            if (!valid_utf8(r->GetRepeatedString(m, f, i)))
              return here + "[" + std::to_string(i) + "]";
        }
        return std::nullopt;
      });
}

// The path of the first message holding fields that onnx.proto does not define (kept by the
// binary and text formats, dropped by protobuf's JSON mapping); "model" for the top level.
std::optional<std::string> unknown_fields_at(const pb::Message& model) {
  return first_in_messages(
      model, "", [](const pb::Message& m, const std::string& path) -> std::optional<std::string> {
        if (m.GetReflection()->GetUnknownFields(m).empty()) return std::nullopt;
        return path.empty() ? std::string("model") : path;
      });
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
  if (auto field = non_utf8_field(model))
    throw_invalid("json.not-utf8", "", "",
                  field->substr(0, 200) +
                      " is not UTF-8, which JSON cannot carry; write the text format instead");
  if (auto where = unknown_fields_at(model))
    throw_invalid("json.unknown-fields", "", "",
                  where->substr(0, 200) +
                      " has fields onnx.proto does not define, which JSON cannot carry; write the "
                      "text format instead");
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
