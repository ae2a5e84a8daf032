// SPDX-License-Identifier: Apache-2.0
// onnxtool extract: the part of a model that computes some values from others, as a model of
// its own (core/edit/extract.h), written with its weights referenced, moved or embedded as
// `convert` writes them.
#include <filesystem>
#include <memory>
#include <optional>
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/cli_weights.h"
#include "app/commands.h"
#include "core/convert/ir_version.h"
#include "core/convert/value_info.h"
#include "core/diag/error.h"
#include "core/edit/extract.h"
#include "core/infer/engine.h"
#include "core/ir/location.h"
#include "core/model/model.h"
#include "core/util/format.h"
#include "onnx.pb.h"

namespace onnxtool::app {

namespace {

struct ExtractOptions {
  std::string input, output;
  std::vector<std::string> inputs, outputs;
  WeightsOptions weights;
  bool no_check = false;
};

std::string name_list(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) s += (s.empty() ? "" : ", ") + quoted_name(n);
  return s;
}

void report(const ExtractOptions& opt, const ExtractSummary& s,
            const std::vector<std::string>& written, const GlobalOptions& g, Io& io) {
  if (g.json) {
    print_json({{"input", opt.input},
                {"output", opt.output},
                {"written", written},
                {"inputs", s.inputs},
                {"outputs", s.outputs},
                {"unused_inputs", s.unused_inputs},
                {"initializer_inputs", s.initializer_inputs},
                {"nodes", s.nodes},
                {"nodes_before", s.nodes_before},
                {"initializers", s.initializers},
                {"initializers_before", s.initializers_before},
                {"initializer_bytes", s.initializer_bytes},
                {"functions", s.functions},
                {"functions_before", s.functions_before},
                {"reordered", s.reordered}},
               io);
    return;
  }
  if (g.quiet || opt.output == "-") return;
  io.out << "wrote " << opt.output;
  for (std::size_t i = 0; i + 1 < written.size(); ++i) io.out << " and " << written[i];
  io.out << ": " << s.nodes << " of " << plural(s.nodes_before, "node") << ", " << s.initializers
         << " of " << plural(s.initializers_before, "initializer") << " ("
         << human_bytes(s.initializer_bytes) << ")";
  if (s.functions_before)
    io.out << ", " << s.functions << " of " << plural(s.functions_before, "function");
  io.out << "\n  inputs:  " << name_list(s.inputs);
  if (s.initializer_inputs)
    io.out << " (and " << plural(s.initializer_inputs, "initializer") << " listed as inputs)";
  io.out << "\n  outputs: " << name_list(s.outputs) << '\n';
}

int run_extract(const ExtractOptions& opt, const GlobalOptions& g, Io& io) {
  check_weights_options(opt.weights);
  LoadOptions lo;
  apply_weights_options(opt.weights, lo);
  DiagSink sink;
  Model m = load_model(opt.input, lo, sink);
  print_diagnostics(sink.diagnostics(), g, io);
  if (!sink.ok()) return sink.exit_code();

  // Types for the values that become the piece's inputs and outputs; inference findings about
  // the rest of the model are not this command's business.
  DiagSink infer_sink;
  const InferResult types = infer_model(m, {}, infer_sink);
  ExtractRequest req{opt.inputs, opt.outputs};
  const ExtractSummary s = extract_model(m, req, types);
  for (const auto& n : s.unused_inputs)
    if (!g.quiet)
      io.err << "onnxtool: warning: " << m.name << ": input " << quoted_name(n)
             << " is not needed by the outputs (kept as an input, as asked)\n";
  const convert::ValueInfoRefresh refreshed = convert::refresh_value_info(m);
  if (g.verbose)
    io.err << "onnxtool: value_info: " << refreshed.updated << " updated, " << refreshed.dropped
           << " dropped\n";
  if (!opt.no_check) {
    const std::vector<Diagnostic> broken = convert::check_errors(*m.proto, opt.output);
    if (!broken.empty()) {
      print_diagnostics(broken, g, io);
      io.err << "onnxtool: error: " << opt.output << ": the extracted model does not pass check ("
             << plural(broken.size(), "error")
             << " above); nothing written (--no-check writes it anyway)\n";
      return 1;
    }
  }
  const std::vector<std::string> written = save_with_weights(m, opt.output, opt.weights);
  report(opt, s, written, g, io);
  return 0;
}

}  // namespace

Command add_extract(CLI::App& app, GlobalOptions&) {
  auto opt = std::make_shared<ExtractOptions>();
  Command c;
  c.app = app.add_subcommand("extract",
                             "cut out the part of a model that computes some values from others");
  c.app->add_option("input", opt->input, "model to read (- for stdin)")->required();
  c.app
      ->add_option("output", opt->output,
                   "model to write (- for stdout); .onnx binary, .onnxtxt text, .json JSON")
      ->required();
  c.app
      ->add_option("--inputs", opt->inputs,
                   "values the piece takes as inputs (comma-separated or repeated; default: "
                   "the model's inputs the outputs need)")
      ->delimiter(',')
      ->type_name("NAME,...");
  c.app
      ->add_option("--outputs", opt->outputs,
                   "values the piece computes (comma-separated or repeated; default: the "
                   "model's outputs)")
      ->delimiter(',')
      ->type_name("NAME,...");
  add_weights_options(*c.app, opt->weights,
                      "put the piece's initializers in this file beside the output (default: "
                      "external ones stay in their file when the output is in the same folder, "
                      "else they are copied to OUTPUT.data)");
  c.app->add_flag("--no-check", opt->no_check, "write the piece even when it does not pass check");
  c.action = [opt](const GlobalOptions& g, Io& io) {
    return guarded_command(g, io, [&] { return run_extract(*opt, g, io); });
  };
  return c;
}

}  // namespace onnxtool::app
