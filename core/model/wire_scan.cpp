// SPDX-License-Identifier: Apache-2.0
#include "core/model/wire_scan.h"

#include <google/protobuf/descriptor.h>

#include <cstdint>
#include <map>
#include <optional>

namespace onnxtool {

namespace {

using google::protobuf::Descriptor;
using google::protobuf::FieldDescriptor;

class Scanner {
 public:
  explicit Scanner(std::string_view bytes)
      : begin_(reinterpret_cast<const uint8_t*>(bytes.data())), end_(begin_ + bytes.size()) {}

  std::string scan(const Descriptor* type) { return message(begin_, end_, type, "", 0); }

 private:
  std::size_t offset(const uint8_t* p) const { return static_cast<std::size_t>(p - begin_); }

  static std::optional<uint64_t> varint(const uint8_t*& p, const uint8_t* end) {
    uint64_t v = 0;
    for (int shift = 0; shift < 70 && p < end; shift += 7) {
      const uint8_t b = *p++;
      v |= uint64_t(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
    }
    return std::nullopt;
  }

  std::string where(const std::string& path) const { return path.empty() ? "" : " in " + path; }

  std::string message(const uint8_t* p, const uint8_t* end, const Descriptor* type,
                      const std::string& path, int depth) {
    if (depth > kMaxProtoNesting)
      return "messages nested deeper than " + std::to_string(kMaxProtoNesting) +
             " levels at byte " + std::to_string(offset(p)) + where(path);
    std::map<int, int> counts;
    while (p < end) {
      const uint8_t* field_start = p;
      auto tag = varint(p, end);
      if (!tag)
        return "truncated field tag at byte " + std::to_string(offset(field_start)) + where(path);
      const int number = static_cast<int>(*tag >> 3);
      const int wire = static_cast<int>(*tag & 7);
      if (number == 0)
        return "invalid field number 0 at byte " + std::to_string(offset(field_start)) +
               where(path);
      const FieldDescriptor* field = type ? type->FindFieldByNumber(number) : nullptr;
      std::string name = field ? field->name() : "field " + std::to_string(number);
      std::string child = path.empty() ? name : path + "." + name;
      if (field && field->is_repeated()) child += "[" + std::to_string(counts[number]++) + "]";
      if (auto problem = value(p, end, wire, field, child, depth); !problem.empty()) return problem;
    }
    return "";
  }

  std::string value(const uint8_t*& p, const uint8_t* end, int wire, const FieldDescriptor* field,
                    const std::string& path, int depth) {
    const std::size_t at = offset(p);
    auto truncated = [&](const std::string& what) {
      return "truncated protobuf: " + path + " at byte " + std::to_string(at) + " " + what +
             ", but the data ends at byte " + std::to_string(offset(end));
    };
    switch (wire) {
      case 0:
        if (!varint(p, end)) return truncated("holds a varint");
        return "";
      case 1:
        if (end - p < 8) return truncated("needs 8 bytes");
        p += 8;
        return "";
      case 5:
        if (end - p < 4) return truncated("needs 4 bytes");
        p += 4;
        return "";
      case 2: {
        auto len = varint(p, end);
        if (!len) return truncated("has a length prefix");
        if (*len > static_cast<uint64_t>(end - p)) {
          // Name the innermost field the cut runs through, when there is one.
          if (field && field->type() == FieldDescriptor::TYPE_MESSAGE) {
            std::string inner = message(p, end, field->message_type(), path, depth + 1);
            if (!inner.empty()) return inner;
          }
          return truncated("declares " + std::to_string(*len) + " bytes");
        }
        const uint8_t* body_end = p + *len;
        std::string problem;
        if (field && field->type() == FieldDescriptor::TYPE_MESSAGE)
          problem = message(p, body_end, field->message_type(), path, depth + 1);
        p = body_end;
        return problem;
      }
      case 3:
        return "unsupported protobuf group at byte " + std::to_string(at) + " (" + path + ")";
      default:
        return "invalid wire type " + std::to_string(wire) + " at byte " + std::to_string(at) +
               " (" + path + "): not protobuf data";
    }
  }

  const uint8_t* begin_;
  const uint8_t* end_;
};

}  // namespace

std::string diagnose_wire_format(std::string_view bytes, const Descriptor* type) {
  return Scanner(bytes).scan(type);
}

}  // namespace onnxtool
