// SPDX-License-Identifier: Apache-2.0
#include "core/text/residual.h"

#include <google/protobuf/descriptor.h>
#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/io/tokenizer.h>
#include <google/protobuf/io/zero_copy_stream_impl_lite.h>
#include <google/protobuf/message.h>
#include <google/protobuf/text_format.h>

#include <algorithm>
#include <memory>
#include <optional>

#include "core/diag/error.h"
#include "core/text/values.h"

namespace onnxtool::text {

namespace {

namespace pb = google::protobuf;
using FD = pb::FieldDescriptor;

void copy_repeated(const pb::Message& from, pb::Message& to, const FD* f) {
  const pb::Reflection* rf = from.GetReflection();
  const pb::Reflection* rt = to.GetReflection();
  const int n = rf->FieldSize(from, f);
  for (int i = 0; i < n; ++i) {
    switch (f->cpp_type()) {
      case FD::CPPTYPE_INT32:
        rt->AddInt32(&to, f, rf->GetRepeatedInt32(from, f, i));
        break;
      case FD::CPPTYPE_INT64:
        rt->AddInt64(&to, f, rf->GetRepeatedInt64(from, f, i));
        break;
      case FD::CPPTYPE_UINT32:
        rt->AddUInt32(&to, f, rf->GetRepeatedUInt32(from, f, i));
        break;
      case FD::CPPTYPE_UINT64:
        rt->AddUInt64(&to, f, rf->GetRepeatedUInt64(from, f, i));
        break;
      case FD::CPPTYPE_FLOAT:
        rt->AddFloat(&to, f, rf->GetRepeatedFloat(from, f, i));
        break;
      case FD::CPPTYPE_DOUBLE:
        rt->AddDouble(&to, f, rf->GetRepeatedDouble(from, f, i));
        break;
      case FD::CPPTYPE_BOOL:
        rt->AddBool(&to, f, rf->GetRepeatedBool(from, f, i));
        break;
      case FD::CPPTYPE_ENUM:
        rt->AddEnumValue(&to, f, rf->GetRepeatedEnumValue(from, f, i));
        break;
      case FD::CPPTYPE_STRING:
        rt->AddString(&to, f, rf->GetRepeatedString(from, f, i));
        break;
      case FD::CPPTYPE_MESSAGE:
        rt->AddMessage(&to, f)->CopyFrom(rf->GetRepeatedMessage(from, f, i));
        break;
    }
  }
}

void copy_singular(const pb::Message& from, pb::Message& to, const FD* f) {
  const pb::Reflection* rf = from.GetReflection();
  const pb::Reflection* rt = to.GetReflection();
  switch (f->cpp_type()) {
    case FD::CPPTYPE_INT32:
      rt->SetInt32(&to, f, rf->GetInt32(from, f));
      break;
    case FD::CPPTYPE_INT64:
      rt->SetInt64(&to, f, rf->GetInt64(from, f));
      break;
    case FD::CPPTYPE_UINT32:
      rt->SetUInt32(&to, f, rf->GetUInt32(from, f));
      break;
    case FD::CPPTYPE_UINT64:
      rt->SetUInt64(&to, f, rf->GetUInt64(from, f));
      break;
    case FD::CPPTYPE_FLOAT:
      rt->SetFloat(&to, f, rf->GetFloat(from, f));
      break;
    case FD::CPPTYPE_DOUBLE:
      rt->SetDouble(&to, f, rf->GetDouble(from, f));
      break;
    case FD::CPPTYPE_BOOL:
      rt->SetBool(&to, f, rf->GetBool(from, f));
      break;
    case FD::CPPTYPE_ENUM:
      rt->SetEnumValue(&to, f, rf->GetEnumValue(from, f));
      break;
    case FD::CPPTYPE_STRING:
      rt->SetString(&to, f, rf->GetString(from, f));
      break;
    case FD::CPPTYPE_MESSAGE:
      rt->MutableMessage(&to, f)->CopyFrom(rf->GetMessage(from, f));
      break;
  }
}

std::string deterministic_bytes(const pb::Message& msg) {
  std::string out;
  {
    pb::io::StringOutputStream stream(&out);
    pb::io::CodedOutputStream coded(&stream);
    coded.SetSerializationDeterministic(true);
    msg.SerializeToCodedStream(&coded);
  }
  return out;
}

// Protobuf text format when it reads back to the very same message; otherwise (a NaN with a
// payload or a sign, unknown fields) the message's bytes as a base64 string literal.
std::string to_text(const pb::Message& msg) {
  pb::TextFormat::Printer printer;
  printer.SetSingleLineMode(true);
  printer.SetUseUtf8StringEscaping(true);
  std::string out;
  printer.PrintToString(msg, &out);
  while (!out.empty() && out.back() == ' ') out.pop_back();
  std::unique_ptr<pb::Message> back(msg.New());
  const std::string bytes = deterministic_bytes(msg);
  if (pb::TextFormat::ParseFromString(out, back.get()) && deterministic_bytes(*back) == bytes)
    return out;
  return "\"" + base64_encode(bytes) + "\"";
}

// Collects the first error of the text-format parser, with its position.
class FirstError : public pb::io::ErrorCollector {
 public:
  void AddError(int line, pb::io::ColumnNumber column, const std::string& message) override {
    if (!message_.empty()) return;
    line_ = line;
    column_ = column;
    message_ = message;
  }
  int line_ = -1, column_ = 0;
  std::string message_;
};

// The offset in the source of (line, column) inside the annotation's text.
std::size_t source_offset(const Lexer& lex, const Token& t, int line, int column) {
  std::string_view src = lex.source();
  std::size_t pos = t.value_offset;
  if (line < 0) return t.offset;
  for (int l = 0; l < line && pos < src.size(); ++pos)
    if (src[pos] == '\n') ++l;
  return std::min(pos + static_cast<std::size_t>(std::max(column, 0)), src.size());
}

// A block holding one string literal holds the message's bytes in base64.
bool parse_binary(const Lexer& lex, const Token& t, pb::Message& msg, int nesting) {
  const std::string_view v = t.value;
  const auto first = v.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || v[first] != '"') return false;
  const auto last = v.find_last_not_of(" \t\r\n");
  std::optional<std::string> bytes;
  if (last > first && v[last] == '"') bytes = base64_decode(v.substr(first + 1, last - first - 1));
  if (!bytes)
    lex.fail(t.value_offset + first, "text.bad-annotation",
             "expected base64 bytes of a " + msg.GetDescriptor()->name() + " in \"...\"");
  pb::io::CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes->data()),
                              static_cast<int>(bytes->size()));
  in.SetRecursionLimit(std::max(nesting, 1));
  if (!msg.ParseFromCodedStream(&in) || !in.ConsumedEntireMessage())
    lex.fail(t.value_offset + first, "text.bad-annotation",
             "the base64 bytes are not a valid " + msg.GetDescriptor()->name());
  return true;
}

void parse_text(const Lexer& lex, const Token& t, pb::Message& msg, int nesting) {
  if (parse_binary(lex, t, msg, nesting)) return;
  FirstError errors;
  pb::TextFormat::Parser parser;
  parser.RecordErrorsTo(&errors);
  parser.SetRecursionLimit(std::max(nesting, 1));
  if (parser.ParseFromString(t.value, &msg)) return;
  std::string what = errors.message_.empty() ? "does not parse" : errors.message_;
  std::replace(what.begin(), what.end(), '\n', ' ');
  lex.fail(source_offset(lex, t, errors.line_, errors.column_), "text.bad-annotation",
           "in protobuf text for " + msg.GetDescriptor()->name() + ": " + what);
}

}  // namespace

std::string annotation_for(const pb::Message& msg, const Covered& covered) {
  std::vector<const FD*> fields;
  msg.GetReflection()->ListFields(msg, &fields);
  std::unique_ptr<pb::Message> rest;
  for (const FD* f : fields) {
    if (std::find(covered.begin(), covered.end(), f->number()) != covered.end()) continue;
    if (!rest) rest.reset(msg.New());
    if (f->is_repeated())
      copy_repeated(msg, *rest, f);
    else
      copy_singular(msg, *rest, f);
  }
  // Fields of a newer onnx.proto travel too (as bytes, since text format cannot hold them).
  const pb::UnknownFieldSet& unknown = msg.GetReflection()->GetUnknownFields(msg);
  if (!unknown.empty()) {
    if (!rest) rest.reset(msg.New());
    rest->GetReflection()->MutableUnknownFields(rest.get())->MergeFrom(unknown);
  }
  if (!rest) return "";
  return " %{" + to_text(*rest) + "}";
}

std::string raw_entity(const char* kind, const pb::Message& msg) {
  return std::string("%") + kind + "{" + to_text(msg) + "}";
}

void merge_annotation(const Lexer& lex, const Token& t, pb::Message& msg, int nesting) {
  std::unique_ptr<pb::Message> extra(msg.New());
  parse_text(lex, t, *extra, nesting);
  msg.MergeFrom(*extra);
}

void parse_raw_entity(const Lexer& lex, const Token& t, pb::Message& msg, int nesting) {
  parse_text(lex, t, msg, nesting);
}

}  // namespace onnxtool::text
