// SPDX-License-Identifier: Apache-2.0
// Rule configuration for `check`: --ignore/--warn/--error on the command line and a
// .onnxtool.json, found from the model's directory upwards or named with --config, so that a
// repository pins its policy once.
//
//   { "ignore": ["name.not-c-identifier"], "warn": ["graph.value-info-*"],
//     "error": ["infer.*"], "strict": true }
//
// The file's settings come first and the command line's after them; of the settings whose
// pattern matches a rule, the most specific wins (core/diag/rule_policy.h).
#pragma once

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/diag/rule_policy.h"

namespace onnxtool::app {

struct RuleFlags {
  std::vector<std::string> ignore, warn, error;  // globs, each may hold several, comma-separated
  std::string config;                            // --config FILE
  bool no_config = false;                        // --no-config: the command line only
};

struct RuleConfig {
  RulePolicy policy;
  bool strict = false;
  std::string config_file;  // the .onnxtool.json in effect, "" when none
};

inline constexpr const char* kRuleConfigName = ".onnxtool.json";

// The nearest .onnxtool.json in start_dir or a directory above it; nullopt when there is none.
std::optional<std::filesystem::path> find_rule_config(const std::filesystem::path& start_dir);

// Builds the configuration for a model in model_dir, reading each config file once (cache).
// Throws a usage Error for a malformed file, an unknown key, or a pattern that names no rule.
class RuleConfigResolver {
 public:
  explicit RuleConfigResolver(RuleFlags flags);
  // Validates the command line's patterns alone (before any model is read).
  void validate_flags() const;
  const RuleConfig& for_model(const std::string& model_path);

 private:
  RuleConfig build(const std::optional<std::filesystem::path>& config) const;

  RuleFlags flags_;
  std::map<std::string, RuleConfig> by_config_;
};

}  // namespace onnxtool::app
