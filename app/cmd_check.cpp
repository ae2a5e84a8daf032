// SPDX-License-Identifier: Apache-2.0
// onnxtool check: validate models against the ONNX spec and the operator schemas.
//
// Text: diagnostics go to stderr (one line each, each rule's findings folded after three unless
// -v), one summary line per file to stdout, so `onnxtool check *.onnx > results` keeps the
// verdicts and a terminal still shows the details. Machine formats (--format json, sarif,
// junit, github) write one document, or the workflow commands, on stdout with every finding.
#include <algorithm>
#include <cstdint>
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/cli_check_report.h"
#include "app/cli_progress.h"
#include "app/cli_rule_config.h"
#include "app/commands.h"
#include "core/check/check.h"
#include "core/check/rules.h"
#include "core/diag/error.h"
#include "core/util/format.h"

namespace onnxtool::app {

namespace {

struct CheckCmdOptions {
  std::vector<std::string> files;
  bool strict = false;
  bool verify_data = false;
  bool full = false;
  bool list_rules = false;
  std::size_t max_errors = SIZE_MAX;
  std::string data_dir;
  std::string format;  // "" means text, or json with the global --json
  RuleFlags rules;
};

CheckFileResult check_one(const std::string& file, const CheckCmdOptions& opt, const RuleConfig& rc,
                          const GlobalOptions& g, Io& io) {
  CheckOptions co;
  co.strict = opt.strict || rc.strict;
  co.verify_data = opt.verify_data;
  co.full = opt.full;
  if (!opt.data_dir.empty()) co.data_dir = opt.data_dir;
  DiagSink sink(opt.max_errors);
  sink.set_file(file == "-" ? "<stdin>" : file);
  sink.set_policy(&rc.policy);
  CheckFileResult r;
  r.file = sink.file();
  // check_file's verdict comes from the sink, so it already follows the rule policy.
  r.code = guarded(g, io, [&] { return check_file(file, co, sink); });
  r.errors = sink.errors();
  r.warnings = sink.warnings();
  r.dropped = sink.dropped();
  r.diagnostics = sink.diagnostics();
  return r;
}

// "model.onnx: valid", "model.onnx: invalid: 3 errors, 1 warning", "x.onnx: not read (I/O error)"
std::string summary_line(const CheckFileResult& r) {
  std::string s = r.file + ": ";
  if (r.code == 3)
    return s + (r.errors > 1
                    ? "a file it needs could not be read (I/O error), " + plural(r.errors, "error")
                    : "not read (I/O error)");
  if (r.code == 4) return s + "not checked (internal error)";
  s += r.code == 0 ? "valid" : "invalid";
  std::string counts;
  if (r.errors) counts += plural(r.errors, "error");
  if (r.warnings) counts += (counts.empty() ? "" : ", ") + plural(r.warnings, "warning");
  if (!counts.empty()) s += (r.code == 0 ? ", " : ": ") + counts;
  if (r.dropped) s += " (" + std::to_string(r.dropped) + " more not shown, --max-errors)";
  return s;
}

CheckFormat parse_format(const CheckCmdOptions& opt, const GlobalOptions& g) {
  if (opt.format == "json" || (opt.format.empty() && g.json)) return CheckFormat::json;
  if (opt.format == "sarif") return CheckFormat::sarif;
  if (opt.format == "junit") return CheckFormat::junit;
  if (opt.format == "github") return CheckFormat::github;
  return CheckFormat::text;
}

void print_text(const CheckFileResult& r, const GlobalOptions& g, Io& io) {
  std::vector<Diagnostic> shown;
  for (const auto& d : r.diagnostics)
    if (!g.quiet || d.severity == Severity::error) shown.push_back(d);
  RenderOptions ro = render_options(g, io);
  // Real exports break one rule hundreds of times (`/conv/Conv_output_0` is not a C
  // identifier): three examples tell what is wrong, the count says how often.
  if (g.verbose == 0) {
    ro.fold_after = 3;
    ro.fold_hint = " (-v lists them all)";
  } else {
    ro.fold_after = SIZE_MAX;
  }
  io.err << render_text(shown, ro);
  if (!g.quiet || r.code != 0) io.out << summary_line(r) << '\n';
}

void print_rule_list(const GlobalOptions& g, Io& io) {
  if (g.json) {
    nlohmann::json rules = nlohmann::json::array();
    for (const auto& r : reported_rules())
      rules.push_back({{"id", std::string(r.id)},
                       {"severity", severity_name(r.severity)},
                       {"strict", r.strict},
                       {"summary", std::string(r.summary)}});
    print_json(rules, io);
    return;
  }
  for (const auto& r : reported_rules()) {
    std::string level = severity_name(r.severity);
    if (r.strict) level += " (error with --strict)";
    io.out << r.id << "  " << level << "  " << r.summary << '\n';
  }
}

int run_check(const CheckCmdOptions& opt, const GlobalOptions& g, Io& io) {
  if (opt.list_rules) {
    print_rule_list(g, io);
    return 0;
  }
  if (opt.files.empty()) throw_usage("check: a MODEL is required (or --list-rules)");
  RuleConfigResolver resolver(opt.rules);
  resolver.validate_flags();
  const CheckFormat format = parse_format(opt, g);
  int status = 0;
  std::vector<CheckFileResult> results;
  Progress progress(io, g, opt.files.size(), format == CheckFormat::text);
  for (std::size_t i = 0; i < opt.files.size(); ++i) {
    const std::string& file = opt.files[i];
    progress.start(i, file);
    CheckFileResult r = check_one(file, opt, resolver.for_model(file), g, io);
    progress.clear();
    status = std::max(status, r.code);
    if (format == CheckFormat::text) print_text(r, g, io);
    results.push_back(std::move(r));
  }
  switch (format) {
    case CheckFormat::text:
      break;
    case CheckFormat::json: {
      nlohmann::json docs = nlohmann::json::array();
      for (const auto& r : results) docs.push_back(check_result_json(r));
      print_json_documents(docs, g, io);
      break;
    }
    case CheckFormat::sarif:
      print_json(check_sarif(results, status), io);
      break;
    case CheckFormat::junit:
      write_check_junit(results, io.out);
      break;
    case CheckFormat::github:
      write_check_github(results, io.out);
      for (const auto& r : results) io.out << summary_line(r) << '\n';
      break;
  }
  return status;
}

void add_rule_options(CLI::App& sub, RuleFlags& flags) {
  sub.add_option("--ignore", flags.ignore,
                 "drop findings of these rules (ids or globs like 'name.*'; repeat or separate "
                 "with commas)")
      ->type_name("RULE")
      ->allow_extra_args(false);
  sub.add_option("--warn", flags.warn, "report these rules' findings as warnings")
      ->type_name("RULE")
      ->allow_extra_args(false);
  sub.add_option("--error", flags.error, "report these rules' findings as errors")
      ->type_name("RULE")
      ->allow_extra_args(false);
  sub.add_option("--config", flags.config,
                 "rule configuration file (default: the nearest .onnxtool.json from the "
                 "model's directory upwards)")
      ->type_name("FILE");
  sub.add_flag("--no-config", flags.no_config, "ignore .onnxtool.json files");
}

}  // namespace

Command add_check(CLI::App& app, GlobalOptions&) {
  auto opt = std::make_shared<CheckCmdOptions>();
  Command c;
  c.app = app.add_subcommand("check", "validate models against the ONNX spec and operator schemas");
  c.app->add_option("model", opt->files, "model files (- for stdin)");
  c.app
      ->add_option("--format", opt->format,
                   "output: text (default), json (as --json), sarif (SARIF 2.1.0), junit (JUnit "
                   "XML) or github (Actions workflow commands), on stdout")
      ->type_name("FORMAT")
      ->check(CLI::IsMember({"text", "json", "sarif", "junit", "github"}));
  c.app->add_flag("--strict", opt->strict,
                  "treat SHOULD-level findings (non-C-identifier names, duplicate node names, "
                  "experimental operators) as errors");
  c.app->add_option("--max-errors", opt->max_errors,
                    "keep at most N diagnostics per file, errors first (counts stay exact)");
  c.app->add_flag("--verify-data", opt->verify_data,
                  "read external data files and verify their SHA1 checksums");
  c.app->add_flag("--full", opt->full,
                  "also run type and shape inference (as shape-infer does) on a structurally "
                  "valid model; with --strict its conflicts are errors");
  c.app->add_option("--data-dir", opt->data_dir,
                    "directory holding external data (default: the model's directory)");
  add_rule_options(*c.app, opt->rules);
  c.app->add_flag("--list-rules", opt->list_rules,
                  "list every rule check can report (id, default level, summary) and exit");
  c.action = [opt](const GlobalOptions& g, Io& io) {
    return guarded(g, io, [&] { return run_check(*opt, g, io); });
  };
  return c;
}

}  // namespace onnxtool::app
