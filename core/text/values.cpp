// SPDX-License-Identifier: Apache-2.0
#include "core/text/values.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <complex>
#include <cstring>
#include <limits>

#include "core/diag/error.h"
#include "core/text/syntax.h"
#include "core/types/float_formats.h"
#include "core/types/tensor_proto.h"
#include "onnx.pb.h"

namespace onnxtool::text {

namespace {

template <class F>
using Bits = std::conditional_t<sizeof(F) == 4, uint32_t, uint64_t>;

template <class F>
F canonical_nan(bool negative) {
  const F nan = std::numeric_limits<F>::quiet_NaN();
  return negative ? std::copysign(nan, F(-1)) : std::copysign(nan, F(1));
}

template <class F>
bool needs_hex(F v) {
  if (!std::isnan(v)) return false;
  return std::bit_cast<Bits<F>>(v) != std::bit_cast<Bits<F>>(canonical_nan<F>(std::signbit(v)));
}

void append_hex(std::string& out, uint64_t bits, int digits) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "0x";
  for (int i = digits - 1; i >= 0; --i) out += kHex[(bits >> (4 * i)) & 0xF];
}

// Shortest form that reads back to v, made to look like a floating-point literal.
template <class F>
void append_real(std::string& out, F v) {
  if (needs_hex(v)) {
    append_hex(out, std::bit_cast<Bits<F>>(v), sizeof(F) * 2);
    return;
  }
  if (std::isnan(v)) {
    out += std::signbit(v) ? "-nan" : "nan";
    return;
  }
  if (std::isinf(v)) {
    out += v < 0 ? "-inf" : "inf";
    return;
  }
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  const std::string_view s(buf, static_cast<std::size_t>(r.ptr - buf));
  out += s;
  if (s.find_first_of(".e") == std::string_view::npos) out += ".0";
}

[[noreturn]] void fail(const Lexer& lex, const Token& t, const char* rule, const std::string& m) {
  lex.fail(t.offset, rule, m);
}

// inf/nan words, with an optional '-' (the lexer makes "-inf" a real token, "inf" an ident).
template <class F>
std::optional<F> special_value(std::string_view text) {
  const bool negative = !text.empty() && text[0] == '-';
  const std::string word = ascii_lower(negative ? text.substr(1) : text);
  if (word == "inf" || word == "infinity")
    return negative ? -std::numeric_limits<F>::infinity() : std::numeric_limits<F>::infinity();
  if (word == "nan") return canonical_nan<F>(negative);
  return std::nullopt;
}

template <class F>
F parse_real(const Lexer& lex, const Token& t, const char* type_name) {
  if (t.kind == Tok::hex) {
    const uint64_t bits = parse_uint64(lex, t);
    if (bits > std::numeric_limits<Bits<F>>::max())
      fail(lex, t, "text.number-range",
           "bit pattern " + std::string(t.text.substr(0, 40)) + " is wider than " + type_name);
    return std::bit_cast<F>(static_cast<Bits<F>>(bits));
  }
  // Words (inf, -nan, ...) end in a letter; numbers never do.
  const char last = t.text.empty() ? '0' : t.text.back();
  if ((t.kind == Tok::ident || t.kind == Tok::real) &&
      ((last | 0x20) >= 'a' && (last | 0x20) <= 'z')) {
    if (auto s = special_value<F>(t.text)) return *s;
  }
  if (t.kind != Tok::integer && t.kind != Tok::real)
    fail(lex, t, "text.syntax",
         std::string("expected a ") + type_name + " value, found " + describe(t));
  F v{};
  const char* begin = t.text.data();
  const char* end = begin + t.text.size();
  const auto r = std::from_chars(begin, end, v);
  if (r.ec == std::errc::result_out_of_range) {
    // Too small to represent reads as zero, as strtod does; too large is an error.
    const auto e = t.text.find_first_of("eE");
    if (e != std::string_view::npos && e + 1 < t.text.size() && t.text[e + 1] == '-')
      return t.text[0] == '-' ? F(-0.0) : F(0.0);
    fail(lex, t, "text.number-range",
         "number " + std::string(t.text.substr(0, 40)) + " is out of range for " + type_name);
  }
  if (r.ec != std::errc() || r.ptr != end)
    fail(lex, t, "text.bad-number", "malformed number " + std::string(t.text.substr(0, 40)));
  return v;
}

template <class T>
T narrow_from_token(const Lexer& lex, const Token& t, uint64_t max_bits, const char* name) {
  if (t.kind == Tok::hex) {
    const uint64_t bits = parse_uint64(lex, t);
    if (bits > max_bits)
      fail(lex, t, "text.number-range",
           "bit pattern " + std::string(t.text.substr(0, 40)) + " is wider than " + name);
    return T{static_cast<decltype(T{}.bits)>(bits)};
  }
  return narrow_float<T>(parse_real<float>(lex, t, name));
}

template <class T>
void append_narrow(std::string& out, T v, int hex_digits) {
  const float f = to_float(v);
  std::string s;
  if (std::isnan(f))
    s = std::signbit(f) ? "-nan" : "nan";  // whatever float NaN the decoder chose
  else
    append_real(s, f);
  // Keep the decimal form only when it encodes back to the very same bits.
  float back = 0;
  bool ok = false;
  if (auto sv = special_value<float>(s)) {
    back = *sv;
    ok = true;
  } else if (s.rfind("0x", 0) != 0) {
    ok = std::from_chars(s.data(), s.data() + s.size(), back).ec == std::errc();
  }
  if (ok && narrow_float<T>(back).bits == v.bits) {
    out += s;
    return;
  }
  append_hex(out, v.bits, hex_digits);
}

template <class T>
void append_element(std::string& out, const T& v) {
  if constexpr (std::is_same_v<T, float>) {
    append_real(out, v);
  } else if constexpr (std::is_same_v<T, double>) {
    append_real(out, v);
  } else if constexpr (std::is_same_v<T, std::complex<float>> ||
                       std::is_same_v<T, std::complex<double>>) {
    append_real(out, v.real());
    out += ", ";
    append_real(out, v.imag());
  } else if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
    append_narrow(out, v, 4);
  } else if constexpr (std::is_same_v<T, Float4E2M1>) {
    append_narrow(out, v, 1);
  } else if constexpr (is_narrow_float_v<T>) {
    append_narrow(out, v, 2);
  } else if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, Int2> ||
                       std::is_same_v<T, UInt4> || std::is_same_v<T, UInt2>) {
    out += std::to_string(static_cast<int>(v.value));
  } else if constexpr (std::is_same_v<T, bool>) {
    out += v ? '1' : '0';
  } else if constexpr (std::is_same_v<T, std::string>) {
    throw_internal("append_element: string tensors are not printed here");
  } else {
    out += std::to_string(v);
  }
}

template <class I>
void set_integer(Tensor& t, int64_t i, const Lexer& lex, const Token& tok, const char* name) {
  if constexpr (std::is_same_v<I, uint64_t>) {
    t.mutable_data<uint64_t>()[i] = parse_uint64(lex, tok);
  } else {
    const auto v = parse_int_in(lex, tok, std::numeric_limits<I>::min(),
                                static_cast<int64_t>(std::numeric_limits<I>::max()), name);
    t.mutable_data<I>()[i] = static_cast<I>(v);
  }
}

template <class T>
void set_typed_element(Tensor& t, int64_t i, const Lexer& lex, const Token& tok) {
  const std::string_view type = type_name(t.dtype());
  char name[24] = {};  // for messages; a type name is at most 14 characters
  type.copy(name, sizeof name - 1);
  if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
    t.mutable_data<T>()[i] = parse_real<T>(lex, tok, name);
  } else if constexpr (std::is_same_v<T, std::complex<float>> ||
                       std::is_same_v<T, std::complex<double>>) {
    using F = typename T::value_type;
    t.mutable_data<F>()[i] = parse_real<F>(lex, tok, name);
  } else if constexpr (std::is_same_v<T, Float16> || std::is_same_v<T, BFloat16>) {
    t.mutable_data<T>()[i] = narrow_from_token<T>(lex, tok, 0xFFFF, name);
  } else if constexpr (std::is_same_v<T, Float4E2M1>) {
    t.mutable_data<T>()[i] = narrow_from_token<T>(lex, tok, 0xF, name);
  } else if constexpr (is_narrow_float_v<T>) {
    t.mutable_data<T>()[i] = narrow_from_token<T>(lex, tok, 0xFF, name);
  } else if constexpr (std::is_same_v<T, Int4> || std::is_same_v<T, Int2> ||
                       std::is_same_v<T, UInt4> || std::is_same_v<T, UInt2>) {
    const int bits = type_info(t.dtype()).bits;
    const bool is_signed = std::is_same_v<T, Int4> || std::is_same_v<T, Int2>;
    const int64_t lo = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
    const int64_t hi = is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
    t.mutable_data<int8_t>()[i] = static_cast<int8_t>(parse_int_in(lex, tok, lo, hi, name));
  } else if constexpr (std::is_same_v<T, bool>) {
    if (tok.is_ident("true") || tok.is_ident("false")) {
      t.mutable_data<uint8_t>()[i] = tok.text == "true" ? 1 : 0;
      return;
    }
    t.mutable_data<uint8_t>()[i] = static_cast<uint8_t>(parse_int_in(lex, tok, 0, 1, "bool"));
  } else if constexpr (std::is_same_v<T, std::string>) {
    throw_internal("set_element: string tensors are not parsed here");
  } else {
    set_integer<T>(t, i, lex, tok, name);
  }
}

}  // namespace

void append_float(std::string& out, float v) {
  append_real(out, v);
}
void append_double(std::string& out, double v) {
  append_real(out, v);
}
std::string format_float(float v) {
  std::string s;
  append_real(s, v);
  return s;
}
std::string format_double(double v) {
  std::string s;
  append_real(s, v);
  return s;
}
bool float_needs_hex(float v) {
  return needs_hex(v);
}
bool double_needs_hex(double v) {
  return needs_hex(v);
}

void append_elements(std::string& out, const Tensor& t) {
  visit_type(t.dtype(), [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_same_v<T, std::string>) {
      throw_internal("append_elements: string tensor");
    } else {
      const T* data = t.data<T>();
      for (int64_t i = 0; i < t.numel(); ++i) {
        if (i) out += ", ";
        append_element(out, data[i]);
      }
    }
  });
}

float parse_float(const Lexer& lex, const Token& t) {
  return parse_real<float>(lex, t, "float");
}
double parse_double(const Lexer& lex, const Token& t) {
  return parse_real<double>(lex, t, "double");
}

int64_t parse_int64(const Lexer& lex, const Token& t) {
  if (t.kind != Tok::integer)
    fail(lex, t, "text.syntax", "expected an integer, found " + describe(t));
  int64_t v = 0;
  const auto r = std::from_chars(t.text.data(), t.text.data() + t.text.size(), v);
  if (r.ec == std::errc::result_out_of_range)
    fail(lex, t, "text.number-range",
         "integer " + std::string(t.text.substr(0, 40)) + " is out of range for int64");
  if (r.ec != std::errc()) fail(lex, t, "text.bad-number", "malformed integer");
  return v;
}

uint64_t parse_uint64(const Lexer& lex, const Token& t) {
  const bool hex = t.kind == Tok::hex;
  if (!hex && t.kind != Tok::integer)
    fail(lex, t, "text.syntax", "expected an integer, found " + describe(t));
  if (!hex && t.text[0] == '-')
    fail(lex, t, "text.number-range", "expected a non-negative integer, found " + describe(t));
  uint64_t v = 0;
  const char* begin = t.text.data() + (hex ? 2 : 0);
  const auto r = std::from_chars(begin, t.text.data() + t.text.size(), v, hex ? 16 : 10);
  if (r.ec == std::errc::result_out_of_range)
    fail(lex, t, "text.number-range",
         "integer " + std::string(t.text.substr(0, 40)) + " is out of range for uint64");
  if (r.ec != std::errc()) fail(lex, t, "text.bad-number", "malformed integer");
  return v;
}

int64_t parse_int_in(const Lexer& lex, const Token& t, int64_t lo, int64_t hi, const char* what) {
  const int64_t v = parse_int64(lex, t);
  if (v < lo || v > hi)
    fail(lex, t, "text.number-range",
         std::string(t.text) + " is out of range for " + what + " (" + std::to_string(lo) + ".." +
             std::to_string(hi) + ")");
  return v;
}

int64_t value_slots(const Tensor& t) {
  const bool complex = t.dtype() == DataType::complex64 || t.dtype() == DataType::complex128;
  return complex ? 2 * t.numel() : t.numel();
}

void set_element(Tensor& t, int64_t i, const Lexer& lex, const Token& tok) {
  visit_type(t.dtype(), [&](auto tag) { set_typed_element<decltype(tag)>(t, i, lex, tok); });
}

// ---- typed fields ---------------------------------------------------------------------------

namespace {

template <class T>
void encode_int32_entries(const Tensor& t, onnx::TensorProto& p) {
  auto* f = p.mutable_int32_data();
  const T* data = t.data<T>();
  f->Reserve(static_cast<int>(t.numel()));
  for (int64_t i = 0; i < t.numel(); ++i) {
    if constexpr (std::is_same_v<T, bool> || std::is_integral_v<T>)
      f->Add(static_cast<int32_t>(data[i]));
    else
      f->Add(static_cast<int32_t>(data[i].bits));
  }
}

void encode_packed(const Tensor& t, onnx::TensorProto& p) {
  std::string packed(*wire_bytes(t.dtype(), static_cast<uint64_t>(t.numel())), '\0');
  pack_subbyte(t.dtype(), t.data<uint8_t>(), t.numel(), reinterpret_cast<uint8_t*>(packed.data()));
  for (char c : packed) p.add_int32_data(static_cast<unsigned char>(c));
}

template <class R>
bool same_bits(const R& a, const R& b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), sizeof(a.Get(0)) * a.size()) == 0);
}

}  // namespace

int typed_field_number(DataType t) {
  using TP = onnx::TensorProto;
  switch (t) {
    case DataType::float32:
    case DataType::complex64:
      return TP::kFloatDataFieldNumber;
    case DataType::float64:
    case DataType::complex128:
      return TP::kDoubleDataFieldNumber;
    case DataType::int64:
      return TP::kInt64DataFieldNumber;
    case DataType::uint32:
    case DataType::uint64:
      return TP::kUint64DataFieldNumber;
    case DataType::string:
      return TP::kStringDataFieldNumber;
    default:
      return TP::kInt32DataFieldNumber;
  }
}

void encode_typed(const Tensor& t, onnx::TensorProto& p) {
  const DataType dt = t.dtype();
  p.set_data_type(static_cast<int32_t>(dt));
  const auto n = static_cast<std::size_t>(value_slots(t));
  switch (dt) {
    case DataType::float32:
    case DataType::complex64:
      p.mutable_float_data()->Add(t.data<float>(), t.data<float>() + n);
      return;
    case DataType::float64:
    case DataType::complex128:
      p.mutable_double_data()->Add(t.data<double>(), t.data<double>() + n);
      return;
    case DataType::int64:
      p.mutable_int64_data()->Add(t.data<int64_t>(), t.data<int64_t>() + n);
      return;
    case DataType::uint64:
      p.mutable_uint64_data()->Add(t.data<uint64_t>(), t.data<uint64_t>() + n);
      return;
    case DataType::uint32:
      for (uint32_t v : t.span<uint32_t>()) p.add_uint64_data(v);
      return;
    case DataType::string:
      for (const auto& s : t.strings()) p.add_string_data(s);
      return;
    default:
      break;
  }
  if (is_packed(dt)) return encode_packed(t, p);
  visit_type(dt, [&](auto tag) {
    using T = decltype(tag);
    if constexpr (std::is_integral_v<T> || std::is_same_v<T, bool> ||
                  (is_narrow_float_v<T> && !std::is_same_v<T, Float4E2M1>))
      encode_int32_entries<T>(t, p);
  });
}

bool typed_field_equals(const onnx::TensorProto& proto, const Tensor& t) {
  onnx::TensorProto want;
  encode_typed(t, want);
  return same_bits(proto.float_data(), want.float_data()) &&
         same_bits(proto.double_data(), want.double_data()) &&
         same_bits(proto.int32_data(), want.int32_data()) &&
         same_bits(proto.int64_data(), want.int64_data()) &&
         same_bits(proto.uint64_data(), want.uint64_data()) &&
         proto.string_data_size() == want.string_data_size();
}

// ---- base64 ---------------------------------------------------------------------------------

namespace {
constexpr char kBase64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}
}  // namespace

std::string base64_encode(std::string_view bytes) {
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 3 <= bytes.size(); i += 3) {
    const uint32_t v = (static_cast<uint8_t>(bytes[i]) << 16) |
                       (static_cast<uint8_t>(bytes[i + 1]) << 8) |
                       static_cast<uint8_t>(bytes[i + 2]);
    for (int k = 3; k >= 0; --k) out += kBase64[(v >> (6 * k)) & 63];
  }
  const std::size_t rest = bytes.size() - i;
  if (rest) {
    uint32_t v = static_cast<uint32_t>(static_cast<uint8_t>(bytes[i])) << 16;
    if (rest == 2) v |= static_cast<uint32_t>(static_cast<uint8_t>(bytes[i + 1])) << 8;
    out += kBase64[(v >> 18) & 63];
    out += kBase64[(v >> 12) & 63];
    out += rest == 2 ? kBase64[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

std::optional<std::string> base64_decode(std::string_view s) {
  if (s.size() % 4 != 0) return std::nullopt;
  std::string out;
  out.reserve(s.size() / 4 * 3);
  for (std::size_t i = 0; i < s.size(); i += 4) {
    const bool last = i + 4 == s.size();
    const int pad = last ? (s[i + 3] == '=') + (s[i + 2] == '=') : 0;
    uint32_t v = 0;
    for (int k = 0; k < 4; ++k) {
      const int d = k >= 4 - pad ? 0 : base64_value(s[i + static_cast<std::size_t>(k)]);
      if (d < 0) return std::nullopt;
      v = (v << 6) | static_cast<uint32_t>(d);
    }
    out += static_cast<char>((v >> 16) & 0xFF);
    if (pad < 2) out += static_cast<char>((v >> 8) & 0xFF);
    if (pad < 1) out += static_cast<char>(v & 0xFF);
  }
  return out;
}

}  // namespace onnxtool::text
