// SPDX-License-Identifier: Apache-2.0
#include "core/text/lexer.h"

#include <algorithm>
#include <array>
#include <cstdio>

#include "core/diag/error.h"
#include "core/ir/type_text.h"
#include "core/text/syntax.h"

namespace onnxtool::text {

namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_alnum(char c) {
  return is_alpha(c) || is_digit(c);
}
bool is_hex(char c) {
  return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}
int hex_value(char c) {
  if (is_digit(c)) return c - '0';
  return (c | 0x20) - 'a' + 10;
}

constexpr std::string_view kPunct = "()[]{}<>,:=.@?";

// Raw entities: %kind{ protobuf text } stands for a whole message of that kind.
constexpr std::array<std::string_view, 5> kRawKinds = {"type", "tensor", "attr", "value_info",
                                                       "function"};

bool is_raw_kind(std::string_view name) {
  for (auto k : kRawKinds)
    if (k == name) return true;
  return false;
}

// At most `max` bytes of s, with control characters escaped so a message stays on one line.
std::string shorten(std::string_view s, std::size_t max = 24) {
  std::string out;
  for (std::size_t i = 0; i < s.size() && i < max; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x20 || c == 0x7F) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02X", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
  }
  if (s.size() > max) out += "...";
  return out;
}

std::string byte_hex(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "0x%02X", c);
  return buf;
}

}  // namespace

bool valid_utf8(std::string_view s) {
  for (std::size_t i = 0; i < s.size();) {
    const std::size_t n = utf8_sequence_length(s.substr(i));
    if (n == 0) return false;
    i += n;
  }
  return true;
}

Position position_of(std::string_view source, std::size_t offset) {
  Position p;
  if (offset > source.size()) offset = source.size();
  const std::size_t bom = source.starts_with("\xEF\xBB\xBF") ? 3 : 0;  // not a column
  for (std::size_t i = std::min(bom, offset); i < offset; ++i) {
    const auto c = static_cast<unsigned char>(source[i]);
    if (c == '\n') {
      ++p.line;
      p.column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++p.column;  // count characters, not UTF-8 continuation bytes
    }
  }
  return p;
}

void Lexer::fail(std::size_t offset, const char* rule, const std::string& message) const {
  const Position p = position_of(src_, offset);
  throw_invalid(rule, file_, std::to_string(p.line) + ":" + std::to_string(p.column), message);
}

void Lexer::skip_space_and_comments() {
  while (pos_ < src_.size()) {
    const char c = src_[pos_];
    if (is_space(c)) {
      ++pos_;
    } else if (c == '#') {
      const auto nl = src_.find('\n', pos_);
      pos_ = nl == std::string_view::npos ? src_.size() : nl;
    } else {
      return;
    }
  }
}

Token Lexer::next() {
  skip_space_and_comments();
  Token t;
  t.offset = pos_;
  if (pos_ >= src_.size()) return t;
  const char c = src_[pos_];
  if (c == '"') return lex_string();
  if (is_digit(c) || c == '-') return lex_number();
  if (c == '%') return lex_percent();
  if (is_alpha(c)) {
    std::size_t end = pos_ + 1;
    while (end < src_.size() && is_alnum(src_[end])) ++end;
    t.kind = Tok::ident;
    t.text = src_.substr(pos_, end - pos_);
    pos_ = end;
    return t;
  }
  if (c == '=' && pos_ + 1 < src_.size() && src_[pos_ + 1] == '>') {
    t.kind = Tok::arrow;
    t.text = src_.substr(pos_, 2);
    pos_ += 2;
    return t;
  }
  if (kPunct.find(c) != std::string_view::npos) {
    t.kind = Tok::punct;
    t.text = src_.substr(pos_, 1);
    ++pos_;
    return t;
  }
  const auto u = static_cast<unsigned char>(c);
  if (u >= 0x20 && u < 0x7F)
    fail(pos_, "text.syntax", std::string("unexpected character '") + c + "'");
  const std::size_t n = utf8_sequence_length(src_.substr(pos_));
  if (n > 1)
    fail(pos_, "text.syntax",
         "unexpected character '" + std::string(src_.substr(pos_, n)) +
             "' (names with other characters are written in double quotes)");
  fail(pos_, "text.syntax",
       "unexpected byte " + byte_hex(u) + (u >= 0x80 ? " (not valid UTF-8)" : ""));
}

Token Lexer::lex_string() {
  Token t;
  t.kind = Tok::string;
  t.offset = pos_;
  std::size_t i = pos_ + 1;
  std::string& out = t.value;
  while (true) {
    if (i >= src_.size())
      fail(t.offset, "text.unterminated-string",
           "string is not closed: expected '\"' before the end of input");
    const char c = src_[i];
    if (c == '"') break;
    if (c == '\\') {
      if (i + 1 >= src_.size())
        fail(t.offset, "text.unterminated-string",
             "string is not closed: expected '\"' before the end of input");
      const char e = src_[i + 1];
      if (e == 'n' || e == 't' || e == 'r') {
        out += e == 'n' ? '\n' : e == 't' ? '\t' : '\r';
        i += 2;
      } else if (e == 'x') {
        if (i + 3 >= src_.size() || !is_hex(src_[i + 2]) || !is_hex(src_[i + 3]))
          fail(i, "text.bad-escape", "expected two hex digits after '\\x' in a string");
        out += static_cast<char>(hex_value(src_[i + 2]) * 16 + hex_value(src_[i + 3]));
        i += 4;
      } else {
        // As in the official parser, a backslash takes the next character literally.
        const std::size_t n = utf8_sequence_length(src_.substr(i + 1));
        if (n == 0)
          fail(i + 1, "text.bad-utf8", "invalid UTF-8 in a string (write such bytes as \\xHH)");
        out.append(src_.substr(i + 1, n));
        i += 1 + n;
      }
      continue;
    }
    const std::size_t n = utf8_sequence_length(src_.substr(i));
    if (n == 0) fail(i, "text.bad-utf8", "invalid UTF-8 in a string (write such bytes as \\xHH)");
    out.append(src_.substr(i, n));
    i += n;
  }
  t.text = src_.substr(pos_, i + 1 - pos_);
  pos_ = i + 1;
  return t;
}

Token Lexer::lex_number() {
  Token t;
  t.offset = pos_;
  std::size_t i = pos_;
  if (src_[i] == '-') {
    ++i;
    if (i < src_.size() && is_alpha(src_[i])) {
      std::size_t end = i;
      while (end < src_.size() && is_alnum(src_[end])) ++end;
      const std::string word = ascii_lower(src_.substr(i, end - i));
      if (word != "inf" && word != "infinity" && word != "nan")
        fail(t.offset, "text.bad-number",
             "expected a number after '-', found '" + shorten(src_.substr(i, end - i)) + "'");
      t.kind = Tok::real;
      t.text = src_.substr(pos_, end - pos_);
      pos_ = end;
      return t;
    }
    if (i >= src_.size() || !is_digit(src_[i]))
      fail(t.offset, "text.bad-number", "expected a number after '-'");
  }
  t.kind = Tok::integer;
  if (src_[i] == '0' && i + 1 < src_.size() && (src_[i + 1] == 'x' || src_[i + 1] == 'X') &&
      src_[pos_] != '-') {
    i += 2;
    const std::size_t digits = i;
    while (i < src_.size() && is_hex(src_[i])) ++i;
    if (i == digits) fail(t.offset, "text.bad-number", "expected hex digits after '0x'");
    t.kind = Tok::hex;
  } else {
    while (i < src_.size() && is_digit(src_[i])) ++i;
    if (i < src_.size() && src_[i] == '.') {
      t.kind = Tok::real;
      ++i;
      while (i < src_.size() && is_digit(src_[i])) ++i;
    }
    if (i < src_.size() && (src_[i] == 'e' || src_[i] == 'E')) {
      t.kind = Tok::real;
      ++i;
      if (i < src_.size() && (src_[i] == '+' || src_[i] == '-')) ++i;
      const std::size_t digits = i;
      while (i < src_.size() && is_digit(src_[i])) ++i;
      if (i == digits)
        fail(t.offset, "text.bad-number", "expected digits in the exponent of a number");
    }
  }
  if (i < src_.size() && (is_alnum(src_[i]) || src_[i] == '.')) {
    std::size_t end = i;
    while (end < src_.size() && (is_alnum(src_[end]) || src_[end] == '.')) ++end;
    fail(t.offset, "text.bad-number",
         "malformed number '" + shorten(src_.substr(pos_, end - pos_)) + "'");
  }
  t.text = src_.substr(pos_, i - pos_);
  pos_ = i;
  return t;
}

Token Lexer::lex_percent() {
  Token t;
  t.offset = pos_;
  std::size_t i = pos_ + 1;
  if (i < src_.size() && src_[i] == '{') {
    t.kind = Tok::annotation;
  } else {
    std::size_t end = i;
    while (end < src_.size() && is_alnum(src_[end])) ++end;
    if (end == i || !is_alpha(src_[i]))
      fail(pos_, "text.syntax", "expected an extension keyword or '{' after '%'");
    t.name = std::string(src_.substr(i, end - i));
    i = end;
    t.kind = i < src_.size() && src_[i] == '{' && is_raw_kind(t.name) ? Tok::annotation : Tok::ext;
  }
  if (t.kind == Tok::annotation) {
    const std::size_t close = scan_block(i, t.offset);
    t.value_offset = i + 1;
    t.value = std::string(src_.substr(i + 1, close - i - 1));
    i = close + 1;
  }
  t.text = src_.substr(pos_, i - pos_);
  pos_ = i;
  return t;
}

// Finds the '}' closing the protobuf text block opened at `open`, skipping strings and comments
// of the text format.
std::size_t Lexer::scan_block(std::size_t open, std::size_t start) const {
  int depth = 0;
  std::size_t i = open;
  while (i < src_.size()) {
    const char c = src_[i];
    if (c == '"' || c == '\'') {
      std::size_t j = i + 1;
      while (j < src_.size() && src_[j] != c && src_[j] != '\n') j += src_[j] == '\\' ? 2 : 1;
      if (j >= src_.size() || src_[j] != c)
        fail(i, "text.unterminated-string", "string in protobuf text is not closed on its line");
      i = j + 1;
      continue;
    }
    if (c == '#') {
      const auto nl = src_.find('\n', i);
      i = nl == std::string_view::npos ? src_.size() : nl;
      continue;
    }
    if (c == '{') ++depth;
    if (c == '}' && --depth == 0) return i;
    ++i;
  }
  fail(start, "text.unterminated-annotation",
       "protobuf text block is not closed: expected '}' before the end of input");
}

std::string describe(const Token& t) {
  switch (t.kind) {
    case Tok::end:
      return "end of input";
    case Tok::string:
      return "\"" + shorten(t.value) + "\"";
    case Tok::annotation:
      return "'%" + t.name + "{'";
    default:
      return "'" + shorten(t.text) + "'";
  }
}

}  // namespace onnxtool::text
