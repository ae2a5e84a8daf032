// SPDX-License-Identifier: Apache-2.0
// Every rule the checker reports: a stable id, its severity, and one line saying what it
// forbids. The table is the single source for the README's rule list and for the test that
// holds one invalid fixture per rule.
#pragma once

#include <span>
#include <string_view>

#include "core/diag/diagnostic.h"

namespace onnxtool {

struct CheckRule {
  std::string_view id;
  Severity severity;
  // A warning that --strict turns into an error: things the spec asks for (SHOULD, or a MUST
  // that exporters commonly break) where a finding is noise for most users but a failure for a
  // CI that wants spotless models.
  bool strict;
  std::string_view summary;
};

// Every checker rule, grouped by what it is about (model, graph, type, node, attr, tensor,
// sparse, function, training, device, sharding, name, string).
std::span<const CheckRule> check_rules();
// nullptr for ids that are not checker rules (load and external-data rules, for instance).
const CheckRule* find_check_rule(std::string_view id);

// Everything `check` can report: the checker's rules, then reading the model (binary, text,
// JSON), its external data, and inference (--full). `strict` marks what --strict makes errors.
std::span<const CheckRule> reported_rules();
const CheckRule* find_reported_rule(std::string_view id);

}  // namespace onnxtool
