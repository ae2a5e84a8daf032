// SPDX-License-Identifier: Apache-2.0
// What every subcommand shares: global options, output helpers and the error-to-exit-code rule.
#pragma once

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

#include "core/diag/diagnostic.h"

namespace onnxtool::app {

enum class ColorMode { automatic, always, never };

struct GlobalOptions {
  bool json = false;
  // --json-lines: commands that take several files (check, info) print one compact JSON
  // document per file and line, whatever the count, instead of an object or an array.
  bool json_lines = false;
  bool quiet = false;
  int verbose = 0;
  ColorMode color = ColorMode::automatic;
  int threads = 0;  // 0: all cores
};

// The streams a command writes to; tests point them at strings.
struct Io {
  std::ostream& out;
  std::ostream& err;
  bool err_is_terminal = false;
};

// Each subcommand registers itself and sets `action` to the function that runs it once the
// command line is parsed; the action returns the exit code.
using Action = std::function<int(const GlobalOptions&, Io&)>;
struct Command {
  CLI::App* app = nullptr;
  Action action;
};

RenderOptions render_options(const GlobalOptions& g, const Io& io);
// Prints diagnostics to err (text), unless quiet hides notes and warnings.
void print_diagnostics(const std::vector<Diagnostic>& ds, const GlobalOptions& g, Io& io);
// "NAME=VALUE" split at the last '=' (names may hold '='); a usage error naming the option and
// showing `example` otherwise.
std::pair<std::string, std::string> split_assignment(const std::string& arg, const char* option,
                                                     const char* example);
// --input-shape NAME=1,3,224,224: the name and the dims (non-negative integers).
std::pair<std::string, std::vector<int64_t>> parse_input_shape(const std::string& arg);

// Writes a JSON document to out, pretty-printed, newline-terminated.
void print_json(const nlohmann::json& j, Io& io);

// Runs f, turning an onnxtool::Error into its diagnostic and exit code, and any other exception
// into an internal error (exit 4). Never lets an exception escape.
int guarded(const GlobalOptions& g, Io& io, const std::function<int()>& f);

// As guarded, for a command's whole action: with --json a failure also prints a JSON document
// on stdout, {"exit_code": N, "diagnostics": [...]}, so a script reading stdout always gets one.
int guarded_command(const GlobalOptions& g, Io& io, const std::function<int()>& f);

// Prints one JSON document per file: an object for one file and an array for several (the
// documented shape), or with --json-lines each on its own line.
void print_json_documents(const nlohmann::json& docs, const GlobalOptions& g, Io& io);

}  // namespace onnxtool::app
