// SPDX-License-Identifier: Apache-2.0
#include "app/cli_rule_config.h"

#include <fstream>
#include <sstream>
#include <string_view>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/check/rules.h"
#include "core/diag/error.h"
#include "core/ir/location.h"

namespace onnxtool::app {

namespace fs = std::filesystem;

namespace {

std::vector<std::string_view> known_rule_ids() {
  std::vector<std::string_view> ids;
  for (const auto& r : reported_rules()) ids.push_back(r.id);
  return ids;
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> parts;
  std::string part;
  std::istringstream in(text);
  while (std::getline(in, part, ','))
    if (!part.empty()) parts.push_back(part);
  return parts;
}

void add_flags(RulePolicy& policy, const std::vector<std::string>& patterns, RuleAction action) {
  for (const auto& arg : patterns)
    for (auto& p : split_commas(arg))
      policy.add(p, action, std::string("--") + rule_action_name(action));
}

[[noreturn]] void config_error(const fs::path& file, const std::string& what) {
  throw_usage(file.string() + ": " + what);
}

std::vector<std::string> string_list(const nlohmann::json& value, const fs::path& file,
                                     const std::string& key) {
  if (value.is_string()) return {value.get<std::string>()};
  if (!value.is_array())
    config_error(file, "\"" + key + "\" must be a rule id, a glob, or a list of them");
  std::vector<std::string> out;
  for (const auto& v : value) {
    if (!v.is_string()) config_error(file, "\"" + key + "\" must list strings (rule ids or globs)");
    out.push_back(v.get<std::string>());
  }
  return out;
}

nlohmann::json read_config(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw_io("io.open", file.string(), "cannot read this rule configuration");
  std::ostringstream text;
  text << in.rdbuf();
  try {
    auto j = nlohmann::json::parse(text.str());
    if (!j.is_object()) config_error(file, "expected a JSON object");
    return j;
  } catch (const nlohmann::json::parse_error& e) {
    config_error(file, std::string("not valid JSON: ") + e.what());
  }
}

void add_config(RuleConfig& rc, const fs::path& file) {
  const auto j = read_config(file);
  for (const auto& [key, value] : j.items()) {
    if (key == "ignore" || key == "warn" || key == "error") {
      const RuleAction action = key == "ignore" ? RuleAction::ignore
                                : key == "warn" ? RuleAction::warn
                                                : RuleAction::error;
      for (auto& p : string_list(value, file, key)) rc.policy.add(p, action, file.string());
    } else if (key == "strict") {
      if (!value.is_boolean()) config_error(file, "\"strict\" must be true or false");
      rc.strict = value.get<bool>();
    } else if (key != "$schema" && key != "comment") {
      config_error(file, "unknown key \"" + key + "\"; expected ignore, warn, error or strict");
    }
  }
  rc.config_file = file.string();
}

void require_known(const RulePolicy& policy) {
  const auto ids = known_rule_ids();
  if (const auto* s = policy.first_unmatched(ids)) {
    throw_usage(s->origin + " " + quoted_name(s->pattern) +
                ": no rule has that id; 'onnxtool check --list-rules' lists them");
  }
}

}  // namespace

std::optional<fs::path> find_rule_config(const fs::path& start_dir) {
  std::error_code ec;
  fs::path dir = fs::absolute(start_dir, ec).lexically_normal();
  if (ec) return std::nullopt;
  while (true) {
    const fs::path candidate = dir / kRuleConfigName;
    if (fs::is_regular_file(candidate, ec)) return candidate;
    if (!dir.has_relative_path()) return std::nullopt;
    dir = dir.parent_path();
  }
}

RuleConfigResolver::RuleConfigResolver(RuleFlags flags) : flags_(std::move(flags)) {}

void RuleConfigResolver::validate_flags() const {
  RuleConfig rc;
  add_flags(rc.policy, flags_.ignore, RuleAction::ignore);
  add_flags(rc.policy, flags_.warn, RuleAction::warn);
  add_flags(rc.policy, flags_.error, RuleAction::error);
  require_known(rc.policy);
}

RuleConfig RuleConfigResolver::build(const std::optional<fs::path>& config) const {
  RuleConfig rc;
  if (config) add_config(rc, *config);
  // The command line after the file: of two equally specific settings the later wins. Its own
  // flags go ignore, warn, error, so that an exact `--error R` beats a tie with `--ignore R`.
  add_flags(rc.policy, flags_.ignore, RuleAction::ignore);
  add_flags(rc.policy, flags_.warn, RuleAction::warn);
  add_flags(rc.policy, flags_.error, RuleAction::error);
  require_known(rc.policy);
  return rc;
}

const RuleConfig& RuleConfigResolver::for_model(const std::string& model_path) {
  std::optional<fs::path> config;
  if (!flags_.config.empty()) {
    config = flags_.config;
  } else if (!flags_.no_config) {
    const fs::path dir = model_path == "-" ? fs::path(".") : fs::path(model_path).parent_path();
    config = find_rule_config(dir.empty() ? fs::path(".") : dir);
  }
  const std::string key = config ? config->string() : std::string();
  auto it = by_config_.find(key);
  if (it == by_config_.end()) it = by_config_.emplace(key, build(config)).first;
  return it->second;
}

}  // namespace onnxtool::app
