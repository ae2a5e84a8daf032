// SPDX-License-Identifier: Apache-2.0
#include "core/diag/rule_policy.h"

#include <algorithm>

namespace onnxtool {

const char* rule_action_name(RuleAction a) {
  switch (a) {
    case RuleAction::ignore:
      return "ignore";
    case RuleAction::warn:
      return "warn";
    case RuleAction::error:
      return "error";
  }
  return "ignore";
}

bool rule_glob_match(std::string_view pattern, std::string_view rule) {
  // Iterative matching with one backtrack point (the last `*`): linear in practice, and no
  // recursion for a hostile pattern of many stars.
  std::size_t p = 0, r = 0, star = std::string_view::npos, resume = 0;
  while (r < rule.size()) {
    if (p < pattern.size() && (pattern[p] == '?' || pattern[p] == rule[r])) {
      ++p;
      ++r;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      resume = r;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      r = ++resume;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

namespace {

std::size_t specificity(std::string_view pattern) {
  return static_cast<std::size_t>(
      std::count_if(pattern.begin(), pattern.end(), [](char c) { return c != '*' && c != '?'; }));
}

}  // namespace

void RulePolicy::add(std::string pattern, RuleAction action, std::string origin) {
  settings_.push_back({std::move(pattern), action, std::move(origin)});
}

const RulePolicy::Setting* RulePolicy::governing(std::string_view rule) const {
  const Setting* best = nullptr;
  for (const auto& s : settings_) {
    if (!rule_glob_match(s.pattern, rule)) continue;
    if (!best || specificity(s.pattern) >= specificity(best->pattern)) best = &s;
  }
  return best;
}

bool RulePolicy::apply(Diagnostic& d) const {
  if (settings_.empty() || d.rule.empty()) return true;
  const Setting* s = governing(d.rule);
  if (!s) return true;
  switch (s->action) {
    case RuleAction::ignore:
      return false;
    case RuleAction::warn:
      d.severity = Severity::warning;
      return true;
    case RuleAction::error:
      d.severity = Severity::error;
      return true;
  }
  return true;
}

const RulePolicy::Setting* RulePolicy::first_unmatched(
    std::span<const std::string_view> known_rules) const {
  for (const auto& s : settings_) {
    const bool names_one = std::any_of(known_rules.begin(), known_rules.end(),
                                       [&](auto id) { return rule_glob_match(s.pattern, id); });
    if (!names_one) return &s;
  }
  return nullptr;
}

}  // namespace onnxtool
