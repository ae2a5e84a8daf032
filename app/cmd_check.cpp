// SPDX-License-Identifier: Apache-2.0
// onnxtool check: placeholder until its issue lands; it says so and fails cleanly.
#include "app/commands.h"

namespace onnxtool::app {

Command add_check(CLI::App& app, GlobalOptions&) {
  Command c;
  c.app = app.add_subcommand("check", "validate models against the ONNX spec and operator schemas");
  c.app->allow_extras();
  c.action = [](const GlobalOptions&, Io& io) {
    io.err << "onnxtool: error: 'check' is not implemented yet\n";
    return 4;
  };
  return c;
}

}  // namespace onnxtool::app
