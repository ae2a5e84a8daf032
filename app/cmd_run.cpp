// SPDX-License-Identifier: Apache-2.0
// onnxtool run: placeholder until its issue lands; it says so and fails cleanly.
#include "app/commands.h"

namespace onnxtool::app {

Command add_run(CLI::App& app, GlobalOptions&) {
  Command c;
  c.app = app.add_subcommand("run", "run a model with the reference executor");
  c.app->allow_extras();
  c.action = [](const GlobalOptions&, Io& io) {
    io.err << "onnxtool: error: 'run' is not implemented yet\n";
    return 4;
  };
  return c;
}

}  // namespace onnxtool::app
