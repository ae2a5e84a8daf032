// SPDX-License-Identifier: Apache-2.0
// The test suites' main: the standard operators (ops/) are installed and the log level set as
// the program does it, then doctest runs.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <spdlog/spdlog.h>

#include "core/registry/registry.h"
#include "ops/register_all.h"

int main(int argc, char** argv) {
  onnxtool::Registry::install_standard(onnxtool::register_standard_ops);
  // As the program without -v: progress lines (each executor pass, say) stay quiet.
  spdlog::set_level(spdlog::level::warn);
  return doctest::Context(argc, argv).run();
}
