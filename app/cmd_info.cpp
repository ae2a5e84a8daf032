// SPDX-License-Identifier: Apache-2.0
#include "app/commands.h"

namespace onnxtool::app {

Command add_info(CLI::App& app, GlobalOptions&) {
  Command c;
  c.app = app.add_subcommand("info", "inspect a model: metadata, interface, weights, operators");
  c.action = [](const GlobalOptions&, Io&) { return 0; };
  return c;
}

}  // namespace onnxtool::app
