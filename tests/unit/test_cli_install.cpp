// SPDX-License-Identifier: Apache-2.0
// What an installed onnxtool brings besides the binary: man pages generated from the command
// tree (one per subcommand, every option in it, valid roff) and the completions.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>

#include "app/cli.h"
#include "app/commands.h"
#include "core/registry/registry.h"
#include "ops/register_all.h"
#include "tests/support/support.h"

using namespace onnxtool;

using test::shell_output;

TEST_CASE("man pages: onnxtool(1) and one per visible subcommand, with every option") {
  app::CliTree tree;
  app::build_cli(tree);
  const auto pages = app::man_pages(tree.app);
  std::set<std::string> names;
  for (const auto& [name, text] : pages) names.insert(name);
  CHECK(names.count("onnxtool.1"));
  for (const CLI::App* sub : tree.app.get_subcommands({})) {
    const bool hidden = sub->get_group().empty();
    const std::string page = "onnxtool-" + sub->get_name() + ".1";
    CHECK_MESSAGE(names.count(page) == (hidden ? 0u : 1u), page);
    if (hidden) continue;
    const auto& text = std::find_if(pages.begin(), pages.end(), [&](const auto& p) {
                         return p.first == page;
                       })->second;
    CHECK(text.rfind(".TH ONNXTOOL\\-", 0) == 0);
    for (const CLI::Option* o : sub->get_options())
      for (const auto& l : o->get_lnames()) {
        if (l == "help") continue;  // every page has it; the pages leave it out
        std::string escaped;
        for (char c : l) escaped += c == '-' ? std::string("\\-") : std::string(1, c);
        CHECK_MESSAGE(text.find("\\-\\-" + escaped) != std::string::npos, (page + " --" + l));
      }
  }
}

TEST_CASE("man pages render without roff warnings") {
  if (std::system("command -v groff >/dev/null 2>&1") != 0) {
    FAIL("groff is not installed (scripts/test.sh installs groff-base)");
    return;
  }
  test::TempDir dir;
  app::CliTree tree;
  app::build_cli(tree);
  for (const auto& [name, text] : app::man_pages(tree.app)) {
    std::ofstream(dir / name) << text;
    const std::string cmd =
        "groff -man -Tutf8 -ww -z '" + (dir / name).string() + "' 2>&1 >/dev/null";
    CHECK_MESSAGE(shell_output(cmd).empty(), name);
    const std::string rendered =
        shell_output("groff -man -Tutf8 -P-cbou '" + (dir / name).string() + "' 2>/dev/null");
    CHECK(rendered.find("NAME") != std::string::npos);
  }
}
