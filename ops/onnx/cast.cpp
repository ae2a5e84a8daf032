// SPDX-License-Identifier: Apache-2.0
// The conversion family of ai.onnx: Cast, CastLike (Cast to the type of a second input) and
// BitCast (the same bits read as another type of equal width).
//
// Cast's rules (Operators.md): float -> float rounds to nearest even (inf when out of range);
// float -> float8 saturates or not as `saturate` says (the tables are in float_formats.h), to
// float8e8m0 also by `round_mode`; float -> integer truncates (out of range: see float_to_int);
// integer -> integer keeps the low bits; anything -> bool is "not zero"; bool -> number is 1 or 0.
// The 4- and 2-bit integers saturate to their range (rounding half to even from floats), as
// ONNX's reference and backend tests do. Strings parse as numbers ("1e-5", "+INF", "NaN", case
// insensitive) and numbers print in numpy's shortest round-trip form ("0.47892547", "1e-05").
//
// Elements convert in two steps, through a wide form (double for floats, int64 or uint64 for
// integers): exact for every source, and 24 + 3 x 24 instantiations instead of 24 x 24.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <type_traits>

#include "core/convert/adapter.h"
#include "core/infer/helpers.h"
#include "core/registry/fusion.h"
#include "onnx.pb.h"
#include "ops/onnx/elementwise.h"
#include "ops/onnx/nn_common.h"

namespace onnxtool::ops {

namespace {

struct CastOptions {
  bool saturate = true;
  E8M0Rounding rounding = E8M0Rounding::up;
};

template <class T>
inline constexpr bool is_small_int_v = std::is_same_v<T, Int4> || std::is_same_v<T, UInt4> ||
                                       std::is_same_v<T, Int2> || std::is_same_v<T, UInt2>;

using NumberTypes =
    ew::Types<float, double, Float16, BFloat16, Float8E4M3FN, Float8E4M3FNUZ, Float8E5M2,
              Float8E5M2FNUZ, Float8E8M0, Float4E2M1, int8_t, int16_t, int32_t, int64_t, uint8_t,
              uint16_t, uint32_t, uint64_t, bool, Int4, UInt4, Int2, UInt2>;

// ---- numbers -> wide form -> numbers -------------------------------------------------------

template <class S>
auto widen(const S& v) {
  if constexpr (is_narrow_float_v<S>)
    return static_cast<double>(to_float(v));
  else if constexpr (std::is_floating_point_v<S>)
    return static_cast<double>(v);
  else if constexpr (std::is_same_v<S, Int4> || std::is_same_v<S, Int2>)
    return static_cast<int64_t>(v.value);
  else if constexpr (std::is_same_v<S, UInt4> || std::is_same_v<S, UInt2>)
    return static_cast<uint64_t>(v.value);
  else if constexpr (std::is_same_v<S, bool> || std::is_signed_v<S>)
    return static_cast<int64_t>(v);
  else
    return static_cast<uint64_t>(v);
}

template <class S>
using wide_t = decltype(widen(S{}));

// The 4- and 2-bit integers: clamped to their range, floats rounded half to even (NaN gives 0).
template <class D, class W>
D to_small_int(W w) {
  constexpr int bits = std::is_same_v<D, Int4> || std::is_same_v<D, UInt4> ? 4 : 2;
  constexpr bool is_signed = std::is_same_v<D, Int4> || std::is_same_v<D, Int2>;
  constexpr int64_t lo = is_signed ? -(int64_t{1} << (bits - 1)) : 0;
  constexpr int64_t hi = is_signed ? (int64_t{1} << (bits - 1)) - 1 : (int64_t{1} << bits) - 1;
  int64_t v = 0;
  if constexpr (std::is_same_v<W, double>) {
    if (!std::isnan(w)) v = static_cast<int64_t>(std::nearbyint(std::clamp<double>(w, lo, hi)));
  } else if constexpr (std::is_same_v<W, uint64_t>) {
    v = w > static_cast<uint64_t>(hi) ? hi : static_cast<int64_t>(w);
  } else {
    v = std::clamp<int64_t>(w, lo, hi);
  }
  return D{static_cast<decltype(D{}.value)>(v)};
}

template <class D, class W>
D narrow_to(W w, const CastOptions& o) {
  if constexpr (std::is_same_v<D, bool>) {
    return w != W{0};  // NaN is not zero: true
  } else if constexpr (std::is_floating_point_v<D>) {
    return static_cast<D>(w);
  } else if constexpr (std::is_same_v<D, Float8E8M0>) {
    return to_float8e8m0(static_cast<double>(w), o.saturate, o.rounding);
  } else if constexpr (is_narrow_float_v<D>) {
    return narrow_float<D>(static_cast<double>(w), o.saturate);
  } else if constexpr (is_small_int_v<D>) {
    return to_small_int<D>(w);
  } else if constexpr (std::is_same_v<W, double>) {
    return ew::float_to_int<D>(w);
  } else {
    return static_cast<D>(w);  // keeps the low bits
  }
}

using Wide = ew::Types<double, int64_t, uint64_t>;

// Converts a chunk of wide values into the output (of element type `to`) at element `at`.
template <class W>
void encode_chunk(const KernelContext& ctx, DataType to, const W* wide, int64_t n, std::byte* out,
                  int64_t at, const CastOptions& o) {
  ew::dispatch(ctx, to, NumberTypes{}, [&](auto tag) {
    using D = decltype(tag);
    D* d = reinterpret_cast<D*>(out) + at;
    for (int64_t i = 0; i < n; ++i) d[i] = narrow_to<D>(wide[i], o);
  });
}

// float32 to and from float16 and bfloat16 (a mixed-precision model's edges) by the threaded
// bulk conversions (nn_common.h), which give the element functions' bits; false for any other
// pair.
bool cast_half_floats(const KernelContext& ctx, const Tensor& x, Tensor& y) {
  const bool narrow_to = y.dtype() == DataType::float16 || y.dtype() == DataType::bfloat16;
  if (x.dtype() == DataType::float32 && narrow_to) {
    nn::store_float32(ctx, x.data<float>(), y);
    return true;
  }
  return y.dtype() == DataType::float32 && nn::widen_half_floats(ctx, x, y.mutable_data<float>());
}

void cast_numbers(const KernelContext& ctx, const Tensor& x, Tensor& y, const CastOptions& o) {
  if (cast_half_floats(ctx, x, y)) return;
  std::byte* out = y.mutable_raw();
  ew::dispatch(ctx, x.dtype(), NumberTypes{}, [&](auto tag) {
    using S = decltype(tag);
    using W = wide_t<S>;
    const S* s = ew::cdata<S>(x);
    ctx.parallel_for(x.numel(), ew::kCheapGrain, [&](int64_t begin, int64_t end) {
      constexpr int64_t kChunk = 256;
      W wide[kChunk];
      for (int64_t at = begin; at < end; at += kChunk) {
        const int64_t n = std::min(kChunk, end - at);
        for (int64_t i = 0; i < n; ++i) wide[i] = widen(s[at + i]);
        encode_chunk(ctx, y.dtype(), wide, n, out, at, o);
      }
    });
  });
}

// ---- numbers -> strings --------------------------------------------------------------------

// numpy's str() of a float: the shortest digits that read back as the same value, positional for
// 1e-4 <= |x| < 1e16 (always with a point: "1.0"), scientific otherwise ("1e-05", "1.5e+16").
std::string format_shortest(double v, bool as_float) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "INF" : "-INF";
  char buf[64];
  const double a = std::fabs(v);
  const bool positional = a == 0 || (a >= 1e-4 && a < 1e16);
  const auto fmt = positional ? std::chars_format::fixed : std::chars_format::scientific;
  const auto r = as_float ? std::to_chars(buf, buf + sizeof buf, static_cast<float>(v), fmt)
                          : std::to_chars(buf, buf + sizeof buf, v, fmt);
  std::string s(buf, r.ptr);
  if (positional && s.find('.') == std::string::npos) s += ".0";
  return s;
}

// The narrow floats: the fewest significant digits that convert back to the same encoding.
template <class S>
std::string format_narrow(S v) {
  const double d = to_float(v);
  if (std::isnan(d) || std::isinf(d) || d == 0) return format_shortest(d, false);
  char buf[64];
  for (int digits = 1; digits <= 17; ++digits) {
    const auto r =
        std::to_chars(buf, buf + sizeof buf, d, std::chars_format::scientific, digits - 1);
    double back = 0;
    std::from_chars(buf, r.ptr, back);
    if (narrow_to<S>(back, CastOptions{}).bits == v.bits) return format_shortest(back, false);
  }
  return format_shortest(d, false);
}

template <class S>
std::string to_text(const S& v) {
  if constexpr (std::is_same_v<S, bool>)
    return v ? "True" : "False";  // numpy's str(), as ONNX's reference casts
  else if constexpr (std::is_same_v<S, float> || std::is_same_v<S, double>)
    return format_shortest(v, std::is_same_v<S, float>);
  else if constexpr (is_narrow_float_v<S>)
    return format_narrow(v);
  else if constexpr (is_small_int_v<S>)
    return std::to_string(v.value);
  else
    return std::to_string(v);
}

// ---- strings -> numbers --------------------------------------------------------------------

bool iequals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) ==
                  std::tolower(static_cast<unsigned char>(y));
         });
}

// A whole string read as T (int64_t, uint64_t, float or double); nullopt unless all of it is.
template <class T>
std::optional<T> parse_all(std::string_view s) {
  if (!s.empty() && s[0] == '+') s.remove_prefix(1);
  T v{};
  const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
  if (r.ec != std::errc() || r.ptr != s.data() + s.size()) return std::nullopt;
  return v;
}

// A string as a number: integers exactly (int64 or uint64), else a float; "INF", "+INF",
// "-INF", "NaN" in any case (from_chars reads them).
template <class D>
D parse_number(const KernelContext& ctx, const std::string& text, const CastOptions& o) {
  std::string_view s = text;
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  if constexpr (std::is_same_v<D, float>) {
    if (auto f = parse_all<float>(s)) return *f;  // one rounding, straight to float
  } else if constexpr (std::is_same_v<D, bool>) {
    if (iequals(s, "true")) return true;
    if (iequals(s, "false")) return false;
  }
  if constexpr (!std::is_floating_point_v<D>) {
    if (auto i = parse_all<int64_t>(s)) return narrow_to<D>(*i, o);
    if (auto u = parse_all<uint64_t>(s)) return narrow_to<D>(*u, o);
  }
  if (auto d = parse_all<double>(s)) return narrow_to<D>(*d, o);
  ctx.fail("cannot cast the string \"" + text + "\" to " +
           std::string(type_name(data_type_of<D>())));
}

void cast_strings(const KernelContext& ctx, const Tensor& x, Tensor& y, const CastOptions& o) {
  if (x.dtype() == DataType::string && y.dtype() == DataType::string) {
    y.mutable_strings() = x.strings();
    return;
  }
  if (y.dtype() == DataType::string) {
    std::string* out = y.mutable_strings().data();
    ew::dispatch(ctx, x.dtype(), NumberTypes{}, [&](auto tag) {
      using S = decltype(tag);
      const S* s = ew::cdata<S>(x);
      for (int64_t i = 0; i < x.numel(); ++i) out[i] = to_text(s[i]);
    });
    return;
  }
  const std::string* in = x.strings().data();
  ew::dispatch(ctx, y.dtype(), NumberTypes{}, [&](auto tag) {
    using D = decltype(tag);
    D* d = ew::mdata<D>(y);
    for (int64_t i = 0; i < x.numel(); ++i) d[i] = parse_number<D>(ctx, in[i], o);
  });
}

// ---- the kernels ---------------------------------------------------------------------------

CastOptions cast_options(const KernelContext& ctx) {
  CastOptions o;
  o.saturate = ctx.attrs().get_int("saturate", 1) != 0;
  const std::string mode = ctx.attrs().get_string("round_mode", "up");
  if (mode == "down")
    o.rounding = E8M0Rounding::down;
  else if (mode == "nearest")
    o.rounding = E8M0Rounding::nearest;
  else if (mode != "up")
    ctx.fail("round_mode is \"" + mode + "\", expected \"up\", \"down\" or \"nearest\"");
  return o;
}

void run_cast(KernelContext& ctx, DataType to) {
  const Tensor& x = ctx.input(0);
  if (x.dtype() == to) {  // nothing to convert: share the input's storage
    ctx.set_output(0, Value(x));
    return;
  }
  const CastOptions o = cast_options(ctx);
  Tensor& y = ctx.output(0, to, x.shape());
  if (x.dtype() == DataType::string || to == DataType::string)
    cast_strings(ctx, x, y, o);
  else
    cast_numbers(ctx, x, y, o);
}

// Cast-1 names the type ("FLOAT", "INT64"), later versions give its number.
std::optional<DataType> target_of(const AttrView& attrs, int64_t since) {
  if (since < 6) {
    std::string name = attrs.get_string("to");
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return data_type_from_name(name);
  }
  const int64_t to = attrs.get_int("to");
  if (to < 1 || to > kMaxDataType) return std::nullopt;
  return data_type_from_int(static_cast<int32_t>(to));
}

// `to` must name a type the version's output constraint allows: the message says why not.
std::string target_error(const OpVersion& schema, const AttrView& attrs,
                         std::optional<DataType>& to) {
  to = target_of(attrs, schema.since);
  const std::string given =
      schema.since < 6 ? attrs.get_string("to") : std::to_string(attrs.get_int("to"));
  if (!to) return "to is " + given + ", not a tensor element type";
  const TypeConstraint* c = schema.find_constraint("T2");
  const std::string spec = "tensor(" + std::string(type_name(*to)) + ")";
  if (c && std::find(c->allowed.begin(), c->allowed.end(), spec) == c->allowed.end())
    return "to is " + std::string(type_name(*to)) + ", which " + schema.id() + " cannot cast to";
  return "";
}

void cast_kernel(KernelContext& ctx) {
  std::optional<DataType> to;
  if (auto e = target_error(ctx.schema(), ctx.attrs(), to); !e.empty()) ctx.fail(e);
  run_cast(ctx, *to);
}

void cast_like_kernel(KernelContext& ctx) {
  run_cast(ctx, ctx.input(1).dtype());
}

// ---- inference and data propagation -------------------------------------------------------

bool carries_values(DataType t) {
  return t == DataType::float32 || t == DataType::float64 || is_integer(t);
}

// A known value converted to an integer type keeps its low bits.
int64_t wrap_to(int64_t v, DataType to) {
  switch (to) {
    case DataType::int8:
      return static_cast<int8_t>(v);
    case DataType::uint8:
      return static_cast<uint8_t>(v);
    case DataType::int16:
      return static_cast<int16_t>(v);
    case DataType::uint16:
      return static_cast<uint16_t>(v);
    case DataType::int32:
      return static_cast<int32_t>(v);
    case DataType::uint32:
      return static_cast<uint32_t>(v);
    default:
      return v;
  }
}

// Shape values stay values through a cast between integer and float32/float64 types: known ones
// converted (an integer target keeps the low bits), symbolic ones kept when the target is wide
// enough to hold any size (32 or 64 bits).
void propagate_cast_values(InferContext& ctx, DataType to) {
  const Dims* v = ctx.input_values(0);
  const auto from = data_type_from_int(ctx.input_elem_type(0));
  if (!v || !from || !carries_values(*from) || !carries_values(to)) return;
  const bool wide = type_info(to).bits >= 32;
  Dims out;
  for (const Dim& d : *v) {
    if (d.is_known()) {
      out.push_back(Dim::value(wrap_to(d.value(), to)));
    } else {
      out.push_back(wide ? d : Dim());
    }
  }
  ctx.set_output_values(0, std::move(out), ctx.input_type(0).rank() == 0);
}

void infer_cast(InferContext& ctx) {
  std::optional<DataType> to;
  if (auto e = target_error(ctx.schema(), ctx.attrs(), to); !e.empty()) ctx.fail(e);
  propagate_shape(ctx, 0, 0, static_cast<int32_t>(*to));
  propagate_cast_values(ctx, *to);
}

void infer_cast_like(InferContext& ctx) {
  const int32_t to = ctx.input_elem_type(1);
  propagate_shape(ctx, 0, 0, to);
  if (auto t = data_type_from_int(to); t && *t != DataType::undefined)
    propagate_cast_values(ctx, *t);
}

// ---- BitCast -------------------------------------------------------------------------------

std::string bit_cast_error(DataType from, DataType to) {
  if (type_info(from).bits == type_info(to).bits) return "";
  return "cannot reinterpret " + std::string(type_name(from)) + " (" +
         std::to_string(type_info(from).bits) + " bits) as " + std::string(type_name(to)) + " (" +
         std::to_string(type_info(to).bits) + " bits)";
}

std::optional<DataType> bit_cast_target(const AttrView& attrs) {
  const int64_t to = attrs.get_int("to");
  if (to < 1 || to > kMaxDataType || to == static_cast<int64_t>(DataType::string))
    return std::nullopt;
  return data_type_from_int(static_cast<int32_t>(to));
}

// Sub-byte elements sit one per byte in memory (the signed ones sign-extended), and bool is 0
// or 1: those bytes are re-encoded; every other pair has one layout and is copied.
uint8_t reencode_byte(uint8_t b, DataType from, DataType to) {
  const int bits = type_info(to).bits;
  if (to == DataType::boolean) return b != 0;
  if (from == DataType::boolean || bits == 8) return b;
  const auto mask = static_cast<uint8_t>((1u << bits) - 1);
  uint8_t v = b & mask;
  const bool sign_extend = to == DataType::int4 || to == DataType::int2;
  if (sign_extend && (v >> (bits - 1)) & 1) v = static_cast<uint8_t>(v | ~mask);
  return v;
}

void bit_cast_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  const auto to = bit_cast_target(ctx.attrs());
  if (!to) ctx.fail("to is " + std::to_string(ctx.attrs().get_int("to")) + ", not a numeric type");
  if (auto e = bit_cast_error(x.dtype(), *to); !e.empty()) ctx.fail(e);
  Tensor& y = ctx.output(0, *to, x.shape());
  const bool bytewise =
      type_info(*to).bits < 8 || x.dtype() == DataType::boolean || *to == DataType::boolean;
  if (!bytewise) {
    if (x.nbytes()) std::memcpy(y.mutable_raw(), x.raw(), x.nbytes());
    return;
  }
  const auto* in = reinterpret_cast<const uint8_t*>(x.raw());
  auto* out = reinterpret_cast<uint8_t*>(y.mutable_raw());
  for (int64_t i = 0; i < x.numel(); ++i) out[i] = reencode_byte(in[i], x.dtype(), *to);
}

void infer_bit_cast(InferContext& ctx) {
  const auto to = bit_cast_target(ctx.attrs());
  if (!to) ctx.fail("to is " + std::to_string(ctx.attrs().get_int("to")) + ", not a numeric type");
  if (const auto from = data_type_from_int(ctx.input_elem_type(0));
      from && *from != DataType::undefined)
    if (auto e = bit_cast_error(*from, *to); !e.empty()) ctx.fail(e);
  propagate_shape(ctx, 0, 0, static_cast<int32_t>(*to));
}

// ---- version adapters --------------------------------------------------------------------

void cast_to_number(AdapterContext& ctx) {
  const auto name = ctx.string_attribute("to");
  if (!name) return;
  onnx::TensorProto::DataType value{};
  if (!onnx::TensorProto::DataType_Parse(*name, &value))
    ctx.refuse("to \"" + *name + "\" is not a data type name");
  ctx.set_attribute("to", static_cast<int64_t>(value));
  ctx.describe("to \"" + *name + "\" -> " + std::to_string(value));
}

void cast_to_name(AdapterContext& ctx) {
  const auto value = ctx.int_attribute("to");
  if (!value) return;
  const auto type = static_cast<onnx::TensorProto::DataType>(*value);
  if (!onnx::TensorProto::DataType_IsValid(static_cast<int>(*value)))
    ctx.refuse("to " + std::to_string(*value) + " is not a data type");
  const std::string name = onnx::TensorProto::DataType_Name(type);
  ctx.set_attribute("to", name);
  ctx.describe("to " + std::to_string(*value) + " -> \"" + name + "\"");
}

void cast_like_to_cast(AdapterContext& ctx) {
  const Type* target = ctx.input_type(1);
  if (!target || target->kind != Type::Kind::tensor || target->elem <= 0)
    ctx.refuse("the element type of target_type (input 1) is not known, and Cast names it");
  ctx.truncate_inputs(1);
  ctx.set_op_type("Cast");
  for (const char* a : {"saturate", "round_mode"}) ctx.remove_attribute(a);
  ctx.set_attribute("to", static_cast<int64_t>(target->elem));
  ctx.describe("CastLike -> Cast to " +
               std::string(type_name(static_cast<DataType>(target->elem))));
}

bool is_float8(int64_t to) {
  const auto t = static_cast<DataType>(to);
  return t == DataType::float8e4m3fn || t == DataType::float8e4m3fnuz ||
         t == DataType::float8e5m2 || t == DataType::float8e5m2fnuz;
}

// saturate=0 matters only for a float8 target (which no version before 19 has anyway).
void drop_saturate(AdapterContext& ctx) {
  const auto saturate = ctx.int_attribute("saturate");
  if (!saturate) return;
  if (*saturate == 0 && is_float8(ctx.int_attribute("to").value_or(0)))
    ctx.refuse("saturate=0 has no equivalent in " + ctx.to().id());
  ctx.remove_attribute("saturate");
  ctx.describe("saturate dropped (it reads only float8 targets)");
}

}  // namespace

void define_Cast(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(1)
      .attr_required("to", AttrType::s)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)"});
  op.since(6)
      .attr_required("to", AttrType::i)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)"});
  op.since(9)
      .attr_required("to", AttrType::i)
      .input("input", "T1")
      .output("output", "T2")
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)"});
  op.since(13)
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)"});
  op.since(19)
      .attr("saturate", AttrType::i, int64_t{1})
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"});
  op.since(21)
      .attr("saturate", AttrType::i, int64_t{1})
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .attr("saturate", AttrType::i, int64_t{1})
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)"});
  op.since(24)
      .attr("round_mode", AttrType::s, "up")
      .attr("saturate", AttrType::i, int64_t{1})
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)",
                         "tensor(float8e8m0)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)",
                         "tensor(float8e8m0)"});
  op.since(25)
      .attr("round_mode", AttrType::s, "up")
      .attr("saturate", AttrType::i, int64_t{1})
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)",
                         "tensor(float8e8m0)", "tensor(uint2)", "tensor(int2)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)",
                         "tensor(float8e8m0)", "tensor(uint2)", "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_cast).kernel(cast_kernel);
  // For the executor's passes (core/registry/fusion.h): from 6, `to` is the DataType number
  // the node converts to (round_mode and saturate only concern the float8 and float4 types).
  op.from(6)
      .conversion(
          [](const FusionNode& n) { return static_cast<int32_t>(n.attrs.get_int("to", 0)); })
      .make_conversion([](onnx::NodeProto& node, int32_t to) {
        onnx::AttributeProto* attr = node.add_attribute();
        attr->set_name("to");
        attr->set_type(onnx::AttributeProto::INT);
        attr->set_i(to);
      });
  // Cast-1 names the target type ("FLOAT"); from 6 it is the DataType number. 19 adds
  // saturate, which only conversions to float8 read.
  // A Cast to the type its input already has gives it back (saturate and round_mode only act
  // when the type changes).
  op.from(6).passes_through([](const AttrView& attrs, const std::vector<bool>&, int32_t elem) {
    return elem != 0 && attrs.get_int("to", 0) == elem;
  });
  op.at(6).upgrade(cast_to_number).downgrade(cast_to_name);
  op.at(19).downgrade(drop_saturate);
}

void define_CastLike(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(15)
      .input("input", "T1", D::differentiable)
      .input("target_type", "T2", D::non_differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)"});
  op.since(19)
      .attr("saturate", AttrType::i, int64_t{1})
      .input("input", "T1", D::differentiable)
      .input("target_type", "T2", D::non_differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"})
      .constraint("T2", {"tensor(float16)", "tensor(float)", "tensor(double)", "tensor(int8)",
                         "tensor(int16)", "tensor(int32)", "tensor(int64)", "tensor(uint8)",
                         "tensor(uint16)", "tensor(uint32)", "tensor(uint64)", "tensor(bool)",
                         "tensor(string)", "tensor(bfloat16)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)"});
  op.since(21)
      .attr("saturate", AttrType::i, int64_t{1})
      .input("input", "T1", D::differentiable)
      .input("target_type", "T2", D::non_differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)"});
  op.since(23)
      .attr("saturate", AttrType::i, int64_t{1})
      .input("input", "T1", D::differentiable)
      .input("target_type", "T2", D::non_differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)"});
  op.since(24)
      .attr("round_mode", AttrType::s, "up")
      .attr("saturate", AttrType::i, int64_t{1})
      .input("input", "T1", D::differentiable)
      .input("target_type", "T2", D::non_differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)",
                         "tensor(float8e8m0)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)",
                         "tensor(float8e8m0)"});
  op.since(25)
      .is_function({25})
      .attr("round_mode", AttrType::s, "up")
      .attr("saturate", AttrType::i, int64_t{1})
      .input("input", "T1", D::differentiable)
      .input("target_type", "T2", D::non_differentiable)
      .output("output", "T2", D::differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)",
                         "tensor(float8e8m0)", "tensor(uint2)", "tensor(int2)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(string)", "tensor(bool)", "tensor(float8e4m3fn)",
                         "tensor(float8e4m3fnuz)", "tensor(float8e5m2)", "tensor(float8e5m2fnuz)",
                         "tensor(uint4)", "tensor(int4)", "tensor(float4e2m1)",
                         "tensor(float8e8m0)", "tensor(uint2)", "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
  // CastLike-25's body is one Cast whose `to` is target_type's element type; an attribute
  // value cannot be taken from an input's type in the textual syntax.
  op.at(25).function_note(
      "the body is Cast with `to` set to the element type of target_type, which a fixed body "
      "cannot name: the spec builds it per call site from the input type");
  op.all().infer(infer_cast_like).kernel(cast_like_kernel);
  // Below 15 CastLike is Cast to the element type its second input has.
  op.at(15).downgrade(cast_like_to_cast);
}

void define_BitCast(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(26)
      .attr_required("to", AttrType::i)
      .input("input", "T1", D::non_differentiable)
      .output("output", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                         "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                         "tensor(int2)"})
      .constraint("T2", {"tensor(uint8)", "tensor(uint16)", "tensor(uint32)", "tensor(uint64)",
                         "tensor(int8)", "tensor(int16)", "tensor(int32)", "tensor(int64)",
                         "tensor(bfloat16)", "tensor(float16)", "tensor(float)", "tensor(double)",
                         "tensor(bool)", "tensor(complex64)", "tensor(complex128)",
                         "tensor(float8e4m3fn)", "tensor(float8e4m3fnuz)", "tensor(float8e5m2)",
                         "tensor(float8e5m2fnuz)", "tensor(uint4)", "tensor(int4)",
                         "tensor(float4e2m1)", "tensor(float8e8m0)", "tensor(uint2)",
                         "tensor(int2)"});
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_bit_cast).kernel(bit_cast_kernel);
}

}  // namespace onnxtool::ops
