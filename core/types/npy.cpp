// SPDX-License-Identifier: Apache-2.0
#include "core/types/npy.h"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "core/diag/error.h"
#include "core/util/atomic_file.h"
#include "core/util/mapped_file.h"

namespace onnxtool {

namespace {

constexpr std::string_view kMagic = "\x93NUMPY";
// numpy pads the header so the data starts 64-byte aligned, which lets us map it in place.
constexpr std::size_t kAlign = 64;
// numpy.save leaves room in the header to grow the first dim in place; we do the same so our
// files are byte-identical to numpy's.
constexpr std::size_t kGrowthDigits = 21;
// A '<U0'/'|S0' array takes no bytes whatever its shape, so its size is not bounded by the file.
constexpr int64_t kMaxEmptyStrings = int64_t{1} << 24;

constexpr std::string_view kExpectedHeader =
    "expected a python dict literal like {'descr': '<f4', 'fortran_order': False, 'shape': (2, "
    "3)}";

// Where errors are reported.
struct Where {
  const std::string& file;
  const std::string& location;
  [[noreturn]] void fail(const char* rule, const std::string& message) const {
    throw_invalid(rule, file, location, message);
  }
};

std::string hex_byte(unsigned char c) {
  static constexpr char kDigits[] = "0123456789abcdef";
  return std::string("\\x") + kDigits[c >> 4] + kDigits[c & 15];
}

// Header text quoted for a message: printable ASCII as is, everything else escaped, cut short.
std::string py_str(std::string_view s, std::size_t max_chars = 60) {
  std::string out = "'";
  for (std::size_t i = 0; i < s.size() && i < max_chars; ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x7f && c != '\'' && c != '\\')
      out += static_cast<char>(c);
    else
      out += hex_byte(c);
  }
  if (s.size() > max_chars) out += "...";
  return out + "'";
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

bool is_scalar_value(char32_t cp) {
  return cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
}

// Decodes the UTF-8 scalar value at s[i] and advances i; nullopt (i unchanged) when the bytes
// there are not well-formed UTF-8 (overlong forms, surrogates and values past U+10FFFF included).
std::optional<char32_t> next_code_point(std::string_view s, std::size_t& i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
  const unsigned char lead = byte(i);
  if (lead < 0x80) return static_cast<char32_t>(s[i++]);
  std::size_t len = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // allowed range of the second byte
  if (lead >= 0xC2 && lead <= 0xDF) {
    len = 2;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    len = 3;
    if (lead == 0xE0) lo = 0xA0;  // no overlong forms
    if (lead == 0xED) hi = 0x9F;  // no surrogates
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    len = 4;
    if (lead == 0xF0) lo = 0x90;
    if (lead == 0xF4) hi = 0x8F;  // nothing past U+10FFFF
  } else {
    return std::nullopt;
  }
  if (s.size() - i < len) return std::nullopt;
  char32_t cp = lead & (0xFF >> (len + 1));
  for (std::size_t k = 1; k < len; ++k) {
    const unsigned char c = byte(i + k);
    if (c < (k == 1 ? lo : 0x80) || c > (k == 1 ? hi : 0xBF)) return std::nullopt;
    cp = (cp << 6) | (c & 0x3F);
  }
  i += len;
  return cp;
}

uint64_t read_le(std::string_view s, std::size_t offset, std::size_t n) {
  uint64_t v = 0;
  for (std::size_t k = 0; k < n; ++k)
    v |= uint64_t{static_cast<unsigned char>(s[offset + k])} << (8 * k);
  return v;
}

// ---- the header: a python literal ----------------------------------------------------------

struct PyValue {
  enum class Kind { none, boolean, integer, string, tuple, list, dict };
  Kind kind = Kind::none;
  bool flag = false;           // boolean
  int64_t number = 0;          // integer, valid unless overflow
  bool overflow = false;       // integer literal beyond int64
  std::string text;            // string; the digits of an integer
  std::vector<PyValue> items;  // tuple and list elements; dict: key, value, key, value, ...
};

// Python's repr of v, cut short at about max_chars (garbage headers can be huge).
void repr_into(const PyValue& v, std::string& out, std::size_t max_chars) {
  if (out.size() > max_chars) return;
  using K = PyValue::Kind;
  switch (v.kind) {
    case K::none:
      out += "None";
      return;
    case K::boolean:
      out += v.flag ? "True" : "False";
      return;
    case K::integer:
      out += v.text;
      return;
    case K::string:
      out += py_str(v.text, max_chars);
      return;
    default:
      break;
  }
  const bool is_dict = v.kind == K::dict;
  out += is_dict ? '{' : v.kind == K::list ? '[' : '(';
  for (std::size_t i = 0; i < v.items.size() && out.size() <= max_chars; ++i) {
    if (i) out += is_dict && i % 2 ? ": " : ", ";
    repr_into(v.items[i], out, max_chars);
  }
  if (v.kind == K::tuple && v.items.size() == 1) out += ',';
  out += is_dict ? '}' : v.kind == K::list ? ']' : ')';
}

std::string repr(const PyValue& v, std::size_t max_chars = 80) {
  std::string out;
  repr_into(v, out, max_chars);
  if (out.size() > max_chars) out = out.substr(0, max_chars) + "...";
  return out;
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_alpha(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
// (std::strchr would also match the terminating NUL.)
bool is_one_of(char c, std::string_view set) {
  return set.find(c) != std::string_view::npos;
}

// A recursive-descent parser for the python literals numpy writes (and a little more: both
// quote styles, u/b string prefixes, Python 2 long suffixes, any whitespace, trailing commas).
// It never evaluates anything, bounds its nesting, and reports what it expected.
class PyLiteralParser {
 public:
  PyLiteralParser(std::string_view text, const Where& where) : s_(text), where_(where) {}

  PyValue parse_document() {
    PyValue v = value(0);
    skip_space();
    if (pos_ != s_.size()) error("unexpected text after the dict");
    return v;
  }

 private:
  static constexpr int kMaxDepth = 32;

  [[noreturn]] void error(const std::string& what) const {
    where_.fail("npy.bad-header", "npy header: " + what + " at character " + std::to_string(pos_) +
                                      "; " + std::string(kExpectedHeader));
  }

  bool at(char c) const { return pos_ < s_.size() && s_[pos_] == c; }

  void skip_space() {
    while (pos_ < s_.size() && is_one_of(s_[pos_], " \t\n\r\f\v")) ++pos_;
  }

  void expect(char c) {
    skip_space();
    if (!at(c)) error(std::string("expected '") + c + "'");
    ++pos_;
  }

  PyValue value(int depth) {
    if (depth > kMaxDepth) error("values nested deeper than " + std::to_string(kMaxDepth));
    skip_space();
    if (pos_ >= s_.size()) error("the text ends where a value should be");
    const char c = s_[pos_];
    if (c == '{') return container('}', PyValue::Kind::dict, depth);
    if (c == '[') return container(']', PyValue::Kind::list, depth);
    if (c == '(') return container(')', PyValue::Kind::tuple, depth);
    if (c == '\'' || c == '"') return string_literal();
    if (c == '-' || c == '+' || is_digit(c)) return integer();
    if (is_alpha(c)) return word();
    error("unexpected " + py_str(s_.substr(pos_, 1)));
  }

  PyValue container(char close, PyValue::Kind kind, int depth) {
    ++pos_;  // the opening bracket
    PyValue v;
    v.kind = kind;
    bool after_comma = true, any_comma = false;
    for (;;) {
      skip_space();
      if (at(close)) break;
      if (!after_comma) error(std::string("expected ',' or '") + close + "'");
      v.items.push_back(value(depth + 1));
      if (kind == PyValue::Kind::dict) {
        expect(':');
        v.items.push_back(value(depth + 1));
      }
      skip_space();
      after_comma = at(',');
      if (after_comma) ++pos_;
      any_comma = any_comma || after_comma;
    }
    ++pos_;  // the closing bracket
    // In python "(3)" is a parenthesised 3, not a tuple.
    if (kind == PyValue::Kind::tuple && v.items.size() == 1 && !any_comma)
      return std::move(v.items.front());
    return v;
  }

  PyValue integer() {
    PyValue v;
    v.kind = PyValue::Kind::integer;
    const bool negative = s_[pos_] == '-';
    if (s_[pos_] == '-' || s_[pos_] == '+') ++pos_;
    if (pos_ >= s_.size() || !is_digit(s_[pos_])) error("expected digits");
    uint64_t magnitude = 0;
    const uint64_t limit = std::numeric_limits<int64_t>::max();
    if (negative) v.text = "-";
    while (pos_ < s_.size() && is_digit(s_[pos_])) {
      const auto digit = static_cast<uint64_t>(s_[pos_] - '0');
      if (magnitude > (limit - digit) / 10) v.overflow = true;
      if (!v.overflow) magnitude = magnitude * 10 + digit;
      if (v.text.size() < 40) v.text += s_[pos_];
      ++pos_;
    }
    if (at('L') || at('l')) ++pos_;  // Python 2 long, as old numpy wrote shapes
    v.number = negative ? -static_cast<int64_t>(magnitude) : static_cast<int64_t>(magnitude);
    return v;
  }

  PyValue word() {
    const std::size_t start = pos_;
    while (pos_ < s_.size() && (is_alpha(s_[pos_]) || is_digit(s_[pos_]))) ++pos_;
    const std::string_view w = s_.substr(start, pos_ - start);
    PyValue v;
    if (w == "True" || w == "False") {
      v.kind = PyValue::Kind::boolean;
      v.flag = w == "True";
      return v;
    }
    if (w == "None") return v;
    const bool prefix = w == "u" || w == "U" || w == "b" || w == "B";
    if (prefix && (at('\'') || at('"'))) return string_literal();
    pos_ = start;
    error("unexpected name " + py_str(w) + " (only True, False and None are literals)");
  }

  PyValue string_literal() {
    const char quote = s_[pos_++];
    PyValue v;
    v.kind = PyValue::Kind::string;
    for (;;) {
      if (pos_ >= s_.size() || s_[pos_] == '\n') error("string literal is not closed");
      const char c = s_[pos_++];
      if (c == quote) return v;
      if (c == '\\')
        escape(v.text);
      else
        v.text += c;
    }
  }

  void escape(std::string& out) {
    if (pos_ >= s_.size()) error("string literal is not closed");
    const char c = s_[pos_++];
    static constexpr std::string_view kFrom = "\\'\"ntr0";
    static constexpr std::string_view kTo("\\'\"\n\t\r\0", 7);
    if (const std::size_t k = kFrom.find(c); k != std::string_view::npos) {
      out += kTo[k];
    } else if (c == 'x' || c == 'u' || c == 'U') {
      append_utf8(out, hex_escape(c == 'x' ? 2 : c == 'u' ? 4 : 8));
    } else {  // python keeps unknown escapes as written
      out += '\\';
      out += c;
    }
  }

  char32_t hex_escape(std::size_t digits) {
    char32_t cp = 0;
    for (std::size_t k = 0; k < digits; ++k, ++pos_) {
      if (pos_ >= s_.size() || !std::isxdigit(static_cast<unsigned char>(s_[pos_])))
        error("expected " + std::to_string(digits) + " hex digits in an escape");
      const char c = s_[pos_];
      cp = cp * 16 + static_cast<char32_t>(is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    if (!is_scalar_value(cp)) error("escape names no unicode character");
    return cp;
  }

  std::string_view s_;
  const Where& where_;
  std::size_t pos_ = 0;
};

// ---- the preamble: magic, version, header length ---------------------------------------------

struct Preamble {
  int major = 0;
  std::string_view header;  // the dict and its padding
  std::size_t data_offset = 0;
};

Preamble read_preamble(std::string_view bytes, const Where& where) {
  const std::size_t have = std::min(bytes.size(), kMagic.size());
  if (bytes.substr(0, have) != kMagic.substr(0, have))
    where.fail("npy.bad-magic", "npy: does not start with the .npy magic \\x93NUMPY, found " +
                                    py_str(bytes.substr(0, 8)) +
                                    "; expected a file written by numpy.save");
  if (bytes.size() < kMagic.size() + 2)
    where.fail("npy.truncated", "npy: the file ends after " + std::to_string(bytes.size()) +
                                    " bytes, inside the preamble (magic and version)");
  Preamble p;
  p.major = static_cast<unsigned char>(bytes[6]);
  const int minor = static_cast<unsigned char>(bytes[7]);
  if (p.major < 1 || p.major > 3 || minor != 0)
    where.fail("npy.unsupported-version",
               "npy: format version " + std::to_string(p.major) + "." + std::to_string(minor) +
                   " is not supported; onnxtool reads versions 1.0, 2.0 and 3.0");
  const std::size_t len_bytes = p.major == 1 ? 2 : 4;
  const std::size_t start = kMagic.size() + 2 + len_bytes;
  if (bytes.size() < start)
    where.fail("npy.truncated", "npy: the file ends after " + std::to_string(bytes.size()) +
                                    " bytes, inside the header length");
  const uint64_t header_len = read_le(bytes, kMagic.size() + 2, len_bytes);
  if (header_len > bytes.size() - start)
    where.fail("npy.truncated", "npy header: declares " + std::to_string(header_len) +
                                    " bytes but only " + std::to_string(bytes.size() - start) +
                                    " follow the preamble");
  p.header = bytes.substr(start, static_cast<std::size_t>(header_len));
  p.data_offset = start + static_cast<std::size_t>(header_len);
  return p;
}

// ---- the dict: descr, fortran_order, shape ----------------------------------------------------

struct NpyHeader {
  PyValue descr;
  bool fortran_order = false;
  Shape shape;
};

Shape to_shape(const PyValue& v, const Where& where) {
  const auto not_shape = [&] {
    where.fail("npy.bad-header", "npy header: 'shape' is " + repr(v) +
                                     ", expected a tuple of non-negative integers like (2, 3)");
  };
  if (v.kind != PyValue::Kind::tuple && v.kind != PyValue::Kind::list) not_shape();
  Shape shape;
  for (const PyValue& d : v.items) {
    if (d.kind != PyValue::Kind::integer) not_shape();
    if (d.overflow)
      where.fail("npy.bad-shape", "npy header: shape dim " + d.text + " does not fit in 64 bits");
    if (d.number < 0)
      where.fail("npy.bad-shape", "npy header: shape " + repr(v) + " has a negative dim");
    shape.push_back(d.number);
  }
  if (!element_count(shape))
    where.fail("npy.bad-shape",
               "npy header: shape " + repr(v) + " has more elements than fit in 64 bits");
  return shape;
}

bool to_fortran_order(const PyValue& v, const Where& where) {
  if (v.kind != PyValue::Kind::boolean)
    where.fail("npy.bad-header",
               "npy header: 'fortran_order' is " + repr(v) + ", expected True or False");
  return v.flag;
}

NpyHeader interpret_header(const PyValue& dict, const Where& where) {
  if (dict.kind != PyValue::Kind::dict)
    where.fail("npy.bad-header",
               "npy header: is " + repr(dict) + "; " + std::string(kExpectedHeader));
  static constexpr std::array<std::string_view, 3> kKeys = {"descr", "fortran_order", "shape"};
  std::array<bool, 3> seen = {};
  NpyHeader h;
  for (std::size_t i = 0; i + 1 < dict.items.size(); i += 2) {
    const PyValue& key = dict.items[i];
    const PyValue& value = dict.items[i + 1];
    const auto k =
        static_cast<std::size_t>(std::find(kKeys.begin(), kKeys.end(), key.text) - kKeys.begin());
    if (key.kind != PyValue::Kind::string || k == kKeys.size())
      where.fail("npy.bad-header", "npy header: unexpected key " + repr(key) +
                                       "; expected only 'descr', 'fortran_order' and 'shape'");
    if (seen[k]) where.fail("npy.bad-header", "npy header: key " + repr(key) + " appears twice");
    seen[k] = true;
    if (k == 0) h.descr = value;
    if (k == 1) h.fortran_order = to_fortran_order(value, where);
    if (k == 2) h.shape = to_shape(value, where);
  }
  for (std::size_t k = 0; k < kKeys.size(); ++k)
    if (!seen[k])
      where.fail("npy.bad-header", "npy header: the key '" + std::string(kKeys[k]) +
                                       "' is missing; " + std::string(kExpectedHeader));
  return h;
}

// ---- descr: the element type ------------------------------------------------------------------

struct NpyType {
  DataType type = DataType::undefined;
  std::size_t itemsize = 0;   // bytes per element in the file
  std::size_t swap_unit = 0;  // nonzero: the file is big-endian in units of this many bytes
  enum class Text { none, utf32, bytes } text = Text::none;
};

struct NumpyCode {
  DataType type;
  char kind;
  std::size_t size;
};

constexpr std::array<NumpyCode, 14> kNumpyCodes = {{
    {DataType::boolean, 'b', 1},
    {DataType::int8, 'i', 1},
    {DataType::uint8, 'u', 1},
    {DataType::int16, 'i', 2},
    {DataType::uint16, 'u', 2},
    {DataType::int32, 'i', 4},
    {DataType::uint32, 'u', 4},
    {DataType::int64, 'i', 8},
    {DataType::uint64, 'u', 8},
    {DataType::float16, 'f', 2},
    {DataType::float32, 'f', 4},
    {DataType::float64, 'f', 8},
    {DataType::complex64, 'c', 8},
    {DataType::complex128, 'c', 16},
}};

// ONNX types numpy lacks: a one-field structured dtype named after the type, holding `storage`.
struct FieldCode {
  DataType type;
  DataType storage;
};

constexpr std::array<FieldCode, 11> kFieldCodes = {{
    {DataType::bfloat16, DataType::uint16},
    {DataType::float8e4m3fn, DataType::uint8},
    {DataType::float8e4m3fnuz, DataType::uint8},
    {DataType::float8e5m2, DataType::uint8},
    {DataType::float8e5m2fnuz, DataType::uint8},
    {DataType::float8e8m0, DataType::uint8},
    {DataType::float4e2m1, DataType::uint8},
    {DataType::int4, DataType::int8},
    {DataType::uint4, DataType::uint8},
    {DataType::int2, DataType::int8},
    {DataType::uint2, DataType::uint8},
}};

const NumpyCode* numpy_code(DataType t) {
  for (const auto& c : kNumpyCodes)
    if (c.type == t) return &c;
  return nullptr;
}

const FieldCode* field_code(DataType t) {
  for (const auto& c : kFieldCodes)
    if (c.type == t) return &c;
  return nullptr;
}

// numpy's dtype.str for a type it has: '<f4', '|u1', ...
std::string numpy_str(const NumpyCode& c) {
  return std::string(1, c.size == 1 ? '|' : '<') + c.kind + std::to_string(c.size);
}

[[noreturn]] void unsupported(const std::string& descr, const std::string& why,
                              const Where& where) {
  where.fail("npy.unsupported-dtype", "npy header: descr " + descr + " " + why);
}

// numpy kinds with no ONNX type, each refused with what to do instead.
void reject_kind(char kind, const std::string& shown, const Where& where) {
  if (kind == 'O')
    where.fail("npy.object-dtype",
               "npy header: descr " + shown +
                   " is an object array (pickled python objects), which onnxtool never "
                   "unpickles; save numeric or string arrays instead");
  if (kind == 'M' || kind == 'm')
    unsupported(shown,
                "is a datetime64/timedelta64 array, which has no ONNX type; convert it to int64 "
                "first",
                where);
  if (kind == 'V')
    unsupported(shown,
                "is raw void data of unknown meaning (numpy writes ml_dtypes types this way); "
                "store the bit patterns in a one-field dtype such as [('bfloat16', '<u2')] "
                "instead",
                where);
}

// A dtype string such as '<f4', '>U10', '|S3' or '|b1'.
NpyType simple_type(const std::string& s, const Where& where) {
  const std::string shown = py_str(s);
  std::string_view d = s;
  char order = '=';  // native: little-endian, as onnxtool only runs there
  if (!d.empty() && is_one_of(d.front(), "<>|=")) {
    order = d.front();
    d.remove_prefix(1);
  }
  const char kind = d.empty() ? '\0' : d.front();
  reject_kind(kind, shown, where);
  const std::string_view digits = d.empty() ? d : d.substr(1);
  if (digits.empty() || digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), is_digit))
    unsupported(shown, "is not a numpy dtype onnxtool reads; expected e.g. '<f4', '|b1', '<U8'",
                where);
  const std::size_t size = std::stoul(std::string(digits));
  NpyType t;
  if (is_one_of(kind, "USa")) {  // 'a' is numpy's old name for 'S'
    t.type = DataType::string;
    t.text = kind == 'U' ? NpyType::Text::utf32 : NpyType::Text::bytes;
    t.itemsize = kind == 'U' ? size * 4 : size;
    t.swap_unit = kind == 'U' && order == '>' ? 4 : 0;
    return t;
  }
  for (const auto& c : kNumpyCodes) {
    if (c.kind != kind || c.size != size) continue;
    t.type = c.type;
    t.itemsize = size;
    const std::size_t unit = kind == 'c' ? size / 2 : size;  // complex: two floats
    t.swap_unit = order == '>' && unit > 1 ? unit : 0;
    return t;
  }
  unsupported(shown,
              "has no ONNX type; onnxtool reads b1, i1-i8, u1-u8, f2, f4, f8, c8, c16, U and S",
              where);
}

// [('bfloat16', '<u2')] and the like.
NpyType structured_type(const PyValue& descr, const Where& where) {
  const std::string shown = repr(descr);
  const std::string expected =
      "; onnxtool reads only one field named after an ONNX type numpy lacks, e.g. "
      "[('bfloat16', '<u2')] or [('int4', '|i1')]";
  if (descr.items.size() != 1)
    unsupported(
        shown,
        "is a structured dtype with " + std::to_string(descr.items.size()) + " fields" + expected,
        where);
  const PyValue& field = descr.items.front();
  const bool pair = field.kind == PyValue::Kind::tuple && field.items.size() == 2 &&
                    field.items[0].kind == PyValue::Kind::string &&
                    field.items[1].kind == PyValue::Kind::string;
  if (!pair) unsupported(shown, "has a field that is not a (name, type) pair" + expected, where);
  const FieldCode* code = nullptr;
  for (const auto& c : kFieldCodes)
    if (type_name(c.type) == field.items[0].text) code = &c;
  if (!code) unsupported(shown, "is a structured dtype" + expected, where);
  NpyType t = simple_type(field.items[1].text, where);
  if (t.type != code->storage)
    unsupported(shown,
                "holds " + py_str(field.items[1].text) + " in field '" + field.items[0].text +
                    "', expected " + py_str(numpy_str(*numpy_code(code->storage))),
                where);
  t.type = code->type;
  return t;
}

NpyType descr_type(const PyValue& descr, const Where& where) {
  if (descr.kind == PyValue::Kind::string) return simple_type(descr.text, where);
  if (descr.kind == PyValue::Kind::list) return structured_type(descr, where);
  where.fail("npy.bad-header", "npy header: 'descr' is " + repr(descr) +
                                   ", expected a dtype string like '<f4' or a list of fields");
}

// ---- the elements -----------------------------------------------------------------------------

// The values the types kept one element per byte may take (other types: every byte).
struct NarrowRange {
  DataType type;
  int lo, hi;
};

constexpr std::array<NarrowRange, 5> kNarrowRanges = {{
    {DataType::int4, -8, 7},
    {DataType::uint4, 0, 15},
    {DataType::float4e2m1, 0, 15},
    {DataType::int2, -2, 1},
    {DataType::uint2, 0, 3},
}};

void check_value_range(std::string_view data, DataType t, const Where& where) {
  const auto range = std::find_if(kNarrowRanges.begin(), kNarrowRanges.end(),
                                  [t](const NarrowRange& r) { return r.type == t; });
  if (range == kNarrowRanges.end()) return;
  for (std::size_t i = 0; i < data.size(); ++i) {
    const auto byte = static_cast<unsigned char>(data[i]);
    const int v = range->lo < 0 ? static_cast<int>(static_cast<int8_t>(byte)) : int{byte};
    if (v < range->lo || v > range->hi)
      where.fail("npy.value-out-of-range",
                 "npy data: element " + std::to_string(i) + " of a " + std::string(type_name(t)) +
                     " array is " + std::to_string(v) + ", expected " + std::to_string(range->lo) +
                     ".." + std::to_string(range->hi));
  }
}

std::size_t alignment_of(DataType t) {
  return visit_type(t, [](auto tag) { return alignof(decltype(tag)); });
}

char32_t code_unit(std::string_view elem, std::size_t i, bool big_endian) {
  char32_t cp = 0;
  for (std::size_t k = 0; k < 4; ++k) {
    const auto byte = static_cast<unsigned char>(elem[i * 4 + (big_endian ? k : 3 - k)]);
    cp = (cp << 8) | byte;
  }
  return cp;
}

std::string code_point_name(char32_t cp) {
  static constexpr char kDigits[] = "0123456789ABCDEF";
  std::string hex;
  for (; cp || hex.size() < 4; cp >>= 4) hex.insert(hex.begin(), kDigits[cp & 15]);
  return "U+" + hex;
}

// numpy pads strings with NULs; trailing NULs are padding, not part of the value.
std::string utf32_to_utf8(std::string_view elem, bool big_endian, int64_t index,
                          const Where& where) {
  std::size_t n = elem.size() / 4;
  while (n > 0 && code_unit(elem, n - 1, big_endian) == 0) --n;
  std::string out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) {
    const char32_t cp = code_unit(elem, i, big_endian);
    if (!is_scalar_value(cp))
      where.fail("npy.bad-string", "npy data: string element " + std::to_string(index) + " holds " +
                                       code_point_name(cp) +
                                       ", which is not a unicode scalar value");
    append_utf8(out, cp);
  }
  return out;
}

Tensor decode_strings(std::string_view data, const NpyType& ty, Shape shape, int64_t numel,
                      const Where& where) {
  if (ty.itemsize == 0 && numel > kMaxEmptyStrings)
    where.fail("npy.too-large", "npy header: an array of " + std::to_string(numel) +
                                    " empty strings is more than onnxtool holds");
  std::vector<std::string> values(static_cast<std::size_t>(numel));
  for (std::size_t i = 0; i < values.size(); ++i) {
    const std::string_view elem = data.substr(i * ty.itemsize, ty.itemsize);
    if (ty.text == NpyType::Text::utf32) {
      values[i] = utf32_to_utf8(elem, ty.swap_unit != 0, static_cast<int64_t>(i), where);
    } else {
      const std::size_t end = elem.find_last_not_of('\0');
      values[i] = std::string(elem.substr(0, end == std::string_view::npos ? 0 : end + 1));
    }
  }
  return Tensor::from_strings(std::move(shape), std::move(values));
}

// Copies the elements into fresh storage, converting to the in-memory form.
Tensor copy_numeric(std::string_view data, const NpyType& ty, Shape shape) {
  Tensor t(ty.type, std::move(shape));
  if (data.empty()) return t;
  auto* out = reinterpret_cast<unsigned char*>(t.mutable_raw());
  std::memcpy(out, data.data(), data.size());
  if (ty.swap_unit > 1)
    for (std::size_t i = 0; i < data.size(); i += ty.swap_unit)
      std::reverse(out + i, out + i + ty.swap_unit);
  if (ty.type == DataType::boolean)  // numpy reads any nonzero byte as True; we keep 0/1
    for (std::size_t i = 0; i < data.size(); ++i) out[i] = out[i] != 0;
  return t;
}

Tensor decode_numeric(std::string_view data, const NpyType& ty, Shape shape,
                      std::shared_ptr<const void> owner, const Where& where) {
  check_value_range(data, ty.type, where);
  const bool aligned = reinterpret_cast<uintptr_t>(data.data()) % alignment_of(ty.type) == 0;
  const bool canonical =
      ty.type != DataType::boolean ||
      std::all_of(data.begin(), data.end(), [](char c) { return c == 0 || c == 1; });
  if (!owner || ty.swap_unit || !aligned || !canonical || data.empty())
    return copy_numeric(data, ty, std::move(shape));
  return Tensor::wrap(ty.type, std::move(shape),
                      Storage::view(data.data(), data.size(), std::move(owner)));
}

std::string size_text(const Shape& shape, const PyValue& descr) {
  return "shape " + shape_to_string(shape) + " of " + repr(descr);
}

Tensor decode_elements(std::string_view data, const NpyHeader& h, const NpyType& ty,
                       std::shared_ptr<const void> owner, const Where& where) {
  const int64_t numel = *element_count(h.shape);  // checked by to_shape
  const auto n = static_cast<uint64_t>(numel);
  if (ty.itemsize && n > std::numeric_limits<std::size_t>::max() / ty.itemsize)
    where.fail("npy.bad-shape", "npy header: " + size_text(h.shape, h.descr) +
                                    " takes more bytes than fit in memory");
  const std::size_t need = static_cast<std::size_t>(n) * ty.itemsize;
  if (data.size() < need)
    where.fail("npy.truncated", "npy data: " + size_text(h.shape, h.descr) + " takes " +
                                    std::to_string(need) + " bytes, but the file has only " +
                                    std::to_string(data.size()));
  if (data.size() > need)
    where.fail("npy.trailing-data", "npy data: " + std::to_string(data.size() - need) +
                                        " bytes follow the " + std::to_string(need) +
                                        " bytes that " + size_text(h.shape, h.descr) +
                                        " takes; expected the file to end there");
  if (ty.type == DataType::string) return decode_strings(data, ty, h.shape, numel, where);
  return decode_numeric(data, ty, h.shape, std::move(owner), where);
}

// Fortran order only changes the layout when two or more dims have more than one element.
bool layout_is_c_order(const Shape& shape) {
  if (*element_count(shape) == 0) return true;
  return std::count_if(shape.begin(), shape.end(), [](int64_t d) { return d > 1; }) <= 1;
}

// ---- writing ----------------------------------------------------------------------------------

std::string shape_repr(const Shape& shape) {
  std::string s = "(";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    if (i) s += ", ";
    s += std::to_string(shape[i]);
  }
  return s + (shape.size() == 1 ? ",)" : ")");
}

std::string descr_repr(DataType t, std::size_t chars) {
  if (t == DataType::string) return "'<U" + std::to_string(chars) + "'";
  if (const NumpyCode* c = numpy_code(t)) return "'" + numpy_str(*c) + "'";
  if (const FieldCode* f = field_code(t))
    return "[('" + std::string(type_name(t)) + "', '" + numpy_str(*numpy_code(f->storage)) + "')]";
  throw_invalid("npy.unsupported-dtype", "", "",
                "cannot write a tensor of type " + std::string(type_name(t)) + " as .npy");
}

// Magic, version, length and the dict padded with spaces and a newline to a multiple of 64
// bytes, choosing the version as numpy does: 1.0 when the length fits 16 bits, else 2.0; 3.0
// when the dict is not ASCII.
std::string wrap_header(const std::string& dict) {
  const bool ascii = std::all_of(dict.begin(), dict.end(),
                                 [](char c) { return static_cast<unsigned char>(c) < 0x80; });
  for (int major = ascii ? 1 : 3; major <= 3; ++major) {
    const std::size_t len_bytes = major == 1 ? 2 : 4;
    const std::size_t hlen = dict.size() + 1;  // the newline
    const std::size_t pad = kAlign - (kMagic.size() + 2 + len_bytes + hlen) % kAlign;
    const uint64_t total = hlen + pad;
    if (major == 1 && total > 0xFFFF) continue;
    if (total > 0xFFFFFFFF)
      throw_invalid("npy.too-large", "", "", "npy header: the dict is too long for any version");
    std::string out(kMagic);
    out += static_cast<char>(major);
    out += '\0';
    for (std::size_t k = 0; k < len_bytes; ++k) out += static_cast<char>((total >> (8 * k)) & 0xFF);
    out += dict;
    out.append(pad, ' ');
    return out + '\n';
  }
  throw_internal("npy header version selection");
}

std::string header_for(const Tensor& t, std::size_t chars) {
  std::string dict = "{'descr': " + descr_repr(t.dtype(), chars) +
                     ", 'fortran_order': False, 'shape': " + shape_repr(t.shape()) + ", }";
  if (!t.shape().empty()) {
    const std::size_t digits = std::to_string(t.shape().front()).size();
    if (digits < kGrowthDigits) dict.append(kGrowthDigits - digits, ' ');
  }
  return wrap_header(dict);
}

// Code points in s, or throws naming the element and the bad byte.
std::size_t count_code_points(std::string_view s, std::size_t index, const Where& where) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < s.size(); ++n) {
    if (!next_code_point(s, i))
      where.fail("npy.bad-utf8", "npy: string element " + std::to_string(index) +
                                     " is not valid UTF-8 (byte " +
                                     hex_byte(static_cast<unsigned char>(s[i])) + " at offset " +
                                     std::to_string(i) + "); '<U' arrays hold unicode text");
  }
  return n;
}

// '<U{chars}' elements: UTF-32LE, padded with NULs.
std::string encode_strings(const std::vector<std::string>& values, std::size_t chars) {
  std::string out(values.size() * chars * 4, '\0');
  for (std::size_t e = 0; e < values.size(); ++e) {
    char* elem = out.data() + e * chars * 4;
    std::size_t i = 0;
    for (std::size_t k = 0; i < values[e].size(); ++k) {
      const char32_t cp = *next_code_point(values[e], i);  // validated by count_code_points
      for (std::size_t b = 0; b < 4; ++b)
        elem[k * 4 + b] = static_cast<char>((cp >> (8 * b)) & 0xFF);
    }
  }
  return out;
}

}  // namespace

Tensor decode_npy(std::string_view bytes, std::shared_ptr<const void> owner,
                  const std::string& file, const std::string& location) {
  const Where where{file, location};
  const Preamble p = read_preamble(bytes, where);
  const NpyHeader h = interpret_header(PyLiteralParser(p.header, where).parse_document(), where);
  const NpyType ty = descr_type(h.descr, where);
  if (h.fortran_order && !layout_is_c_order(h.shape))
    where.fail("npy.fortran-order",
               "npy header: fortran_order is True; onnxtool reads only C-order arrays (save "
               "with np.ascontiguousarray)");
  return decode_elements(bytes.substr(p.data_offset), h, ty, std::move(owner), where);
}

NpyParts encode_npy(const Tensor& t, const std::string& file, const std::string& location) {
  const Where where{file, location};
  if (!t.defined()) where.fail("npy.unsupported-dtype", "npy: cannot write an undefined tensor");
  NpyParts parts;
  if (t.dtype() != DataType::string) {
    parts.header = header_for(t, 0);
    parts.borrowed = std::string_view(reinterpret_cast<const char*>(t.raw()), t.nbytes());
    return parts;
  }
  const auto& values = t.strings();
  std::size_t chars = 1;  // numpy's smallest string dtype is '<U1'
  for (std::size_t i = 0; i < values.size(); ++i)
    chars = std::max(chars, count_code_points(values[i], i, where));
  if (values.size() > std::numeric_limits<std::size_t>::max() / 4 / chars)
    where.fail("npy.too-large", "npy: the strings take more bytes than fit in memory");
  parts.header = header_for(t, chars);
  parts.converted = encode_strings(values, chars);
  parts.uses_converted = true;
  return parts;
}

Tensor parse_npy(std::string_view bytes, const std::string& name_for_errors) {
  return decode_npy(bytes, nullptr, name_for_errors, "");
}

Tensor read_npy(const std::filesystem::path& path) {
  auto file = MappedFile::open(path);
  const std::string_view bytes = file->view();
  return decode_npy(bytes, std::move(file), path.string(), "");
}

std::string serialize_npy(const Tensor& t) {
  const NpyParts parts = encode_npy(t);
  std::string out = parts.header;
  out += parts.payload();
  return out;
}

void write_npy(const std::filesystem::path& path, const Tensor& t) {
  const NpyParts parts = encode_npy(t, path.string());
  AtomicFile f(path);
  f.write(parts.header);
  f.write(parts.payload());
  f.commit();
}

}  // namespace onnxtool
