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

}  // namespace onnxtool::app
