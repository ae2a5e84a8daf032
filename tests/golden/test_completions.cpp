// SPDX-License-Identifier: Apache-2.0
// The completion scripts in completions/ match the command tree (regenerate with
// scripts/gen-completions.sh).
#include <doctest/doctest.h>

#include "tests/support/support.h"

using namespace onnxtool::test;

TEST_CASE("checked-in completion scripts are up to date") {
  const std::pair<const char*, const char*> files[] = {
      {"bash", "onnxtool.bash"}, {"zsh", "_onnxtool"}, {"fish", "onnxtool.fish"}};
  for (const auto& entry : files) {
    const char* shell = entry.first;
    const char* file = entry.second;
    CAPTURE(shell);
    CommandResult r = run_onnxtool({"completions", shell});
    REQUIRE(r.exit_code == 0);
    CHECK(r.out == read_file(source_dir() / "completions" / file));
  }
}
