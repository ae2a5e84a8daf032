// SPDX-License-Identifier: Apache-2.0
#include "app/cli_common.h"

#include <cstdlib>
#include <iostream>
#include <new>

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
