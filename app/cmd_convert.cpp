// SPDX-License-Identifier: Apache-2.0
// onnxtool convert: a model between binary protobuf, the textual syntax and JSON, and its weights
// in or out of external data files.
#include <chrono>
#include <optional>
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "core/diag/error.h"
#include "core/model/model.h"
#include "core/util/format.h"

namespace onnxtool::app {

namespace {

struct ConvertOptions {
  std::string input, output;
  std::string from, to;
  std::string external_data;
  std::optional<uint64_t> size_threshold;
  bool embed = false;
  std::string data_dir;
  int64_t inline_limit = 64;
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
  if (opt.embed) so.external = SaveOptions::External::embed;
  if (!opt.external_data.empty()) {
    so.external = SaveOptions::External::externalize;
    so.external_file = opt.external_data;
    if (opt.size_threshold) so.size_threshold = *opt.size_threshold;
  }
  return so;
}

double ms_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
      .count();
}

// One line (or a JSON object) naming what was written: "wrote m.onnxtxt (text) and m.npz".
void report(const ConvertOptions& opt, ModelFormat to, const std::vector<std::string>& written,
            const GlobalOptions& g, Io& io) {
  if (opt.output == "-") return;  // stdout carries the model itself
  if (g.json) {
    print_json({{"input", opt.input},
                {"output", opt.output},
                {"format", model_format_name(to)},
                {"written", written}},
               io);
    return;
  }
  if (g.quiet) return;
  io.out << "wrote " << opt.output << " (" << model_format_name(to) << ")";
  for (std::size_t i = 0; i + 1 < written.size(); ++i)
    io.out << (i + 2 == written.size() ? " and " : ", ") << written[i];
  io.out << '\n';
}

int run_convert(const ConvertOptions& opt, const GlobalOptions& g, Io& io) {
  if (!opt.external_data.empty() && opt.embed)
    throw_usage("--external-data and --embed-external-data exclude each other");
  if (opt.size_threshold && opt.external_data.empty())
    throw_usage("--size-threshold applies to --external-data FILE");
  const ModelFormat to = output_format(opt);
  LoadOptions lo;
  if (!opt.from.empty()) lo.format = *model_format_named(opt.from);
  if (!opt.data_dir.empty()) lo.data_dir = opt.data_dir;
  const auto start = std::chrono::steady_clock::now();
  DiagSink sink;
  Model m = load_model(opt.input, lo, sink);
  print_diagnostics(sink.diagnostics(), g, io);
  if (!sink.ok()) return 1;
  if (g.verbose) io.err << "onnxtool: read " << opt.input << " in " << ms_since(start) << " ms\n";
  const auto saving = std::chrono::steady_clock::now();
  std::vector<std::string> written;
  save_model(m, opt.output, save_options(opt, to, written));
  if (g.verbose)
    io.err << "onnxtool: wrote " << opt.output << " in " << ms_since(saving) << " ms\n";
  report(opt, to, written, g, io);
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
                   "model to write (- for stdout); .onnx binary, .onnxtxt text, .json JSON")
      ->required();
  const std::vector<std::string> formats = {"onnx", "text", "json"};
  c.app
      ->add_option("--from", opt->from, "input format (default: by extension, or sniffed on stdin)")
      ->check(CLI::IsMember(formats));
  c.app->add_option("--to", opt->to, "output format (default: by extension; text on stdout)")
      ->check(CLI::IsMember(formats));
  c.app->add_option("--external-data", opt->external_data,
                    "move initializers into this file beside the output (4 KiB aligned)");
  c.app->add_option("--size-threshold", opt->size_threshold,
                    "with --external-data: move tensors of at least BYTES (default 1024)");
  c.app->add_flag("--embed-external-data", opt->embed,
                  "bring every externally stored tensor into the model");
  c.app->add_option("--data-dir", opt->data_dir,
                    "directory holding external data (default: the model's directory)");
  c.app
      ->add_option("--inline-limit", opt->inline_limit,
                   "text output: tensors with more elements go to the .npz sidecar (default 64)")
      ->check(CLI::NonNegativeNumber);
  c.action = [opt](const GlobalOptions& g, Io& io) {
    return guarded(g, io, [&] { return run_convert(*opt, g, io); });
  };
  return c;
}

}  // namespace onnxtool::app
