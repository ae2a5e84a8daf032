// SPDX-License-Identifier: Apache-2.0
// onnxtool convert: a model between binary protobuf, the textual syntax and JSON, its weights in
// or out of external data files, and its operators from one opset version to another
// (core/convert/opset_convert.h).
#include <chrono>
#include <memory>
#include <optional>
#include <ostream>
#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "app/cli_graph_picture.h"
#include "app/cli_progress.h"
#include "app/cli_weights.h"
#include "app/commands.h"
#include "core/check/check.h"
#include "core/convert/ir_version.h"
#include "core/convert/opset_convert.h"
#include "core/convert/value_info.h"
#include "core/diag/error.h"
#include "core/exec/function_body.h"
#include "core/infer/engine.h"
#include "core/ir/graph.h"
#include "core/ir/location.h"
#include "core/ir/order.h"
#include "core/model/model.h"
#include "core/registry/binding.h"
#include "core/registry/registry.h"
#include "core/util/format.h"
#include "core/version.h"
#include "onnx.pb.h"

namespace onnxtool::app {

namespace {

struct ConvertOptions {
  std::string input, output;
  std::string from, to;
  WeightsOptions weights;
  int64_t inline_limit = 64;
  std::vector<std::string> opsets;  // N, or DOMAIN=N
  std::optional<int64_t> ir_version;
  bool allow_approximate = false;
  bool dry_run = false;
  bool toposort = false;
  std::optional<std::string> expose;  // --expose-values [REGEX]
};

bool converts_versions(const ConvertOptions& opt) {
  return !opt.opsets.empty() || opt.ir_version.has_value();
}

// --opset 13, --opset ai.onnx.ml=3: domain ("" for ai.onnx) -> version.
std::map<std::string, int64_t> opset_targets(const ConvertOptions& opt) {
  std::map<std::string, int64_t> out;
  for (const auto& arg : opt.opsets) {
    const auto eq = arg.find('=');
    const std::string domain = eq == std::string::npos ? "" : normalize_domain(arg.substr(0, eq));
    const std::string text = eq == std::string::npos ? arg : arg.substr(eq + 1);
    int64_t v = 0;
    std::size_t used = 0;
    try {
      v = std::stoll(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size())
      throw_usage("--opset " + arg + ": expected a version number, or DOMAIN=VERSION");
    if (!out.emplace(domain, v).second)
      throw_usage("--opset: " + (domain.empty() ? std::string("ai.onnx") : domain) +
                  " is given twice");
  }
  return out;
}

struct VersionOutcome {
  int exit_code = 0;
  std::string summary;  // for the "wrote ..." line
  nlohmann::json plan;  // --json
};

// --to, else the output's extension; stdout defaults to text, the form meant for reading.
ModelFormat output_format(const ConvertOptions& opt) {
  if (!opt.to.empty()) return *model_format_named(opt.to);
  if (opt.output == "-") return ModelFormat::text;
  const std::string ext = std::filesystem::path(opt.output).extension().string();
  if (ext == ".onnx") return ModelFormat::binary;
  if (ext == ".onnxtxt") return ModelFormat::text;
  if (ext == ".json") return ModelFormat::json;
  throw_usage("cannot tell the output format from '" + opt.output +
              "': use the extension .onnx, .onnxtxt or .json, or give --to onnx|text|json");
}

SaveOptions save_options(const ConvertOptions& opt, ModelFormat format,
                         std::vector<std::string>& written) {
  SaveOptions so;
  so.format = format;
  so.text_inline_limit = opt.inline_limit;
  so.written = &written;
  apply_weights_options(opt.weights, so);
  return so;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// One line (or a JSON object) naming what was written: "wrote m.onnxtxt (text) and m.npz".
// The side files a save may write (the text sidecar, the external data file) that exist before
// it: replacing one is said, since it may be a file of the same name the user keeps.
std::set<std::string> side_files_present(const ConvertOptions& opt) {
  std::set<std::string> present;
  if (opt.output == "-") return present;
  const std::filesystem::path out(opt.output);
  const std::filesystem::path dir = out.has_parent_path() ? out.parent_path() : ".";
  std::error_code ec;
  for (const std::string& name :
       {text_sidecar_name(opt.output), opt.weights.external_data.empty()
                                           ? out.filename().string() + ".data"
                                           : opt.weights.external_data})
    if (std::filesystem::exists(dir / name, ec))
      present.insert((dir / name).lexically_normal().string());
  return present;
}

void report(const ConvertOptions& opt, ModelFormat to, const std::vector<std::string>& written,
            const std::set<std::string>& replaced, const VersionOutcome& versions,
            const GlobalOptions& g, Io& io) {
  if (opt.output == "-") return;  // stdout carries the model itself
  if (g.json) {
    nlohmann::json j = {{"input", opt.input},
                        {"output", opt.output},
                        {"format", model_format_name(to)},
                        {"written", written}};
    if (!versions.plan.is_null()) j["conversion"] = versions.plan;
    print_json(j, io);
    return;
  }
  if (g.quiet) return;
  io.out << "wrote " << opt.output << " (" << model_format_name(to) << ")";
  for (std::size_t i = 0; i + 1 < written.size(); ++i) {
    io.out << (i + 2 == written.size() ? " and " : ", ") << written[i];
    if (replaced.count(std::filesystem::path(written[i]).lexically_normal().string()))
      io.out << " (replacing the file that was there)";
  }
  if (!versions.summary.empty()) io.out << ": " << versions.summary;
  io.out << '\n';
}

// ---- opset and IR versions ---------------------------------------------------------------

// Stamps the diagnostics with the file they are about.
std::vector<Diagnostic> about(std::vector<Diagnostic> ds, const std::string& file) {
  for (auto& d : ds)
    if (d.file.empty()) d.file = file;
  return ds;
}

nlohmann::json plan_json(const convert::Report& r) {
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& n : r.nodes) {
    nlohmann::json j = {
        {"location", n.location}, {"from", n.from}, {"action", convert::action_name(n.action)}};
    if (!n.to.empty()) j["to"] = n.to;
    if (!n.steps.empty()) j["steps"] = n.steps;
    if (!n.warnings.empty()) j["warnings"] = n.warnings;
    if (!n.why.empty()) {
      j["why"] = n.why;
      j["rule"] = n.rule;
    }
    nodes.push_back(std::move(j));
  }
  nlohmann::json domains = nlohmann::json::array();
  for (const auto& d : r.domains)
    domains.push_back(
        {{"domain", d.domain.empty() ? "ai.onnx" : d.domain}, {"from", d.from}, {"to", d.to}});
  return {{"domains", domains},
          {"nodes", nodes},
          {"kept", r.count(convert::NodeOutcome::Action::kept)},
          {"adapted", r.count(convert::NodeOutcome::Action::adapted)},
          {"expanded", r.count(convert::NodeOutcome::Action::expanded)},
          {"refused", r.count(convert::NodeOutcome::Action::refused)}};
}

std::string plan_summary(const convert::Report& r) {
  std::string s;
  for (const auto& d : r.domains)
    s += (s.empty() ? "" : ", ") + (d.domain.empty() ? std::string("ai.onnx") : d.domain) + " " +
         std::to_string(d.from) + " -> " + std::to_string(d.to);
  using A = convert::NodeOutcome::Action;
  return s + "; " + plural(r.count(A::kept), "node") + " kept, " +
         std::to_string(r.count(A::adapted)) + " adapted, " + std::to_string(r.count(A::expanded)) +
         " expanded" + (r.ok() ? "" : ", " + std::to_string(r.count(A::refused)) + " refused");
}

// --dry-run: one line per node that changes or is refused, then the counts.
void print_plan(const convert::Report& r, Io& io) {
  using A = convert::NodeOutcome::Action;
  for (const auto& n : r.nodes) {
    if (n.action == A::kept) continue;
    io.out << n.location << ": " << convert::action_name(n.action);
    if (n.action == A::refused)
      io.out << ": " << n.why << " [" << n.rule << "]";
    else if (!n.to.empty())
      io.out << " " << n.from << " -> " << n.to;
    io.out << '\n';
    for (const auto& s : n.steps) io.out << "  " << s << '\n';
    for (const auto& w : n.warnings) io.out << "  approximated: " << w << '\n';
  }
  io.out << plan_summary(r) << '\n';
}

VersionOutcome convert_versions(const ConvertOptions& opt, Model& m, const GlobalOptions& g,
                                Io& io) {
  VersionOutcome out;
  const auto targets = opset_targets(opt);
  const std::vector<Diagnostic> invalid = convert::check_errors(*m.proto, m.name);
  if (!invalid.empty()) {
    print_diagnostics(invalid, g, io);
    throw Error(ErrorKind::invalid, "convert.invalid-input", m.name, "",
                "the model is not valid (" + plural(invalid.size(), "error") +
                    " above); convert a valid model");
  }
  DiagSink infer_sink;
  InferResult types = infer_model(m, {}, infer_sink);
  convert::Options co;
  co.targets = targets;
  co.allow_approximate = opt.allow_approximate;
  co.parse_body = default_function_body_parser();
  co.type_of = [&types](const std::string& name) -> const Type* {
    const ValueRecord* r = types.find(name);
    return r ? &r->type : nullptr;
  };
  // Taken, not copied: the model is written from the converted graph (or not at all).
  ir::ModelGraph graph = ir::ModelGraph::from_proto(std::move(*m.proto));
  const convert::Report r = convert::convert_opsets(graph, Registry::standard(), co);
  out.plan = plan_json(r);
  out.summary = targets.empty() ? "" : plan_summary(r);
  print_diagnostics(about(r.diagnostics, m.name), g, io);
  if (opt.dry_run) {
    if (g.json)
      print_json({{"input", opt.input}, {"conversion", out.plan}}, io);
    else
      print_plan(r, io);
    out.exit_code = r.ok() ? 0 : 1;
    return out;
  }
  if (!r.ok()) {
    io.err << "onnxtool: error: " << m.name
           << ": not converted: " << plural(r.count(convert::NodeOutcome::Action::refused), "node")
           << " refused; nothing written\n";
    out.exit_code = 1;
    return out;
  }
  onnx::ModelProto converted = graph.to_proto();
  bool went_down = false;
  for (const auto& d : r.domains) went_down = went_down || d.to < d.from;
  const std::vector<Diagnostic> ir_errors =
      convert::restamp_ir(converted, opt.ir_version, went_down, m.name);
  if (!ir_errors.empty()) {
    print_diagnostics(ir_errors, g, io);
    io.err << "onnxtool: error: " << m.name << ": not converted: ir_version "
           << converted.ir_version() << " cannot hold the model; nothing written\n";
    out.exit_code = 1;
    return out;
  }
  *m.proto = std::move(converted);
  const convert::ValueInfoRefresh refreshed = convert::refresh_value_info(m);
  if (g.verbose)
    io.err << "onnxtool: value_info after conversion: " << refreshed.updated << " updated, "
           << refreshed.dropped << " dropped (values no longer in the graph)\n";
  // The result must pass the checker; a failure here is onnxtool's bug.
  const std::vector<Diagnostic> broken = convert::check_errors(*m.proto, m.name);
  if (!broken.empty()) {
    print_diagnostics(broken, g, io);
    throw_internal("the converted model does not pass check (" + plural(broken.size(), "error") +
                   " above); nothing written");
  }
  return out;
}

// --toposort: every node list of the model in the order of its data. False (nothing to write)
// when a list has a cycle, each printed.
bool sort_nodes(Model& m, const GlobalOptions& g, Io& io) {
  const NodeSortReport r = sort_model_nodes(*m.proto);
  if (!r.cycles.empty()) {
    std::vector<Diagnostic> found;
    for (const auto& c : r.cycles)
      found.push_back({Severity::error,
                       "convert.cycle",
                       m.name,
                       "",
                       "nodes depend on each other in a cycle: " + c,
                       {}});
    print_diagnostics(found, g, io);
    io.err << "onnxtool: error: " << m.name << ": not sorted: " << plural(r.cycles.size(), "cycle")
           << "; nothing written\n";
    return false;
  }
  if (g.verbose)
    io.err << "onnxtool: --toposort: " << plural(static_cast<uint64_t>(r.late_readers), "node")
           << " read a value produced after them; " << plural(r.graphs_reordered, "graph")
           << " reordered\n";
  return true;
}

// --expose-values [REGEX]: intermediate values of the main graph as graph outputs.
void expose(Model& m, const std::string& pattern, const GlobalOptions& g, Io& io) {
  std::regex re;
  try {
    re = std::regex(pattern.empty() ? ".*" : pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& e) {
    throw_usage("--expose-values: " + pattern + " is not a regular expression: " + e.what());
  }
  const convert::ExposedValues r = convert::expose_values(
      m, [&](const std::string& name) { return std::regex_search(name, re); });
  std::vector<Diagnostic> left;
  for (const auto& name : r.untyped)
    left.push_back(
        {Severity::warning,
         "convert.untyped-value",
         m.name,
         "",
         "value " + quoted_name(name) + " is not exposed: shape inference gives it no element type",
         {}});
  print_diagnostics(left, g, io);
  if (g.verbose)
    io.err << "onnxtool: --expose-values: " << plural(r.added, "value") << " made outputs\n";
}

int run_convert(const ConvertOptions& opt, const GlobalOptions& g, Io& io) {
  check_weights_options(opt.weights);
  const std::optional<std::string> picture = picture_format(opt.to, opt.output);
  const ModelFormat to = picture ? ModelFormat::automatic : output_format(opt);
  if (picture && opt.weights.moves_weights())
    throw_usage("a picture (" + *picture + ") holds no weights: drop --external-data");
  LoadOptions lo;
  if (!opt.from.empty()) lo.format = *model_format_named(opt.from);
  apply_weights_options(opt.weights, lo);
  const auto start = std::chrono::steady_clock::now();
  DiagSink sink;
  Model m = load_model(opt.input, lo, sink);
  print_diagnostics(sink.diagnostics(), g, io);
  if (!sink.ok()) {
    if (g.json)
      print_json({{"input", opt.input},
                  {"output", opt.output},
                  {"exit_code", sink.exit_code()},
                  {"diagnostics", to_json(sink.diagnostics())}},
                 io);
    return sink.exit_code();
  }
  if (g.verbose) io.err << "onnxtool: read " << opt.input << " in " << ms_since(start) << " ms\n";
  if (opt.toposort && !sort_nodes(m, g, io)) return 1;
  if (opt.expose) expose(m, *opt.expose, g, io);
  VersionOutcome versions;
  if (converts_versions(opt)) {
    versions = convert_versions(opt, m, g, io);
    if (versions.exit_code != 0 || opt.dry_run) return versions.exit_code;
  }
  const auto saving = std::chrono::steady_clock::now();
  std::vector<std::string> written;
  if (picture) {
    write_picture(m, opt.output, *picture);
    if (opt.output != "-" && !g.quiet && !g.json)
      io.out << "wrote " << opt.output << " (" << *picture << ")\n";
    if (g.json && opt.output != "-")
      print_json({{"input", opt.input}, {"output", opt.output}, {"format", *picture}}, io);
    return 0;
  }
  const std::set<std::string> present = side_files_present(opt);
  SaveOptions so = save_options(opt, to, written);
  // Gigabytes of weights moving into or out of external data take a while: show it.
  std::unique_ptr<Progress> progress;
  so.on_tensor = [&](std::size_t i, std::size_t n, const std::string& where) {
    if (!progress) progress = std::make_unique<Progress>(io, g, n);
    progress->start(i, where);
  };
  save_model(m, opt.output, so);
  progress.reset();
  if (g.verbose)
    io.err << "onnxtool: wrote " << opt.output << " in " << ms_since(saving) << " ms\n";
  report(opt, to, written, present, versions, g, io);
  return 0;
}

}  // namespace

Command add_convert(CLI::App& app, GlobalOptions&) {
  auto opt = std::make_shared<ConvertOptions>();
  Command c;
  c.app = app.add_subcommand(
      "convert", "convert a model between binary, text and JSON, and move weights in or out");
  c.app->add_option("input", opt->input, "model to read (- for stdin)")->required();
  c.app
      ->add_option("output", opt->output,
                   "model to write (- for stdout); .onnx binary, .onnxtxt text, .json JSON; "
                   ".dot, .svg, .png: the graph as a picture")
      ->required();
  const std::vector<std::string> formats = {"onnx", "text", "json"};
  c.app
      ->add_option("--from", opt->from, "input format (default: by extension, or sniffed on stdin)")
      ->check(CLI::IsMember(formats));
  c.app
      ->add_option("--to", opt->to,
                   "output format (default: by extension; text on stdout): onnx, text, json, or "
                   "a picture: dot (Graphviz), svg or png (through Graphviz's dot)")
      ->check(CLI::IsMember({"onnx", "text", "json", "dot", "svg", "png"}));
  add_weights_options(*c.app, opt->weights,
                      "move initializers into this file beside the output (4 KiB aligned)");
  c.app
      ->add_option("--inline-limit", opt->inline_limit,
                   "text output: tensors with more elements go to the .npz sidecar (default 64)")
      ->check(CLI::NonNegativeNumber);
  c.app
      ->add_option("--opset", opt->opsets,
                   "convert to this opset version: N for ai.onnx, DOMAIN=N for another "
                   "(repeatable)")
      ->type_name("[DOMAIN=]N");
  c.app->add_option("--ir-version", opt->ir_version,
                    "write this IR version (default: what the opsets need when going down)");
  c.app->add_flag("--allow-approximate", opt->allow_approximate,
                  "convert nodes whose new version can only approximate them, with a warning");
  c.app->add_flag("--toposort", opt->toposort,
                  "put the nodes of every graph and function in the order of their data "
                  "(producers first, as IR.md requires)");
  c.app
      ->add_option("--expose-values", opt->expose,
                   "make the main graph's intermediate values (those REGEX finds, default all) "
                   "graph outputs, typed by shape inference, for another runtime to return")
      ->expected(0, 1)
      ->type_name("[REGEX]");
  c.app->add_flag("--dry-run", opt->dry_run,
                  "print what --opset would do to each node, and write nothing");
  c.action = [opt](const GlobalOptions& g, Io& io) {
    return guarded_command(g, io, [&] { return run_convert(*opt, g, io); });
  };
  return c;
}

}  // namespace onnxtool::app
