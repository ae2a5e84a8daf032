// SPDX-License-Identifier: Apache-2.0
// onnxtool info: what a model is, at a glance, without reading its weights.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/cli_progress.h"
#include "app/commands.h"
#include "core/diag/error.h"
#include "core/model/model.h"
#include "core/model/summary.h"
#include "core/util/format.h"

namespace onnxtool::app {

namespace {

struct InfoOptions {
  std::vector<std::string> files;
  std::string data_dir;
  std::size_t top_ops = 25;
};

// Pads to width; names longer than `limit` are cut with an ellipsis so columns stay in 80.
std::string column(const std::string& s, std::size_t width, std::size_t limit = 40) {
  std::string t = s.size() > limit ? s.substr(0, limit - 3) + "..." : s;
  if (t.size() < width) t.append(width - t.size(), ' ');
  return t;
}

void field(std::ostream& out, const char* key, const std::string& value) {
  if (!value.empty()) out << "  " << column(key, 15) << value << '\n';
}

std::string opsets_text(const ModelSummary& s) {
  std::string t;
  for (const auto& o : s.opset_import) {
    if (!t.empty()) t += ", ";
    t += (o.domain.empty() ? "ai.onnx" : o.domain) + " " + std::to_string(o.version);
  }
  return t;
}

void print_header(std::ostream& out, const ModelSummary& s) {
  out << s.file << " (" << human_bytes(s.file_size) << ")\n";
  field(out, "ir_version", std::to_string(s.ir_version));
  field(out, "opset_import", opsets_text(s));
  std::string producer = s.producer_name;
  if (!s.producer_version.empty()) producer += (producer.empty() ? "" : " ") + s.producer_version;
  field(out, "producer", producer);
  field(out, "domain", s.domain);
  if (s.model_version) field(out, "model_version", std::to_string(s.model_version));
  field(out, "doc", s.doc_string);
  field(out, "graph", s.graph_name);
  for (const auto& [k, v] : s.metadata_props) field(out, "metadata", k + " = " + v);
}

void print_values(std::ostream& out, const char* title,
                  const std::vector<ModelSummary::Value>& vs) {
  out << '\n' << title << " (" << vs.size() << ")\n";
  std::size_t width = 0;
  for (const auto& v : vs) width = std::max(width, std::min<std::size_t>(v.name.size(), 30));
  for (const auto& v : vs)
    out << "  " << column(v.name, width + 2, 30) << v.type
        << (v.is_initializer ? "  (has initializer)" : "") << '\n';
}

void print_weights(std::ostream& out, const ModelSummary& s) {
  out << "\ninitializers: " << plural(static_cast<uint64_t>(s.initializers), "tensor") << ", "
      << human_count(s.parameters) << " parameters, " << human_bytes(s.initializer_bytes);
  if (s.sparse_initializers) out << "; " << s.sparse_initializers << " sparse";
  out << '\n';
  for (const auto& r : s.bytes_by_type)
    out << "  " << column(r.type, 14)
        << column(plural(static_cast<uint64_t>(r.tensors), "tensor"), 14)
        << column(human_count(r.elements) + " elements", 20) << human_bytes(r.bytes) << '\n';
  if (s.constant_tensors > 0)
    out << "  in node attributes (Constant nodes): "
        << plural(static_cast<uint64_t>(s.constant_tensors), "tensor") << ", "
        << human_count(s.constant_parameters) << " parameters, " << human_bytes(s.constant_bytes)
        << '\n';
  if (s.external_tensors == 0) return;
  out << "  external data: " << plural(static_cast<uint64_t>(s.external_tensors), "tensor") << ", "
      << human_bytes(s.external_bytes) << " in " << s.external_files.size() << " file"
      << (s.external_files.size() == 1 ? "" : "s") << '\n';
  for (const auto& f : s.external_files)
    out << "    " << column(f.location, 32) << column(human_bytes(f.file_size), 12)
        << plural(static_cast<uint64_t>(f.tensors), "tensor") << ", " << human_bytes(f.bytes)
        << " used\n";
}

void print_nodes(std::ostream& out, const ModelSummary& s, std::size_t top) {
  out << "\nnodes: " << s.nodes_top_level;
  if (s.subgraphs)
    out << " (" << s.nodes_total << " with " << s.subgraphs << " subgraph"
        << (s.subgraphs == 1 ? "" : "s") << ", nested " << s.max_subgraph_depth << " deep)";
  out << '\n';
  for (std::size_t i = 0; i < s.op_histogram.size() && i < top; ++i) {
    const auto& o = s.op_histogram[i];
    out << "  " << column((o.domain.empty() ? "" : o.domain + ".") + o.op_type, 34) << o.count
        << '\n';
  }
  if (s.op_histogram.size() > top)
    out << "  ... and " << s.op_histogram.size() - top << " more operator types\n";
  if (!s.functions.empty()) {
    out << "\nfunctions (" << s.functions.size() << ")\n";
    for (const auto& f : s.functions)
      out << "  "
          << column((f.domain.empty() ? "" : f.domain + ".") + f.name +
                        (f.overload.empty() ? "" : ":" + f.overload),
                    34)
          << f.nodes << " nodes\n";
  }
  if (s.training_info) out << "\ntraining info: " << s.training_info << '\n';
  if (!s.device_configurations.empty()) {
    out << "\ndevice configurations (" << s.device_configurations.size() << ")\n";
    for (const auto& d : s.device_configurations)
      out << "  " << column(d.name, 24) << d.num_devices << " devices\n";
  }
}

void print_text(std::ostream& out, const ModelSummary& s, std::size_t top_ops) {
  print_header(out, s);
  print_values(out, "inputs", s.inputs);
  print_values(out, "outputs", s.outputs);
  print_weights(out, s);
  print_nodes(out, s, top_ops);
}

// Loads and summarizes one file. Diagnostics (and a fatal error, if any) go to `sink`; returns
// the exit code for this file.
int summarize_file(const std::string& file, const InfoOptions& opt, DiagSink& sink,
                   std::optional<ModelSummary>& summary) {
  LoadOptions lo;
  if (!opt.data_dir.empty()) lo.data_dir = opt.data_dir;
  try {
    Model m = load_model(file, lo, sink);
    if (!sink.ok()) return sink.exit_code();
    summary = summarize(m);
    return 0;
  } catch (const Error& e) {
    sink.report(e.diagnostic());
    return exit_code_for(e.kind());
  }
}

int run_info(const InfoOptions& opt, const GlobalOptions& g, Io& io) {
  int status = 0;
  nlohmann::json docs = nlohmann::json::array();
  bool first = true;
  Progress progress(io, g, opt.files.size());
  for (std::size_t i = 0; i < opt.files.size(); ++i) {
    const std::string& file = opt.files[i];
    DiagSink sink;
    std::optional<ModelSummary> summary;
    progress.start(i, file);
    const int code = guarded(g, io, [&] { return summarize_file(file, opt, sink, summary); });
    progress.clear();
    status = std::max(status, code);
    if (g.json) {
      nlohmann::json doc = summary ? to_json(*summary) : nlohmann::json{{"file", file}};
      doc["diagnostics"] = to_json(sink.diagnostics());
      docs.push_back(std::move(doc));
      continue;
    }
    print_diagnostics(sink.diagnostics(), g, io);
    if (!summary) continue;
    if (!first) io.out << '\n';
    first = false;
    print_text(io.out, *summary, opt.top_ops);
  }
  if (g.json) print_json_documents(docs, g, io);
  return status;
}

}  // namespace

Command add_info(CLI::App& app, GlobalOptions&) {
  auto opt = std::make_shared<InfoOptions>();
  Command c;
  c.app = app.add_subcommand("info", "inspect a model: metadata, interface, weights, operators");
  c.app->add_option("model", opt->files, "model files (- for stdin)")->required();
  c.app->add_option("--data-dir", opt->data_dir,
                    "directory holding external data (default: the model's directory)");
  c.app->add_option("--top", opt->top_ops, "operator types to list (default 25)");
  c.action = [opt](const GlobalOptions& g, Io& io) { return run_info(*opt, g, io); };
  return c;
}

}  // namespace onnxtool::app
