// SPDX-License-Identifier: Apache-2.0
// `check` on every model of the ONNX backend test data: none has an error (warnings, such as
// names that are not C identifiers, are allowed and counted).
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>

#include "core/check/check.h"
#include "core/diag/diagnostic.h"
#include "tests/support/support.h"

using namespace onnxtool;
namespace fs = std::filesystem;

TEST_CASE("every backend test model checks without errors") {
  const fs::path root =
      test::require_shared_dir("check on every backend test model") / "onnx-backend-tests";
  std::vector<fs::path> models;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file() && e.path().extension() == ".onnx") models.push_back(e.path());
  std::sort(models.begin(), models.end());
  REQUIRE(models.size() > 1500);
  std::map<std::string, int> warnings;
  int clean = 0;
  for (const auto& path : models) {
    DiagSink sink;
    const int code = check_file(path.string(), {}, sink);
    std::string errors;
    for (const auto& d : sink.diagnostics()) {
      if (d.severity == Severity::error) errors += render_text(d, {});
      if (d.severity == Severity::warning) ++warnings[d.rule];
    }
    CHECK_MESSAGE(code == 0, path.string() << "\n" << errors);
    if (code == 0) ++clean;
  }
  std::cout << "check: " << clean << " of " << models.size()
            << " backend test models have no errors; warnings:";
  for (const auto& [rule, n] : warnings) std::cout << " " << rule << " " << n;
  std::cout << "\n";
}
