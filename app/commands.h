// SPDX-License-Identifier: Apache-2.0
// The list of subcommands. Each cmd_<name>.cpp defines add_<name>.
#pragma once

#include <vector>

#include "app/cli_common.h"

namespace onnxtool::app {

using CommandAdder = Command (*)(CLI::App&, GlobalOptions&);

Command add_info(CLI::App& app, GlobalOptions& g);

std::vector<CommandAdder> all_command_adders();

}  // namespace onnxtool::app
