// SPDX-License-Identifier: Apache-2.0
// Runs the command line in-process, as main does, with stdout and stderr captured.
#pragma once

#include <sstream>
#include <string>
#include <vector>

#include "app/cli.h"

namespace onnxtool::test {

struct CliRun {
  int code = -1;
  std::string out, err;
};

// args without the program name: {"check", "m.onnx"}.
inline CliRun run_cli(const std::vector<std::string>& args) {
  std::ostringstream out, err;
  app::Io io{out, err, false};
  std::vector<const char*> argv{"onnxtool"};
  for (const auto& a : args) argv.push_back(a.c_str());
  const int code = app::run_cli(static_cast<int>(argv.size()), argv.data(), io);
  return {code, out.str(), err.str()};
}

}  // namespace onnxtool::test
