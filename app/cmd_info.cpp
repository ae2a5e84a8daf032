// SPDX-License-Identifier: Apache-2.0
// onnxtool info: what a model is, at a glance, without reading its weights.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/cli_progress.h"
#include "app/cli_shape_bindings.h"
#include "app/commands.h"
#include "core/diag/error.h"
#include "core/infer/cost.h"
#include "core/infer/engine.h"
#include "core/model/model.h"
#include "core/model/summary.h"
#include "core/registry/registry.h"
#include "core/util/format.h"

namespace onnxtool::app {

namespace {

struct InfoOptions {
  std::vector<std::string> files;
  std::string data_dir;
  std::size_t top_ops = 25;
  bool cost = false;
  std::size_t top_nodes = 10;
  ShapeBindings bindings;
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

// ---- --cost ------------------------------------------------------------------------------

// 4.09 G, 118 M, 12 k: counts of arithmetic, three significant digits.
std::string amount(double v) {
  const char* units[] = {"", " k", " M", " G", " T", " P"};
  int u = 0;
  while (v >= 1000 && u < 5) v /= 1000, ++u;
  char buf[32];
  std::snprintf(buf, sizeof buf, v >= 100 || u == 0 ? "%.0f%s" : "%.3g%s", v, units[u]);
  return buf;
}

void print_cost(std::ostream& out, const ModelCost& c, std::size_t top_ops, std::size_t top_nodes) {
  out << "\ncost (from inferred shapes; --dim and --input-shape bind symbolic dims)\n";
  out << "  " << column("MACs", 15) << amount(c.macs) << "  (FLOPs " << amount(c.flops) << ")\n";
  out << "  " << column("parameters", 15) << amount(static_cast<double>(c.params)) << "  ("
      << human_bytes(c.param_bytes) << " of initializers)\n";
  out << "  " << column("memory", 15) << "reads " << human_bytes(c.bytes_read) << ", writes "
      << human_bytes(c.bytes_written) << "; activations " << human_bytes(c.activation_bytes)
      << ", peak " << human_bytes(c.peak_bytes)
      << (c.peak_after.empty() ? std::string() : " after " + c.peak_after) << '\n';
  if (c.unknown_nodes)
    out << "  " << plural(static_cast<uint64_t>(c.unknown_nodes), "node")
        << " with shapes inference cannot tell are not counted (bind their dims)\n";
  std::vector<std::pair<std::string, OpTypeCost>> ops(c.by_op.begin(), c.by_op.end());
  std::stable_sort(ops.begin(), ops.end(),
                   [](const auto& a, const auto& b) { return a.second.flops > b.second.flops; });
  out << "\n  " << column("operator", 22) << column("nodes", 7) << column("MACs", 10)
      << column("FLOPs", 10) << column("share", 7) << "params\n";
  for (std::size_t i = 0; i < ops.size() && i < top_ops; ++i) {
    const auto& [op, o] = ops[i];
    char share[16];
    std::snprintf(share, sizeof share, "%.1f%%", c.flops > 0 ? 100 * o.flops / c.flops : 0.0);
    out << "  " << column(op, 22) << column(std::to_string(o.nodes), 7)
        << column(amount(o.macs), 10) << column(amount(o.flops), 10) << column(share, 7)
        << amount(static_cast<double>(o.params)) << '\n';
  }
  if (ops.size() > top_ops) out << "  ... and " << ops.size() - top_ops << " more operator types\n";
  std::vector<const NodeCost*> heavy;
  for (const auto& n : c.nodes) heavy.push_back(&n);
  std::stable_sort(heavy.begin(), heavy.end(),
                   [](const NodeCost* a, const NodeCost* b) { return a->flops > b->flops; });
  out << "\n  heaviest nodes\n";
  for (std::size_t i = 0; i < heavy.size() && i < top_nodes; ++i)
    out << "  " << column(heavy[i]->location, 48, 48)
        << column(amount(heavy[i]->macs) + " MACs", 14) << amount(heavy[i]->flops) << " FLOPs\n";
}

nlohmann::json cost_json(const ModelCost& c) {
  nlohmann::json by_op = nlohmann::json::object();
  for (const auto& [op, o] : c.by_op)
    by_op[op] = {{"nodes", o.nodes}, {"macs", o.macs}, {"flops", o.flops}, {"params", o.params}};
  nlohmann::json nodes = nlohmann::json::array();
  for (const auto& n : c.nodes) {
    nlohmann::json j = {{"location", n.location},
                        {"op", n.op},
                        {"macs", n.macs},
                        {"flops", n.flops},
                        {"params", n.params},
                        {"bytes_read", n.bytes_read},
                        {"bytes_written", n.bytes_written}};
    if (n.unknown) j["unknown"] = true;
    if (n.has_subgraphs) j["subgraphs_not_counted"] = true;
    nodes.push_back(std::move(j));
  }
  return {{"macs", c.macs},
          {"flops", c.flops},
          {"params", c.params},
          {"param_bytes", c.param_bytes},
          {"bytes_read", c.bytes_read},
          {"bytes_written", c.bytes_written},
          {"activation_bytes", c.activation_bytes},
          {"peak_bytes", c.peak_bytes},
          {"peak_after", c.peak_after},
          {"unknown_nodes", c.unknown_nodes},
          {"by_op", by_op},
          {"nodes", nodes}};
}

// Shape inference with the bindings, then the counts. Findings of inference are not info's to
// report (check --full and shape-infer do that).
ModelCost cost_of(const Model& m, const InfoOptions& opt) {
  InferOptions io;
  apply_shape_bindings(opt.bindings, io);
  DiagSink infer_sink;
  const InferResult types = infer_model(m, io, infer_sink);
  return estimate_cost(m, types, Registry::standard());
}

// Loads and summarizes one file. Diagnostics (and a fatal error, if any) go to `sink`; returns
// the exit code for this file.
int summarize_file(const std::string& file, const InfoOptions& opt, DiagSink& sink,
                   std::optional<ModelSummary>& summary, std::optional<ModelCost>& cost) {
  LoadOptions lo;
  if (!opt.data_dir.empty()) lo.data_dir = opt.data_dir;
  try {
    Model m = load_model(file, lo, sink);
    if (!sink.ok()) return sink.exit_code();
    summary = summarize(m);
    if (opt.cost) cost = cost_of(m, opt);
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
    std::optional<ModelCost> cost;
    progress.start(i, file);
    const int code = guarded(g, io, [&] { return summarize_file(file, opt, sink, summary, cost); });
    progress.clear();
    status = std::max(status, code);
    if (g.json) {
      nlohmann::json doc = summary ? to_json(*summary) : nlohmann::json{{"file", file}};
      if (cost) doc["cost"] = cost_json(*cost);
      doc["diagnostics"] = to_json(sink.diagnostics());
      docs.push_back(std::move(doc));
      continue;
    }
    print_diagnostics(sink.diagnostics(), g, io);
    if (!summary) continue;
    if (!first) io.out << '\n';
    first = false;
    print_text(io.out, *summary, opt.top_ops);
    if (cost) print_cost(io.out, *cost, opt.top_ops, opt.top_nodes);
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
  c.app->add_flag("--cost", opt->cost,
                  "MACs, FLOPs, parameters, bytes read and written, activation memory and its "
                  "peak, per operator type and for the heaviest nodes (--json: every node)");
  c.app->add_option("--top-nodes", opt->top_nodes, "with --cost: nodes to list (default 10)");
  add_shape_binding_options(*c.app, opt->bindings);
  c.action = [opt](const GlobalOptions& g, Io& io) { return run_info(*opt, g, io); };
  return c;
}

}  // namespace onnxtool::app
