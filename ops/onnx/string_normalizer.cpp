// SPDX-License-Identifier: Apache-2.0
// StringNormalizer: the ai.onnx operator. Drops the stopwords (case-sensitively or not) from a
// [C] or [1, C] string tensor, then lowercases, uppercases or keeps the rest. When every element
// is dropped the result is one empty string ([1] or [1, 1]). Case mapping covers ASCII, Latin-1,
// Latin Extended-A, Greek and Cyrillic letters (locale-independent).
#include <set>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_string_normalizer(InferContext& ctx) {
  const auto s = static_cast<int32_t>(DataType::string);
  const Dims* x = misc::input_dims(ctx, 0);
  if (x && x->size() != 1 &&
      !(x->size() == 2 && ((*x)[0].is_unknown() || (*x)[0].is_symbolic() || (*x)[0].value() == 1)))
    infer_fail("X must have shape [C] or [1, C]");
  const std::vector<std::string> stop = ctx.attrs().get_strings("stopwords", {});
  if (!x) {
    set_output_tensor(ctx, 0, s);
    return;
  }
  Dims y = *x;
  if (!stop.empty()) {
    y.back() = Dim();
    ctx.explain(0, "how many elements are stopwords depends on the strings");
  }
  set_output_tensor(ctx, 0, s, y);
}

// UTF-8 <-> code points (invalid bytes pass through as themselves).
std::u32string decode(const std::string& s) {
  std::u32string out;
  for (std::size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    int n = c < 0x80 ? 0 : (c >> 5) == 6 ? 1 : (c >> 4) == 14 ? 2 : (c >> 3) == 30 ? 3 : -1;
    if (n <= 0 || i + static_cast<std::size_t>(n) >= s.size()) {
      out.push_back(c);
      ++i;
      continue;
    }
    char32_t cp = c & (0x3F >> n);
    for (int k = 1; k <= n; ++k) cp = (cp << 6) | (static_cast<unsigned char>(s[i + k]) & 0x3F);
    out.push_back(cp);
    i += static_cast<std::size_t>(n) + 1;
  }
  return out;
}

std::string encode(const std::u32string& s) {
  std::string out;
  for (char32_t c : s) {
    if (c < 0x80) {
      out += static_cast<char>(c);
    } else if (c < 0x800) {
      out += static_cast<char>(0xC0 | (c >> 6));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
      out += static_cast<char>(0xE0 | (c >> 12));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    } else {
      out += static_cast<char>(0xF0 | (c >> 18));
      out += static_cast<char>(0x80 | ((c >> 12) & 0x3F));
      out += static_cast<char>(0x80 | ((c >> 6) & 0x3F));
      out += static_cast<char>(0x80 | (c & 0x3F));
    }
  }
  return out;
}

char32_t to_lower(char32_t c) {
  if ((c >= 'A' && c <= 'Z') || (c >= 0xC0 && c <= 0xDE && c != 0xD7) ||
      (c >= 0x391 && c <= 0x3AB && c != 0x3A2) || (c >= 0x410 && c <= 0x42F))
    return c + 0x20;
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x131 && c != 0x138 && c != 0x149 &&
      c != 0x17F) {
    const bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    if (odd_upper ? (c % 2 == 1) : (c % 2 == 0)) return c + 1;
  }
  return c;
}

char32_t to_upper(char32_t c) {
  if ((c >= 'a' && c <= 'z') || (c >= 0xE0 && c <= 0xFE && c != 0xF7) ||
      (c >= 0x3B1 && c <= 0x3CB && c != 0x3C2) || (c >= 0x430 && c <= 0x44F))
    return c - 0x20;
  if (c >= 0x450 && c <= 0x45F) return c - 0x50;
  if (c >= 0x100 && c <= 0x17F && c != 0x130 && c != 0x131 && c != 0x138 && c != 0x149 &&
      c != 0x17F) {
    const bool odd_upper = (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E);
    if (odd_upper ? (c % 2 == 0) : (c % 2 == 1)) return c - 1;
  }
  return c;
}

std::string change_case(const std::string& s, bool upper) {
  std::u32string u = decode(s);
  for (char32_t& c : u) c = upper ? to_upper(c) : to_lower(c);
  return encode(u);
}

void string_normalizer_kernel(KernelContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.dtype() != DataType::string) ctx.fail("X must be a string tensor");
  if (!(x.rank() == 1 || (x.rank() == 2 && x.shape()[0] == 1)))
    ctx.fail("X must have shape [C] or [1, C], got " + shape_to_string(x.shape()));
  const std::string action = ctx.attrs().get_string("case_change_action", "NONE");
  if (action != "NONE" && action != "LOWER" && action != "UPPER")
    ctx.fail("case_change_action must be NONE, LOWER or UPPER, got \"" + action + "\"");
  const bool sensitive = ctx.attrs().get_int("is_case_sensitive", 0) != 0;
  std::set<std::string> stop;
  for (const std::string& w : ctx.attrs().get_strings("stopwords", {}))
    stop.insert(sensitive ? w : change_case(w, false));
  std::vector<std::string> kept;
  for (const std::string& s : x.strings()) {
    if (stop.count(sensitive ? s : change_case(s, false))) continue;
    kept.push_back(action == "NONE" ? s : change_case(s, action == "UPPER"));
  }
  if (kept.empty()) kept.emplace_back();
  const auto n = static_cast<int64_t>(kept.size());
  ctx.set_output(0, Tensor::from_strings(x.rank() == 1 ? Shape{n} : Shape{1, n}, std::move(kept)));
}

}  // namespace

void define_StringNormalizer(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(10)
      .attr("case_change_action", AttrType::s, "NONE")
      .attr("is_case_sensitive", AttrType::i, int64_t{0})
      .attr_optional("locale", AttrType::s)
      .attr_optional("stopwords", AttrType::strings)
      .input("X", "tensor(string)")
      .output("Y", "tensor(string)");
  // END SIGNATURES
  // clang-format on
  op.all().infer(infer_string_normalizer).kernel(string_normalizer_kernel);
}

}  // namespace onnxtool::ops
