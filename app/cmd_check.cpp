// SPDX-License-Identifier: Apache-2.0
// onnxtool check: validate models against the ONNX spec and the operator schemas.
//
// Diagnostics go to stderr (one line each, repeats folded); one summary line per file goes to
// stdout, so `onnxtool check *.onnx > results` keeps the verdicts and a terminal still shows
// the details. With --json everything is one document on stdout.
#include <algorithm>
#include <cstdint>
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "core/check/check.h"
#include "core/diag/error.h"
#include "core/util/format.h"

namespace onnxtool::app {

namespace {

struct CheckCmdOptions {
  std::vector<std::string> files;
  bool strict = false;
  bool verify_data = false;
  bool full = false;
  std::size_t max_errors = SIZE_MAX;
  std::string data_dir;
};

struct FileResult {
  std::string file;
  int code = 0;
  std::size_t errors = 0, warnings = 0, dropped = 0;
  std::vector<Diagnostic> diagnostics;
};

FileResult check_one(const std::string& file, const CheckCmdOptions& opt, const GlobalOptions& g,
                     Io& io) {
  CheckOptions co;
  co.strict = opt.strict;
  co.verify_data = opt.verify_data;
  co.full = opt.full;
  if (!opt.data_dir.empty()) co.data_dir = opt.data_dir;
  DiagSink sink(opt.max_errors);
  sink.set_file(file == "-" ? "<stdin>" : file);
  FileResult r;
  r.file = sink.file();
  r.code = guarded(g, io, [&] { return check_file(file, co, sink); });
  r.errors = sink.errors();
  r.warnings = sink.warnings();
  r.dropped = sink.dropped();
  r.diagnostics = sink.diagnostics();
  return r;
}

// "model.onnx: valid", "model.onnx: invalid: 3 errors, 1 warning", "x.onnx: not read (I/O error)"
std::string summary_line(const FileResult& r) {
  std::string s = r.file + ": ";
  if (r.code == 3) return s + "not read (I/O error)";
  if (r.code == 4) return s + "not checked (internal error)";
  s += r.code == 0 ? "valid" : "invalid";
  std::string counts;
  if (r.errors) counts += plural(r.errors, "error");
  if (r.warnings) counts += (counts.empty() ? "" : ", ") + plural(r.warnings, "warning");
  if (!counts.empty()) s += (r.code == 0 ? ", " : ": ") + counts;
  if (r.dropped) s += " (" + std::to_string(r.dropped) + " more not shown, --max-errors)";
  return s;
}

nlohmann::json to_json(const FileResult& r) {
  return {{"file", r.file},
          {"valid", r.code == 0},
          {"exit_code", r.code},
          {"errors", r.errors},
          {"warnings", r.warnings},
          {"dropped", r.dropped},
          {"diagnostics", onnxtool::to_json(r.diagnostics)}};
}

int run_check(const CheckCmdOptions& opt, const GlobalOptions& g, Io& io) {
  int status = 0;
  nlohmann::json docs = nlohmann::json::array();
  for (const auto& file : opt.files) {
    FileResult r = check_one(file, opt, g, io);
    status = std::max(status, r.code);
    if (g.json) {
      docs.push_back(to_json(r));
      continue;
    }
    print_diagnostics(r.diagnostics, g, io);
    if (!g.quiet || r.code != 0) io.out << summary_line(r) << '\n';
  }
  if (g.json) print_json(docs.size() == 1 ? docs[0] : docs, io);
  return status;
}

}  // namespace

Command add_check(CLI::App& app, GlobalOptions&) {
  auto opt = std::make_shared<CheckCmdOptions>();
  Command c;
  c.app = app.add_subcommand("check", "validate models against the ONNX spec and operator schemas");
  c.app->add_option("model", opt->files, "model files (- for stdin)")->required();
  c.app->add_flag("--strict", opt->strict,
                  "treat SHOULD-level findings (non-C-identifier names, duplicate node names, "
                  "experimental operators) as errors");
  c.app->add_option("--max-errors", opt->max_errors,
                    "keep at most N diagnostics per file (counts stay exact)");
  c.app->add_flag("--verify-data", opt->verify_data,
                  "read external data files and verify their SHA1 checksums");
  c.app->add_flag("--full", opt->full,
                  "also run type and shape inference (as shape-infer does) on a structurally "
                  "valid model; with --strict its conflicts are errors");
  c.app->add_option("--data-dir", opt->data_dir,
                    "directory holding external data (default: the model's directory)");
  c.action = [opt](const GlobalOptions& g, Io& io) { return run_check(*opt, g, io); };
  return c;
}

}  // namespace onnxtool::app
