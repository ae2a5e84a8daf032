// SPDX-License-Identifier: Apache-2.0
#pragma once

#include <CLI/CLI.hpp>

#include "app/cli_common.h"

namespace onnxtool::app {

// Builds the whole command tree (used by main and by the completion generator).
struct CliTree {
  CLI::App app{"onnxtool: check, inspect, run, infer and convert ONNX models", "onnxtool"};
  GlobalOptions global;
  std::vector<Command> commands;
  bool version = false;  // --version
};
void build_cli(CliTree& tree);

// Parses argv and runs the chosen subcommand; returns the process exit code.
int run_cli(int argc, const char* const* argv, Io& io);

std::string version_text();

}  // namespace onnxtool::app
