// SPDX-License-Identifier: Apache-2.0
// onnxtool test: placeholder until its issue lands; it says so and fails cleanly.
#include "app/commands.h"

namespace onnxtool::app {

Command add_test(CLI::App& app, GlobalOptions&) {
  Command c;
  c.app = app.add_subcommand("test", "run folders of ONNX backend tests (model + test_data_set_N)");
  c.app->allow_extras();
  c.action = [](const GlobalOptions&, Io& io) {
    io.err << "onnxtool: error: 'test' is not implemented yet\n";
    return 4;
  };
  return c;
}

}  // namespace onnxtool::app
