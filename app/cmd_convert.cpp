// SPDX-License-Identifier: Apache-2.0
// onnxtool convert: placeholder until its issue lands; it says so and fails cleanly.
#include "app/commands.h"

namespace onnxtool::app {

Command add_convert(CLI::App& app, GlobalOptions&) {
  Command c;
  c.app = app.add_subcommand(
      "convert", "convert a model between formats and layouts (binary, text, JSON; external data)");
  c.app->allow_extras();
  c.action = [](const GlobalOptions&, Io& io) {
    io.err << "onnxtool: error: 'convert' is not implemented yet\n";
    return 4;
  };
  return c;
}

}  // namespace onnxtool::app
