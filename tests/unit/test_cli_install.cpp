// SPDX-License-Identifier: Apache-2.0
// What an installed onnxtool brings besides the binary: man pages generated from the command
// tree (one per subcommand, every option in it, valid roff) and the completions.
#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "app/cli.h"
#include "app/cli_progress.h"
#include "app/commands.h"
#include "core/registry/registry.h"
#include "ops/register_all.h"
#include "tests/support/cli_run.h"
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
  // (Not a structured binding: clang 14 cannot capture one in doctest's message lambda.)
  for (const auto& page : app::man_pages(tree.app)) {
    const std::string& name = page.first;
    std::ofstream(dir / name) << page.second;
    const std::string cmd =
        "groff -man -Tutf8 -ww -z '" + (dir / name).string() + "' 2>&1 >/dev/null";
    CHECK_MESSAGE(shell_output(cmd).empty(), name);
    const std::string rendered =
        shell_output("groff -man -Tutf8 -P-cbou '" + (dir / name).string() + "' 2>/dev/null");
    CHECK(rendered.find("NAME") != std::string::npos);
  }
}

TEST_CASE("progress: on a terminal only, never with --json or -q, erased when done") {
  std::ostringstream out, err;
  app::Io tty{out, err, true};
  app::GlobalOptions g;
  {
    app::Progress p(tty, g, 12);
    CHECK(p.active());
    p.start(0, "first.onnx");
    p.start(11, "last.onnx");
  }
  CHECK(err.str().find("[ 1/12] 0:00 elapsed  first.onnx") != std::string::npos);
  CHECK(err.str().find("[12/12]") != std::string::npos);
  CHECK(err.str().substr(err.str().size() - 4) == "\r\x1b[K");
  std::ostringstream err2;
  app::Io pipe{out, err2, false};
  app::Progress not_tty(pipe, g, 12);
  not_tty.start(0, "x");
  g.json = true;
  app::Progress json(tty, g, 12);
  CHECK_FALSE(json.active());
  g.json = false;
  g.quiet = true;
  app::Progress quiet(tty, g, 12);
  CHECK_FALSE(quiet.active());
  CHECK(err2.str().empty());
  CHECK(app::clock_text(61.4) == "1:01");
  CHECK(app::clock_text(3725) == "1:02:05");
}

TEST_CASE("command line: a misspelt command gets a suggestion, help works as a command") {
  auto r = test::run_cli({"chek", "m.onnx"});
  CHECK(r.code == 2);
  CHECK(r.err.find("no command 'chek'; did you mean 'check'?") != std::string::npos);
  r = test::run_cli({"--threads", "2", "frobnicate"});
  CHECK(r.code == 2);
  CHECK(r.err.find("the commands are check, info,") != std::string::npos);
  r = test::run_cli({"help"});
  CHECK(r.code == 0);
  CHECK(r.out.find("Usage: onnxtool") != std::string::npos);
  r = test::run_cli({"help", "check"});
  CHECK(r.code == 0);
  CHECK(r.out.find("--list-rules") != std::string::npos);
  // A command's help lists the global options too.
  CHECK(r.out.find("Global options") != std::string::npos);
  CHECK(r.out.find("--threads") != std::string::npos);
  CHECK(test::run_cli({"info", "--help"}).out.find("--json-lines") != std::string::npos);
  // The word after a global option's value is still the command.
  CHECK(test::run_cli({"--color", "never", "ops", "--json"}).code == 0);
}
