// SPDX-License-Identifier: Apache-2.0
// RegexFullMatch: the ai.onnx operator. Whether each string matches the pattern as a whole.
// The spec's syntax is RE2's; std::regex (ECMAScript) runs the common subset, after rewriting
// what RE2 writes differently: a leading (?i) (case-insensitive), (?P<name>...) and
// (?<name>...) groups (named groups become plain ones), \A and \z (start and end of text).
// Constructs neither understands (\p{...}, possessive quantifiers) fail the node clearly.
#include <regex>

#include "ops/onnx/misc_common.h"

namespace onnxtool::ops {

namespace {

void infer_regex_full_match(InferContext& ctx) {
  propagate_shape(ctx, 0, 0, static_cast<int32_t>(DataType::boolean));
}

struct Translated {
  std::string pattern;
  bool icase = false;
};

// RE2 -> ECMAScript for the constructs that differ in spelling only.
Translated translate(const std::string& re2) {
  Translated t;
  std::string p = re2;
  if (p.rfind("(?i)", 0) == 0) {
    t.icase = true;
    p = p.substr(4);
  }
  std::string out;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == '\\' && i + 1 < p.size()) {
      const char c = p[i + 1];
      if (c == 'A')
        out += '^';
      else if (c == 'z')
        out += '$';
      else
        out += p.substr(i, 2);
      ++i;
      continue;
    }
    if (p.compare(i, 3, "(?P") == 0 ||
        (p.compare(i, 3, "(?<") == 0 && i + 3 < p.size() && p[i + 3] != '=' && p[i + 3] != '!')) {
      const std::size_t close = p.find('>', i);
      if (close != std::string::npos) {
        out += '(';
        i = close;
        continue;
      }
    }
    out += p[i];
  }
  t.pattern = out;
  return t;
}

struct CompiledRegex {
  std::regex re;
};

CompiledRegex prepare_regex(PrepareContext& ctx) {
  const std::string pattern = ctx.attrs().get_string("pattern", "");
  const Translated t = translate(pattern);
  try {
    auto flags = std::regex::ECMAScript;
    if (t.icase) flags |= std::regex::icase;
    return {std::regex(t.pattern, flags)};
  } catch (const std::regex_error& e) {
    ctx.fail("pattern \"" + pattern +
             "\" is not a regular expression this build understands: " + e.what());
  }
}

void regex_full_match_kernel(KernelContext& ctx, const CompiledRegex& compiled) {
  const Tensor& x = ctx.input(0);
  if (x.dtype() != DataType::string) ctx.fail("X must be a string tensor");
  Tensor& y = ctx.output(0, DataType::boolean, x.shape());
  bool* out = y.mutable_data<bool>();
  const auto& s = x.strings();
  for (std::size_t i = 0; i < s.size(); ++i) out[i] = std::regex_match(s[i], compiled.re);
}

}  // namespace

void define_RegexFullMatch(OpDef& op) {
  // clang-format off
  // BEGIN SIGNATURES: generated from the ONNX Changelog by scripts/gen_signatures.py; do not edit
  op.since(20)
      .attr_optional("pattern", AttrType::s)
      .input("X", "T1", D::non_differentiable)
      .output("Y", "T2", D::non_differentiable)
      .constraint("T1", {"tensor(string)"})
      .constraint("T2", {"tensor(bool)"});
  // END SIGNATURES
  // clang-format on
  op.all()
      .infer(infer_regex_full_match)
      .kernel(prepared_kernel(prepare_regex, regex_full_match_kernel));
}

}  // namespace onnxtool::ops
