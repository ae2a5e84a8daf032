// SPDX-License-Identifier: Apache-2.0
#include "app/cli_shape_bindings.h"

#include <charconv>
#include <optional>
#include <string_view>

#include "app/cli_common.h"
#include "core/diag/error.h"

namespace onnxtool::app {

namespace {

std::optional<int64_t> parse_int(std::string_view s) {
  int64_t v = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

void add_shape_binding_options(CLI::App& app, ShapeBindings& b) {
  app.add_option("--dim", b.dims, "fix a dim_param before inference: NAME=VALUE")
      ->type_name("NAME=VALUE")
      ->allow_extra_args(false);
  app.add_option("--input-shape", b.input_shapes,
                 "fix an input's shape before inference: NAME=1,3,224,224")
      ->type_name("NAME=DIMS")
      ->allow_extra_args(false);
}

void apply_shape_bindings(const ShapeBindings& b, InferOptions& options) {
  for (const auto& arg : b.dims) {
    auto [name, text] = split_assignment(arg, "--dim", "VALUE");
    auto v = parse_int(text);
    if (!v || *v < 0) throw_usage("--dim " + arg + ": the value must be a non-negative integer");
    options.dims[name] = *v;
  }
  for (const auto& arg : b.input_shapes) {
    auto [name, shape] = parse_input_shape(arg);
    options.input_shapes[name] = shape;
  }
}

}  // namespace onnxtool::app
