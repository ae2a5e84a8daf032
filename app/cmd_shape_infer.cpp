// SPDX-License-Identifier: Apache-2.0
// onnxtool shape-infer: placeholder until its issue lands; it says so and fails cleanly.
#include "app/commands.h"

namespace onnxtool::app {

Command add_shape_infer(CLI::App& app, GlobalOptions&) {
  Command c;
  c.app = app.add_subcommand("shape-infer", "infer types and shapes of every value");
  c.app->allow_extras();
  c.action = [](const GlobalOptions&, Io& io) {
    io.err << "onnxtool: error: 'shape-infer' is not implemented yet\n";
    return 4;
  };
  return c;
}

}  // namespace onnxtool::app
