// SPDX-License-Identifier: Apache-2.0
// onnxtool ops: placeholder until its issue lands; it says so and fails cleanly.
#include "app/commands.h"

namespace onnxtool::app {

Command add_ops(CLI::App& app, GlobalOptions&) {
  Command c;
  c.app = app.add_subcommand("ops", "list the operators this build knows");
  c.app->allow_extras();
  c.action = [](const GlobalOptions&, Io& io) {
    io.err << "onnxtool: error: 'ops' is not implemented yet\n";
    return 4;
  };
  return c;
}

}  // namespace onnxtool::app
