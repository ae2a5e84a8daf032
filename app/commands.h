// SPDX-License-Identifier: Apache-2.0
// The list of subcommands. Each cmd_<name>.cpp defines add_<name>.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "app/cli_common.h"

namespace onnxtool::app {

using CommandAdder = Command (*)(CLI::App&, GlobalOptions&);

// One line per subcommand, in the order `onnxtool --help` lists them.
Command add_check(CLI::App& app, GlobalOptions& g);
Command add_info(CLI::App& app, GlobalOptions& g);
Command add_run(CLI::App& app, GlobalOptions& g);
Command add_test(CLI::App& app, GlobalOptions& g);
Command add_shape_infer(CLI::App& app, GlobalOptions& g);
Command add_convert(CLI::App& app, GlobalOptions& g);
Command add_compare(CLI::App& app, GlobalOptions& g);
Command add_diff(CLI::App& app, GlobalOptions& g);
Command add_extract(CLI::App& app, GlobalOptions& g);
Command add_simplify(CLI::App& app, GlobalOptions& g);
Command add_ops(CLI::App& app, GlobalOptions& g);
Command add_completions(CLI::App& app, GlobalOptions& g);
Command add_man_pages(CLI::App& app, GlobalOptions& g);  // hidden: the build writes the man pages

// The completion script for `shell` (bash, zsh or fish) built from the command tree.
std::string completion_script(const CLI::App& app, const std::string& shell);

// The manual pages, (file name, roff text): onnxtool.1 and onnxtool-<command>.1 for each
// visible subcommand.
std::vector<std::pair<std::string, std::string>> man_pages(const CLI::App& root);

std::vector<CommandAdder> all_command_adders();

}  // namespace onnxtool::app
