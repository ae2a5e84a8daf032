// SPDX-License-Identifier: Apache-2.0
// --dim NAME=VALUE and --input-shape NAME=DIMS, for the commands that infer shapes before they
// answer (shape-infer, info --cost): the same options, parsed the same way.
#pragma once

#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "core/infer/engine.h"

namespace onnxtool::app {

struct ShapeBindings {
  std::vector<std::string> dims;          // NAME=VALUE
  std::vector<std::string> input_shapes;  // NAME=1,3,224,224
  bool empty() const { return dims.empty() && input_shapes.empty(); }
};

void add_shape_binding_options(CLI::App& app, ShapeBindings& b);
// Fills options.dims and options.input_shapes; a malformed argument is a usage error.
void apply_shape_bindings(const ShapeBindings& b, InferOptions& options);

}  // namespace onnxtool::app
