// SPDX-License-Identifier: Apache-2.0
// Strings and names: UTF-8 validity (IR.md: all strings are UTF-8; proto2 does not enforce it
// for `string` fields, so the checker must), C90 identifiers (IR.md: names SHOULD be), and
// metadata keys.
#include <set>

#include "core/check/context.h"
#include "core/ir/location.h"

namespace onnxtool {

namespace {

// Length of the UTF-8 sequence a lead byte starts, 0 when it cannot start one.
int sequence_length(unsigned char c) {
  if (c < 0x80) return 1;
  if (c >= 0xc2 && c <= 0xdf) return 2;
  if (c >= 0xe0 && c <= 0xef) return 3;
  if (c >= 0xf0 && c <= 0xf4) return 4;
  return 0;  // continuation byte, overlong lead (c0, c1) or beyond U+10FFFF
}

// The allowed range of the second byte, which is where overlong forms, surrogates and code
// points past U+10FFFF show (RFC 3629's table).
bool second_byte_ok(unsigned char lead, unsigned char c) {
  if (lead == 0xe0) return c >= 0xa0 && c <= 0xbf;
  if (lead == 0xed) return c >= 0x80 && c <= 0x9f;
  if (lead == 0xf0) return c >= 0x90 && c <= 0xbf;
  if (lead == 0xf4) return c >= 0x80 && c <= 0x8f;
  return c >= 0x80 && c <= 0xbf;
}

bool is_continuation(unsigned char c) {
  return c >= 0x80 && c <= 0xbf;
}

bool is_ident_start(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool is_ident_char(char c) {
  return is_ident_start(c) || (c >= '0' && c <= '9');
}

}  // namespace

bool is_valid_utf8(std::string_view s) {
  std::size_t i = 0;
  while (i < s.size()) {
    const auto lead = static_cast<unsigned char>(s[i]);
    const int len = sequence_length(lead);
    if (len == 0 || i + static_cast<std::size_t>(len) > s.size()) return false;
    if (len > 1 && !second_byte_ok(lead, static_cast<unsigned char>(s[i + 1]))) return false;
    for (int k = 2; k < len; ++k)
      if (!is_continuation(static_cast<unsigned char>(s[i + static_cast<std::size_t>(k)])))
        return false;
    i += static_cast<std::size_t>(len);
  }
  return true;
}

bool is_c_identifier(std::string_view s) {
  if (s.empty() || !is_ident_start(s[0])) return false;
  for (char c : s)
    if (!is_ident_char(c)) return false;
  return true;
}

void check_utf8(CheckContext& ctx, std::string_view s, const std::string& loc, const char* what) {
  if (is_valid_utf8(s)) return;
  ctx.report("string.not-utf8", loc,
             std::string(what) + " " + quoted_name(std::string(s)) +
                 " is not valid UTF-8; expected UTF-8 text");
}

void check_name(CheckContext& ctx, const std::string& name, const std::string& loc,
                const char* what) {
  if (name.empty()) return;  // whether a name is required is the caller's rule
  if (!is_valid_utf8(name)) {
    check_utf8(ctx, name, loc, what);
    return;
  }
  if (!is_c_identifier(name))
    ctx.report("name.not-c-identifier", loc,
               std::string(what) + " " + quoted_name(name) +
                   " is not a C identifier; expected letters, digits and '_', not starting "
                   "with a digit");
}

void check_metadata(CheckContext& ctx, const MetadataProps& props, const std::string& loc) {
  std::set<std::string> keys;
  for (int i = 0; i < props.size(); ++i) {
    const auto& kv = props.Get(i);
    const std::string where = item_location(loc, "metadata_props", i, kv.key());
    check_utf8(ctx, kv.key(), where, "key");
    check_utf8(ctx, kv.value(), where, "value");
    if (!keys.insert(kv.key()).second)
      ctx.report(
          "metadata.duplicate-key", where,
          "key " + quoted_name(kv.key()) + " appears more than once; expected distinct keys");
  }
}

}  // namespace onnxtool
