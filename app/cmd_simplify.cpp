// SPDX-License-Identifier: Apache-2.0
// onnxtool simplify: a smaller, cleaner model that computes the same (core/edit/simplify.h),
// checked, and with --check N run beside the original on N random inputs.
#include <memory>
#include <optional>
#include <ostream>
#include <random>

#include <nlohmann/json.hpp>

#include "app/cli_shape_bindings.h"
#include "app/cli_weights.h"
#include "app/commands.h"
#include "core/convert/ir_version.h"
#include "core/diag/error.h"
#include "core/edit/simplify.h"
#include "core/exec/compare.h"
#include "core/exec/run_io.h"
#include "core/exec/session.h"
#include "core/exec/verbose_log.h"
#include "core/model/model.h"
#include "core/util/format.h"
#include "onnx.pb.h"

namespace onnxtool::app {

namespace {

struct SimplifyCliOptions {
  std::string input, output;
  uint64_t max_folded_bytes = 16ull << 20;
  ShapeBindings bindings;
  int check_runs = 0;
  WeightsOptions weights;
};

struct CheckOutcome {
  int runs = 0;
  bool ok = true;
  std::string first_problem;
  double max_abs_err = 0;
};

// Runs both models on the same seeded random inputs and compares every output with the suite's
// tolerance.
CheckOutcome check_same_outputs(const Model& before, const Model& after, int runs,
                                const InferOptions& bindings, int threads) {
  CheckOutcome c;
  SessionOptions so;
  so.threads = threads;
  Session a(before, so), b(after, so);
  std::mt19937 rng(7);
  for (int r = 0; r < runs; ++r) {
    std::vector<std::pair<std::string, Value>> feeds;
    for (const auto& port : a.inputs()) {
      if (port.has_initializer) continue;
      RandomSpec spec;
      if (const auto it = bindings.input_shapes.find(port.name); it != bindings.input_shapes.end())
        spec.shape = Shape(it->second.begin(), it->second.end());
      feeds.emplace_back(port.name, random_input(port, bindings.dims, rng, spec));
    }
    const std::vector<Value> ya = a.run(feeds), yb = b.run(feeds);
    ++c.runs;
    for (std::size_t k = 0; k < ya.size() && k < yb.size(); ++k) {
      const Comparison cmp = compare_values(yb[k], ya[k]);
      c.max_abs_err = std::max(c.max_abs_err, cmp.max_abs_err);
      if (!cmp.ok && c.ok) {
        c.ok = false;
        c.first_problem = "output " + a.outputs()[k].name + ", run " + std::to_string(r + 1) +
                          ": " + cmp.summary();
      }
    }
  }
  return c;
}

void report(const SimplifyCliOptions& opt, const SimplifyReport& r, const CheckOutcome* check,
            const std::vector<std::string>& written, const GlobalOptions& g, Io& io) {
  if (g.json) {
    nlohmann::json j = {{"input", opt.input},
                        {"output", opt.output},
                        {"written", written},
                        {"nodes_before", r.nodes_before},
                        {"nodes_after", r.nodes_after},
                        {"initializers_before", r.initializers_before},
                        {"initializers_after", r.initializers_after},
                        {"bytes_before", r.bytes_before},
                        {"bytes_after", r.bytes_after},
                        {"from_shapes", r.from_shapes},
                        {"folded", r.folded},
                        {"too_large_to_fold", r.too_large},
                        {"passed_through", r.passed_through},
                        {"dead", r.dead},
                        {"unused_initializers", r.unused_initializers},
                        {"duplicate_initializers", r.duplicate_initializers},
                        {"common_subexpressions", r.common_subexpressions},
                        {"rounds", r.rounds}};
    if (check)
      j["check"] = {{"runs", check->runs}, {"ok", check->ok}, {"max_abs_err", check->max_abs_err}};
    print_json(j, io);
    return;
  }
  if (g.quiet || opt.output == "-") return;
  io.out << "wrote " << opt.output << ": " << r.nodes_before << " -> "
         << plural(r.nodes_after, "node") << ", " << r.initializers_before << " -> "
         << plural(r.initializers_after, "initializer") << ", " << human_bytes(r.bytes_before)
         << " -> " << human_bytes(r.bytes_after) << '\n';
  io.out << "  " << r.folded << " folded, " << r.from_shapes << " from known shapes, "
         << r.passed_through << " bypassed, " << r.dead << " dead, " << r.common_subexpressions
         << " repeated; initializers: " << r.duplicate_initializers << " duplicate, "
         << r.unused_initializers << " unused";
  if (r.too_large)
    io.out << "; " << plural(static_cast<uint64_t>(r.too_large), "node")
           << " left unfolded by --max-folded-bytes";
  io.out << '\n';
  if (check)
    io.out << "  check: " << plural(static_cast<uint64_t>(check->runs), "random input")
           << ", every output within tolerance (max abs err " << check->max_abs_err << ")\n";
}

int run_simplify(const SimplifyCliOptions& opt, const GlobalOptions& g, Io& io) {
  const ScopedVerboseLog log(io.err, g.verbose);
  check_weights_options(opt.weights);
  LoadOptions lo;
  apply_weights_options(opt.weights, lo);
  DiagSink sink;
  Model m = load_model(opt.input, lo, sink);
  print_diagnostics(sink.diagnostics(), g, io);
  if (!sink.ok()) return sink.exit_code();
  const bool was_valid = convert::check_errors(*m.proto, opt.input).empty();
  // The original, kept only for --check: a copy of the proto, weights included.
  std::optional<Model> original;
  if (opt.check_runs > 0) {
    original = m;
    original->proto = std::make_shared<onnx::ModelProto>(*m.proto);
  }
  SimplifyOptions so;
  so.max_folded_bytes = opt.max_folded_bytes;
  apply_shape_bindings(opt.bindings, so.bindings);
  const SimplifyReport r = simplify_model(m, so);
  const std::vector<Diagnostic> broken = convert::check_errors(*m.proto, opt.output);
  if (!broken.empty()) {
    print_diagnostics(broken, g, io);
    if (was_valid)
      throw_internal("the simplified model does not pass check (" + plural(broken.size(), "error") +
                     " above) while the original does; nothing written");
    io.err << "onnxtool: warning: " << opt.input
           << ": the model did not pass check before simplify either\n";
  }
  std::optional<CheckOutcome> check;
  if (opt.check_runs > 0) {
    check = check_same_outputs(*original, m, opt.check_runs, so.bindings, g.threads);
    if (!check->ok) {
      io.err << "onnxtool: error: " << opt.input << ": the simplified model computes something "
             << "else: " << check->first_problem << "; nothing written\n";
      return 1;
    }
  }
  const std::vector<std::string> written = save_with_weights(m, opt.output, opt.weights);
  report(opt, r, check ? &*check : nullptr, written, g, io);
  return 0;
}

}  // namespace

Command add_simplify(CLI::App& app, GlobalOptions&) {
  auto opt = std::make_shared<SimplifyCliOptions>();
  Command c;
  c.app = app.add_subcommand(
      "simplify", "fold constants, drop dead and no-op nodes, merge duplicates: same outputs");
  c.app->add_option("input", opt->input, "model to read (- for stdin)")->required();
  c.app
      ->add_option("output", opt->output,
                   "model to write (- for stdout); .onnx binary, .onnxtxt text, .json JSON")
      ->required();
  c.app->add_option("--max-folded-bytes", opt->max_folded_bytes,
                    "do not fold a node whose outputs would take more than BYTES and more than its "
                    "inputs (default 16 MiB)");
  add_shape_binding_options(*c.app, opt->bindings);
  c.app
      ->add_option("--check", opt->check_runs,
                   "run the original and the simplified model on N random inputs and refuse to "
                   "write when an output differs beyond the suite's tolerance")
      ->type_name("N")
      ->check(CLI::NonNegativeNumber);
  add_weights_options(*c.app, opt->weights,
                      "put initializers in this file beside the output (default: as the input "
                      "has them)");
  c.action = [opt](const GlobalOptions& g, Io& io) {
    return guarded_command(g, io, [&] { return run_simplify(*opt, g, io); });
  };
  return c;
}

}  // namespace onnxtool::app
