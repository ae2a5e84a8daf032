// SPDX-License-Identifier: Apache-2.0
// Rule configuration, as linters have it: a rule (or a glob of rules, `name.*`) can be ignored,
// or have its findings reported as warnings or as errors whatever their default severity. The
// sink applies the policy as findings arrive, so counts and verdicts follow it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/diag/diagnostic.h"

namespace onnxtool {

enum class RuleAction { ignore, warn, error };

const char* rule_action_name(RuleAction a);

// `*` matches any run of characters (dots included), `?` one character; everything else
// matches itself.
bool rule_glob_match(std::string_view pattern, std::string_view rule);

class RulePolicy {
 public:
  struct Setting {
    std::string pattern;
    RuleAction action;
    std::string origin;  // where it was set: "--ignore", "/repo/.onnxtool.json", ...
  };

  void add(std::string pattern, RuleAction action, std::string origin);
  bool empty() const { return settings_.empty(); }
  const std::vector<Setting>& settings() const { return settings_; }

  // The setting that governs rule: of those whose pattern matches, the most specific (the most
  // characters that are not wildcards), and of equally specific ones the last added. nullptr
  // when none matches.
  const Setting* governing(std::string_view rule) const;

  // Applies the policy to d: false when d is to be dropped, else true with its severity set.
  bool apply(Diagnostic& d) const;

  // The first setting whose pattern names no rule of known_rules (a typo), or nullptr.
  const Setting* first_unmatched(std::span<const std::string_view> known_rules) const;

 private:
  std::vector<Setting> settings_;
};

}  // namespace onnxtool
