// SPDX-License-Identifier: Apache-2.0
#include "app/cli_common.h"

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <iostream>
#include <new>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/diag/error.h"

namespace onnxtool::app {

RenderOptions render_options(const GlobalOptions& g, const Io& io) {
  RenderOptions r;
  switch (g.color) {
    case ColorMode::always:
      r.color = true;
      break;
    case ColorMode::never:
      r.color = false;
      break;
    case ColorMode::automatic: {
      const char* no_color = std::getenv("NO_COLOR");
      r.color = io.err_is_terminal && !(no_color && *no_color);
      break;
    }
  }
  return r;
}

void print_diagnostics(const std::vector<Diagnostic>& ds, const GlobalOptions& g, Io& io) {
  std::vector<Diagnostic> shown;
  for (const auto& d : ds)
    if (!g.quiet || d.severity == Severity::error) shown.push_back(d);
  io.err << render_text(shown, render_options(g, io));
}

std::pair<std::string, std::string> split_assignment(const std::string& arg, const char* option,
                                                     const char* example) {
  const auto eq = arg.rfind('=');
  if (eq == std::string::npos || eq == 0)
    throw_usage(std::string(option) + " " + arg + ": expected NAME=" + example);
  return {arg.substr(0, eq), arg.substr(eq + 1)};
}

std::pair<std::string, std::vector<int64_t>> parse_input_shape(const std::string& arg) {
  auto [name, text] = split_assignment(arg, "--input-shape", "1,3,224,224");
  std::vector<int64_t> shape;
  for (std::size_t pos = 0; !text.empty() && pos <= text.size();) {
    const auto comma = std::min(text.find(',', pos), text.size());
    const std::string_view part = std::string_view(text).substr(pos, comma - pos);
    int64_t v = -1;
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    if (ec != std::errc() || end != part.data() + part.size() || v < 0)
      throw_usage("--input-shape " + arg + ": dims must be non-negative integers");
    shape.push_back(v);
    pos = comma + 1;
  }
  return {name, shape};
}

void print_json(const nlohmann::json& j, Io& io) {
  io.out << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
}

int guarded(const GlobalOptions& g, Io& io, const std::function<int()>& f) {
  try {
    return f();
  } catch (const Error& e) {
    print_diagnostics({e.diagnostic()}, g, io);
    return exit_code_for(e.kind());
  } catch (const std::bad_alloc&) {
    io.err << "onnxtool: error: out of memory\n";
    return 4;
  } catch (const std::exception& e) {
    io.err << "onnxtool: internal error: " << e.what() << '\n';
    return 4;
  }
}

int guarded_command(const GlobalOptions& g, Io& io, const std::function<int()>& f) {
  if (!g.json) return guarded(g, io, f);
  nlohmann::json diagnostics = nlohmann::json::array();
  int code = 0;
  try {
    return f();
  } catch (const Error& e) {
    print_diagnostics({e.diagnostic()}, g, io);
    diagnostics.push_back(to_json(e.diagnostic()));
    code = exit_code_for(e.kind());
  } catch (const std::bad_alloc&) {
    io.err << "onnxtool: error: out of memory\n";
    diagnostics.push_back(
        {{"severity", "error"}, {"rule", "internal"}, {"message", "out of memory"}});
    code = 4;
  } catch (const std::exception& e) {
    io.err << "onnxtool: internal error: " << e.what() << '\n';
    diagnostics.push_back({{"severity", "error"}, {"rule", "internal"}, {"message", e.what()}});
    code = 4;
  }
  print_json({{"exit_code", code}, {"diagnostics", diagnostics}}, io);
  return code;
}

void print_json_documents(const nlohmann::json& docs, const GlobalOptions& g, Io& io) {
  if (g.json_lines) {
    for (const auto& d : docs)
      io.out << d.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << '\n';
    return;
  }
  print_json(docs.size() == 1 ? docs[0] : docs, io);
}

}  // namespace onnxtool::app
