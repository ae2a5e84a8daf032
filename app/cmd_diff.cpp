// SPDX-License-Identifier: Apache-2.0
// onnxtool diff: two models compared structurally (core/diff/model_diff.h), one line per
// difference; exit 0 when they are equal, 1 when they differ.
#include <map>
#include <memory>
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "core/diag/error.h"
#include "core/diff/model_diff.h"
#include "core/model/model.h"
#include "core/util/format.h"

namespace onnxtool::app {

namespace {

struct DiffCliOptions {
  std::string a, b;
  bool ignore_names = false;
  bool ignore_weights = false;
};

// The subject of a line: the thing as it is in B for an addition, in A otherwise, and both
// when they differ (a rename, or a node that moved).
std::string subject(const DiffEntry& e) {
  if (e.change == "added") return e.b;
  if (e.change == "removed" || e.a == e.b || e.b.empty()) return e.a;
  return e.a + " -> " + e.b;
}

void print_text(const DiffCliOptions& opt, const ModelDiff& d, const GlobalOptions& g, Io& io) {
  if (g.quiet) return;
  for (const auto& e : d.entries) {
    io.out << e.change << std::string(e.change.size() < 8 ? 8 - e.change.size() : 0, ' ') << ' '
           << e.section << ' ' << subject(e);
    if (e.details.size() == 1) io.out << ": " << e.details[0];
    io.out << '\n';
    if (e.details.size() > 1)
      for (const auto& line : e.details) io.out << "           " << line << '\n';
  }
  if (d.equal()) {
    io.out << opt.a << " and " << opt.b << " are equal\n";
    return;
  }
  std::map<std::string, std::map<std::string, std::size_t>> counts;
  for (const auto& e : d.entries) ++counts[e.section][e.change];
  std::string summary;
  for (const auto& [section, changes] : counts)
    for (const auto& [change, n] : changes)
      summary += (summary.empty() ? "" : ", ") + plural(n, section) + " " + change;
  io.out << plural(d.entries.size(), "difference") << ": " << summary << '\n';
}

nlohmann::json to_json(const DiffCliOptions& opt, const ModelDiff& d) {
  nlohmann::json list = nlohmann::json::array();
  nlohmann::json counts = nlohmann::json::object();
  for (const auto& e : d.entries) {
    nlohmann::json j = {{"section", e.section},
                        {"change", e.change},
                        {"a", e.a},
                        {"b", e.b},
                        {"details", e.details}};
    if (!e.scope.empty()) j["scope"] = e.scope;
    if (e.weights)
      j["weights"] = {{"elements", e.weights->elements},
                      {"differing", e.weights->differing},
                      {"max_abs", e.weights->max_abs},
                      {"relative_l2", e.weights->relative_l2},
                      {"cosine", e.weights->cosine}};
    list.push_back(std::move(j));
    nlohmann::json& n = counts[e.section][e.change];
    n = n.is_null() ? 1 : n.get<int>() + 1;
  }
  return {
      {"a", opt.a}, {"b", opt.b}, {"equal", d.equal()}, {"counts", counts}, {"differences", list}};
}

Model load(const std::string& path, const GlobalOptions& g, Io& io, int& failure) {
  DiagSink sink;
  Model m = load_model(path, {}, sink);
  print_diagnostics(sink.diagnostics(), g, io);
  if (!sink.ok()) failure = sink.exit_code();
  return m;
}

int run_diff(const DiffCliOptions& opt, const GlobalOptions& g, Io& io) {
  int failure = 0;
  const Model a = load(opt.a, g, io, failure);
  const Model b = load(opt.b, g, io, failure);
  if (failure) return failure;
  DiffOptions o;
  o.ignore_names = opt.ignore_names;
  o.ignore_weights = opt.ignore_weights;
  const ModelDiff d = diff_models(a, b, o);
  if (g.json)
    print_json(to_json(opt, d), io);
  else
    print_text(opt, d, g, io);
  return d.equal() ? 0 : 1;
}

}  // namespace

Command add_diff(CLI::App& app, GlobalOptions&) {
  auto opt = std::make_shared<DiffCliOptions>();
  Command c;
  c.app = app.add_subcommand(
      "diff",
      "what changed between two models: interface, nodes, weights, renames (exit 1 if any)");
  c.app->add_option("a", opt->a, "the first model (the old one)")->required();
  c.app->add_option("b", opt->b, "the second model (the new one)")->required();
  c.app->add_flag("--ignore-names", opt->ignore_names,
                  "renamed values, nodes and graphs are not differences");
  c.app->add_flag("--ignore-weights", opt->ignore_weights,
                  "do not compare initializer values (types and shapes still are)");
  c.action = [opt](const GlobalOptions& g, Io& io) {
    return guarded_command(g, io, [&] { return run_diff(*opt, g, io); });
  };
  return c;
}

}  // namespace onnxtool::app
