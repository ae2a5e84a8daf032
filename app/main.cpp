// SPDX-License-Identifier: Apache-2.0
// onnxtool: one program for checking, inspecting, running, inferring and converting ONNX models.
#include <unistd.h>

#include <iostream>

#include "app/cli.h"

int main(int argc, char** argv) {
  onnxtool::app::Io io{std::cout, std::cerr, isatty(STDERR_FILENO) != 0};
  return onnxtool::app::run_cli(argc, argv, io);
}
