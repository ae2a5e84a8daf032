// SPDX-License-Identifier: Apache-2.0
// onnxtool compare: two sets of values (dumps, .npy directories, .npz, backend test data sets,
// run_npy.mjs outputs) held against each other value by value, in the model's execution order,
// naming the first node whose output diverges and how its inputs compared.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <ostream>

#include <nlohmann/json.hpp>

#include "app/commands.h"
#include "core/diag/error.h"
#include "core/exec/set_compare.h"
#include "core/exec/value_dump.h"
#include "core/model/model.h"
#include "onnx.pb.h"

namespace onnxtool::app {

namespace {

struct CompareOptions {
  std::string a, b, model;
  double rtol = 1e-3, atol = 1e-7;
  bool all = false;
};

std::string num(double v) {
  if (std::isnan(v)) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string pad(const std::string& s, std::size_t width) {
  return s.size() >= width ? s + ' ' : s + std::string(width - s.size(), ' ');
}

std::string nan_inf(int64_t nans, int64_t infs) {
  return std::to_string(nans) + "/" + std::to_string(infs);
}

// "max abs 0.02, max rel 0.5, 3 of 1000 differ" or the structural problem.
std::string errors_text(const Comparison& c) {
  if (!c.structural.empty()) return c.structural;
  std::string s = "max abs " + num(c.max_abs_err) + ", max rel " + num(c.max_rel_err);
  if (c.floating) s += ", cosine " + num(c.cosine());
  return s + ", " + std::to_string(c.mismatches) + " of " + std::to_string(c.elements) + " differ";
}

// How one input of the first divergent node compared, or why it was not.
std::string input_text(const SetComparison& r, const std::string& input) {
  if (input.empty()) return "(omitted)";
  const ValueDiff* d = r.find(input);
  if (!d) {
    const auto in = [&](const std::vector<std::string>& keys) {
      return std::find(keys.begin(), keys.end(), input) != keys.end();
    };
    const char* where = in(r.only_a)   ? "only in A"
                        : in(r.only_b) ? "only in B"
                                       : "in neither set (a weight, or a value not listed)";
    return "\"" + input + "\": " + where;
  }
  return "\"" + input + "\": " + (d->cmp.ok ? "within tolerance (" : "diverges (") +
         errors_text(d->cmp) + ")";
}

void print_table(const CompareOptions& opt, const SetComparison& r, Io& io) {
  io.out << pad("value", 28) << pad("status", 8) << pad("max abs", 10) << pad("max rel", 10)
         << pad("mismatches", 16) << pad("cosine", 10) << pad("nan/inf A", 10) << "nan/inf B\n";
  for (const auto& v : r.values) {
    // Without --all, the values up to the first divergence and every divergent one.
    const bool before_first = r.first_divergent < 0 || &v - r.values.data() <= r.first_divergent;
    if (!opt.all && !before_first && v.cmp.ok) continue;
    const Comparison& c = v.cmp;
    io.out << pad(v.key, 28) << pad(c.ok ? "ok" : "DIFF", 8);
    if (!c.structural.empty()) {
      io.out << c.structural << '\n';
      continue;
    }
    io.out << pad(num(c.max_abs_err), 10) << pad(num(c.max_rel_err), 10)
           << pad(std::to_string(c.mismatches) + "/" + std::to_string(c.elements), 16)
           << pad(num(c.cosine()), 10) << pad(nan_inf(c.nan_actual, c.inf_actual), 10)
           << nan_inf(c.nan_expected, c.inf_expected) << '\n';
  }
}

void print_text(const CompareOptions& opt, const ValueSet& a, const ValueSet& b,
                const SetComparison& r, const GlobalOptions& g, Io& io) {
  if (!g.quiet) print_table(opt, r, io);
  io.out << "compared " << r.values.size() << " values (" << a.kind << " vs " << b.kind << "; rtol "
         << num(opt.rtol) << ", atol " << num(opt.atol) << "): " << r.divergent << " diverge";
  if (!r.only_a.empty() || !r.only_b.empty())
    io.out << "; " << r.only_a.size() << " only in A, " << r.only_b.size() << " only in B";
  if (!r.skipped.empty()) io.out << "; " << r.skipped.size() << " not tensors, skipped";
  io.out << '\n';
  if (r.first_divergent < 0) return;
  const ValueDiff& d = r.values[static_cast<std::size_t>(r.first_divergent)];
  io.out << "first divergence: \"" << d.key << "\"";
  if (!d.node.empty()) io.out << ", output of " << d.node;
  io.out << ": " << errors_text(d.cmp);
  if (!d.cmp.first_where.empty())
    io.out << "; first at " << d.cmp.first_where << ": " << d.cmp.first_actual << " vs "
           << d.cmp.first_expected;
  io.out << '\n';
  for (const auto& in : d.inputs) io.out << "  input " << input_text(r, in) << '\n';
  if (d.node.empty()) io.out << "  (give --model to name the node and its inputs)\n";
}

nlohmann::json diff_json(const ValueDiff& v) {
  const Comparison& c = v.cmp;
  nlohmann::json j = {{"value", v.key},
                      {"ok", c.ok},
                      {"elements", c.elements},
                      {"mismatches", c.mismatches},
                      {"max_abs_err", c.max_abs_err},
                      {"max_rel_err", c.max_rel_err},
                      {"nan_a", c.nan_actual},
                      {"inf_a", c.inf_actual},
                      {"nan_b", c.nan_expected},
                      {"inf_b", c.inf_expected}};
  j["cosine"] = c.floating && !std::isnan(c.cosine()) ? nlohmann::json(c.cosine()) : nullptr;
  if (!c.structural.empty()) j["structural"] = c.structural;
  if (!c.first_where.empty())
    j["first"] = {{"at", c.first_where}, {"a", c.first_actual}, {"b", c.first_expected}};
  if (!v.node.empty()) j["node"] = v.node;
  if (!v.op.empty()) j["op"] = v.op;
  if (!v.inputs.empty()) j["inputs"] = v.inputs;
  return j;
}

nlohmann::json report_json(const CompareOptions& opt, const ValueSet& a, const ValueSet& b,
                           const SetComparison& r) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& v : r.values) values.push_back(diff_json(v));
  nlohmann::json j = {{"a", {{"source", a.source}, {"kind", a.kind}}},
                      {"b", {{"source", b.source}, {"kind", b.kind}}},
                      {"rtol", opt.rtol},
                      {"atol", opt.atol},
                      {"compared", r.values.size()},
                      {"divergent", r.divergent},
                      {"only_a", r.only_a},
                      {"only_b", r.only_b},
                      {"skipped", r.skipped},
                      {"values", values}};
  if (r.first_divergent >= 0) {
    const ValueDiff& d = r.values[static_cast<std::size_t>(r.first_divergent)];
    nlohmann::json inputs = nlohmann::json::array();
    for (const auto& in : d.inputs) {
      const ValueDiff* id = r.find(in);
      inputs.push_back(id ? diff_json(*id) : nlohmann::json{{"value", in}, {"compared", false}});
    }
    j["first_divergence"] = {{"value", d.key}, {"node", d.node}, {"op", d.op}, {"inputs", inputs}};
  } else {
    j["first_divergence"] = nullptr;
  }
  return j;
}

int run_compare(const CompareOptions& opt, const GlobalOptions& g, Io& io) {
  std::optional<Model> model;
  if (!opt.model.empty()) {
    DiagSink sink;
    model = load_model(opt.model, {}, sink);
    if (!sink.ok()) {
      print_diagnostics(sink.diagnostics(), g, io);
      return 1;
    }
  }
  const onnx::ModelProto* proto = model ? model->proto.get() : nullptr;
  const ValueSet a = read_value_set(opt.a, proto), b = read_value_set(opt.b, proto);
  SetCompareOptions o;
  o.tolerance = {opt.rtol, opt.atol};
  o.model = proto;
  const SetComparison r = compare_sets(a, b, o);
  if (r.values.empty())
    throw_invalid("compare.nothing-in-common", opt.a, "",
                  "no value is in both " + opt.a + " and " + opt.b + " (" +
                      std::to_string(a.values.size()) + " and " + std::to_string(b.values.size()) +
                      " values)");
  if (g.json)
    print_json(report_json(opt, a, b, r), io);
  else
    print_text(opt, a, b, r, g, io);
  return r.divergent > 0 ? 1 : 0;
}

}  // namespace

Command add_compare(CLI::App& app, GlobalOptions&) {
  auto opt = std::make_shared<CompareOptions>();
  Command c;
  c.app = app.add_subcommand(
      "compare", "compare two sets of values (outputs or dumps) and name the first divergence");
  c.app
      ->add_option("a", opt->a,
                   "values: a --dump-values directory, a directory of .npy, an .npz, a "
                   "test_data_set directory, or run_npy.mjs's outputs.json")
      ->required();
  c.app->add_option("b", opt->b, "the reference values, in any of the same forms")->required();
  c.app->add_option("--model", opt->model,
                    "the model: execution order, producing nodes, test data set output names");
  c.app->add_option("--rtol", opt->rtol, "relative tolerance (default 1e-3)");
  c.app->add_option("--atol", opt->atol, "absolute tolerance (default 1e-7)");
  c.app->add_flag("--all", opt->all,
                  "list every value (default: up to the first divergence, then divergent ones)");
  c.action = [opt](const GlobalOptions& g, Io& io) {
    return guarded(g, io, [&] { return run_compare(*opt, g, io); });
  };
  return c;
}

}  // namespace onnxtool::app
