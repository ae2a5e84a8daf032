// SPDX-License-Identifier: Apache-2.0
// onnxtool shape-infer: every value's type and shape, written into the model as value_info, or
// reported (--json), or explained (--explain: where a dim's information was lost).
#include <algorithm>
#include <charconv>
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/cli_shape_bindings.h"
#include "app/commands.h"
#include "core/diag/error.h"
#include "core/infer/engine.h"
#include "core/ir/location.h"
#include "core/model/model.h"
#include "onnx.pb.h"

namespace onnxtool::app {

namespace {

struct ShapeInferOptions {
  std::string input;
  std::string output;
  bool in_place = false;
  bool strict = false;
  std::string data_dir;
  ShapeBindings bindings;            // --dim, --input-shape
  std::vector<std::string> explain;  // value names
};

InferOptions infer_options(const ShapeInferOptions& opt) {
  InferOptions io;
  io.strict = opt.strict;
  apply_shape_bindings(opt.bindings, io);
  return io;
}

const char* origin_name(const ValueRecord& v) {
  if (v.is_output) return "output";
  switch (v.provenance.origin) {
    case Provenance::Origin::input:
      return "input";
    case Provenance::Origin::initializer:
      return "initializer";
    case Provenance::Origin::node:
      break;
  }
  return "intermediate";
}

// Counts of how much is known, for the summary line and --json.
struct Tally {
  std::size_t values = 0, fully_known = 0, symbolic = 0, unknown_dims = 0, unknown_rank = 0,
              untyped = 0;
  void add(const Type& t) {
    ++values;
    if (is_fully_known(t))
      ++fully_known;
    else if (type_spec(t).empty())
      ++untyped;
    else if ((t.is_tensor() || t.kind == Type::Kind::sparse_tensor) && !t.has_shape())
      ++unknown_rank;
    else if (t.shape && std::any_of(t.shape->begin(), t.shape->end(),
                                    [](const Dim& d) { return d.is_unknown(); }))
      ++unknown_dims;
    else
      ++symbolic;
  }
};

Tally tally(const InferResult& r) {
  Tally t;
  for (const auto& g : r.graphs)
    for (const auto& v : g.values)
      if (v.provenance.origin != Provenance::Origin::initializer) t.add(v.type);
  return t;
}

nlohmann::json to_json(const InferResult& r, const ShapeInferOptions& opt) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& g : r.graphs)
    for (const auto& v : g.values) {
      nlohmann::json j{{"graph", g.prefix},
                       {"name", v.name},
                       {"type", v.type.to_string()},
                       {"kind", origin_name(v)}};
      if (!v.provenance.node.empty()) j["node"] = v.provenance.node;
      if (v.values) j["values"] = dims_to_string(*v.values);
      values.push_back(std::move(j));
    }
  const Tally t = tally(r);
  nlohmann::json doc{{"file", opt.input}, {"values", values}, {"bindings", r.bindings}};
  doc["summary"] = {{"values", t.values},
                    {"fully_known", t.fully_known},
                    {"symbolic", t.symbolic},
                    {"unknown_dims", t.unknown_dims},
                    {"unknown_rank", t.unknown_rank},
                    {"untyped", t.untyped}};
  if (!opt.explain.empty()) {
    nlohmann::json ex = nlohmann::json::object();
    for (const auto& name : opt.explain) ex[name] = explain_value(r, name);
    doc["explain"] = ex;
  }
  return doc;
}

void print_summary(std::ostream& out, const InferResult& r) {
  const Tally t = tally(r);
  out << t.values << " values in " << r.graphs.size() << " graph"
      << (r.graphs.size() == 1 ? "" : "s") << ": " << t.fully_known << " fully known, "
      << t.symbolic << " symbolic, " << t.unknown_dims << " with unknown dims, " << t.unknown_rank
      << " of unknown rank, " << t.untyped << " untyped\n";
}

std::string destination(const ShapeInferOptions& opt) {
  if (opt.in_place) {
    if (!opt.output.empty()) throw_usage("give OUT or --in-place, not both");
    if (opt.input == "-") throw_usage("--in-place needs a file, not stdin");
    return opt.input;
  }
  return opt.output;  // "" with no OUT: infer and report only
}

int run_shape_infer(const ShapeInferOptions& opt, const GlobalOptions& g, Io& io) {
  const bool report_only = g.json || !opt.explain.empty();
  const std::string out_path = destination(opt);
  if (out_path == "-" && report_only)
    throw_usage("OUT - (the model on stdout) cannot be combined with --json or --explain");
  const InferOptions io_opts = infer_options(opt);
  DiagSink sink;
  sink.set_file(opt.input);
  LoadOptions lo;
  if (!opt.data_dir.empty()) lo.data_dir = opt.data_dir;
  Model model = load_model(opt.input, lo, sink);
  std::optional<InferResult> result;
  if (sink.ok()) result = infer_model(model, io_opts, sink);
  // A name that is not in the model is a typo on the command line, not an answer.
  for (const auto& name : opt.explain)
    if (result && !result->find(name))
      throw_usage("--explain: the model has no value named " + quoted_name(name));
  if (result && !out_path.empty()) {
    annotate_model(*model.proto, *result, !opt.bindings.empty());
    save_model(model, out_path);
  }
  if (g.json) {
    nlohmann::json doc = result ? to_json(*result, opt) : nlohmann::json{{"file", opt.input}};
    doc["diagnostics"] = onnxtool::to_json(sink.diagnostics());
    print_json(doc, io);
    return sink.exit_code();
  }
  print_diagnostics(sink.diagnostics(), g, io);
  if (!result) return std::max(sink.exit_code(), 1);
  for (const auto& name : opt.explain)
    for (const auto& line : explain_value(*result, name)) io.out << line << '\n';
  if (opt.explain.empty() && out_path != "-" && !g.quiet) {
    print_summary(io.out, *result);
    if (out_path.empty())
      io.out << "(nothing written: give OUT, or --in-place, for the annotated model)\n";
  }
  return sink.exit_code();
}

}  // namespace

Command add_shape_infer(CLI::App& app, GlobalOptions&) {
  auto opt = std::make_shared<ShapeInferOptions>();
  Command c;
  c.app = app.add_subcommand("shape-infer", "infer types and shapes of every value");
  c.app->add_option("input", opt->input, "model file (- for stdin)")->required();
  c.app->add_option("output", opt->output, "where to write the annotated model (- for stdout)");
  c.app->add_flag("--in-place", opt->in_place, "rewrite the input file (atomically)");
  c.app->add_flag("--strict", opt->strict,
                  "conflicts with declared types and dim_params are errors, not warnings");
  add_shape_binding_options(*c.app, opt->bindings);
  c.app
      ->add_option("--explain", opt->explain,
                   "why a value's dims are unknown or symbolic: the nodes where it was lost")
      ->type_name("VALUE")
      ->allow_extra_args(false);
  c.app->add_option("--data-dir", opt->data_dir,
                    "directory holding external data (default: the model's directory)");
  c.action = [opt](const GlobalOptions& g, Io& io) {
    return guarded_command(g, io, [&] { return run_shape_infer(*opt, g, io); });
  };
  return c;
}

}  // namespace onnxtool::app
