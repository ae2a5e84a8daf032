// SPDX-License-Identifier: Apache-2.0
// What `check` found in each file, and the machine formats it writes: its own JSON, SARIF 2.1.0,
// JUnit XML and GitHub Actions workflow commands.
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/diag/diagnostic.h"

namespace onnxtool::app {

struct CheckFileResult {
  std::string file;
  int code = 0;  // 0 valid, 1 invalid, 3 not read, 4 internal error
  std::size_t errors = 0, warnings = 0, dropped = 0;
  std::vector<Diagnostic> diagnostics;
};

enum class CheckFormat { text, json, sarif, junit, github };

nlohmann::json check_result_json(const CheckFileResult& r);

// One run: the tool with its version and every rule `check` can report (id, descriptions,
// default level, help), then one result per finding with the model file as the artifact and
// the path inside the model as a logical location. exit_code is the run's.
nlohmann::json check_sarif(const std::vector<CheckFileResult>& results, int exit_code);

// One <testsuite> per model, one <testcase> per rule family (model, graph, node, ...) that the
// checker has, failed when the family has an error, with every error's line in the text.
void write_check_junit(const std::vector<CheckFileResult>& results, std::ostream& out);

// One workflow command per finding (errors, warnings and notes as ::error, ::warning and
// ::notice), titled with the rule, then a summary line per file as ::notice or ::error.
void write_check_github(const std::vector<CheckFileResult>& results, std::ostream& out);

}  // namespace onnxtool::app
