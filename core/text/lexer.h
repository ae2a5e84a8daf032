// SPDX-License-Identifier: Apache-2.0
// Tokens of the ONNX textual syntax (Syntax.md) and of onnxtool's extensions to it.
//
// The lexer works on bytes: identifiers are ASCII, strings may hold any UTF-8 (raw bytes that
// are not valid UTF-8 are refused; they are written as \xHH). Every error is an onnxtool Error
// (rule "text.*") whose location is "line:column" of the offending character.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace onnxtool::text {

enum class Tok {
  end,         // end of input
  ident,       // [A-Za-z_][A-Za-z0-9_]*
  string,      // "..." (value holds the unescaped bytes)
  integer,     // -?[0-9]+
  real,        // -?[0-9]+ '.' [0-9]* exponent?  |  -?[0-9]+ exponent  |  -inf, -nan, -infinity
  hex,         // 0x[0-9a-fA-F]+ : a bit pattern (extension)
  punct,       // one of ( ) [ ] { } < > , : = . @ ?
  arrow,       // =>
  annotation,  // %{ ... } or %kind{ ... }: protobuf text format between the braces (value);
               // kind (name) is empty for an annotation, else a raw entity (type, tensor, ...)
  ext,         // %name: an extension keyword (name)
};

struct Token {
  Tok kind = Tok::end;
  std::size_t offset = 0;        // of the first character, for messages
  std::string_view text;         // the token as written
  std::string value;             // string: unescaped bytes; annotation: the inner text
  std::string name;              // ext: the keyword; annotation: the raw entity kind or ""
  std::size_t value_offset = 0;  // annotation: offset of the inner text
  char punct() const { return kind == Tok::punct ? text[0] : '\0'; }
  bool is(char c) const { return kind == Tok::punct && text[0] == c; }
  bool is_ident(std::string_view id) const { return kind == Tok::ident && text == id; }
  bool is_ext(std::string_view n) const { return kind == Tok::ext && name == n; }
  bool is_raw(std::string_view n) const { return kind == Tok::annotation && name == n; }
};

// 1-based line and column (columns count UTF-8 characters) of a byte offset.
struct Position {
  std::size_t line = 1, column = 1;
};
Position position_of(std::string_view source, std::size_t offset);

class Lexer {
 public:
  // A UTF-8 byte order mark at the start (some editors write one) is skipped.
  Lexer(std::string_view source, std::string file)
      : src_(source), file_(std::move(file)), pos_(source.starts_with("\xEF\xBB\xBF") ? 3 : 0) {}

  Token next();
  std::string_view source() const { return src_; }
  const std::string& file() const { return file_; }

  // Throws Error(invalid, rule, file, "line:col", message) for the byte at offset.
  [[noreturn]] void fail(std::size_t offset, const char* rule, const std::string& message) const;

 private:
  void skip_space_and_comments();
  Token lex_string();
  Token lex_number();
  Token lex_percent();
  std::size_t scan_block(std::size_t open, std::size_t start) const;

  std::string_view src_;
  std::string file_;
  std::size_t pos_;
};

// How a token is named in "found ..." messages: 'Relu', ')', "abc", end of input.
std::string describe(const Token& t);

// True when the bytes are valid UTF-8 (no overlongs, surrogates or code points past U+10FFFF).
bool valid_utf8(std::string_view s);

}  // namespace onnxtool::text
