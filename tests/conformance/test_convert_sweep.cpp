// SPDX-License-Identifier: Apache-2.0
// Opset conversion over the backend node tests: each test that passes as stored is converted to
// every ai.onnx opset from 7 to 28 (and, when it imports ai.onnx.ml, to every ml opset from 1 to
// 5), and each result is
//   (a) converted: it passes the checker and `onnxtool test` gives the test's expected outputs,
//       and converted back to its own opset it does again (the round trip),
//   (b) refused with convert.no-equivalent (the target cannot express it),
//   (n) refused as an approximation (--allow-approximate converts it) or for want of an
//       adapter (convert.no-adapter: onnxtool's gap),
//   (c) a failure: a crash, a model the checker rejects, or outputs that differ.
// (c) must never happen. CI runs a fixed slice (every 24th test, every target; every 192nd under
// the sanitizers; the handful of ml tests always); the whole sweep runs with
// ONNXTOOL_CONVERT_SWEEP=full (scripts/convert-sweep.sh).
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "app/cli_progress.h"
#include "core/convert/ir_version.h"
#include "core/convert/opset_convert.h"
#include "core/diag/error.h"
#include "core/exec/backend_test.h"
#include "core/exec/function_body.h"
#include "core/infer/engine.h"
#include "core/ir/graph.h"
#include "core/model/model.h"
#include "core/registry/registry.h"
#include "onnx.pb.h"
#include "tests/support/support.h"

using namespace onnxtool;
using namespace onnxtool::test;
namespace fs = std::filesystem;

// The sanitizer build runs a thinner slice: the same code paths, a fraction of the time.
constexpr int kSliceEvery = kSanitized ? 192 : 24;

namespace {

// The tests the node manifest lists as passing as stored.
std::set<std::string> passing_node_tests() {
  std::set<std::string> out;
  std::ifstream in(source_dir() / "tests" / "conformance" / "node.manifest");
  for (std::string line; std::getline(in, line);) {
    const auto space = line.find(' ');
    if (space != std::string::npos && line.substr(space + 1) == "pass")
      out.insert(line.substr(0, space));
  }
  return out;
}

enum class Outcome { converted, no_equivalent, no_adapter, failed };

struct Attempt {
  Outcome outcome = Outcome::failed;
  std::string detail;
};

// Converts model to `target` of `domain` as `onnxtool convert --opset` does (the IR version
// restamped, the result checked); the converted proto when it passes.
Attempt convert_only(const Model& model, const std::string& domain, int64_t target,
                     const std::string& name, onnx::ModelProto* converted) {
  Attempt a;
  DiagSink sink;
  const InferResult types = infer_model(model, {}, sink);
  convert::Options o;
  o.targets = {{domain, target}};
  o.parse_body = default_function_body_parser();
  o.type_of = [&](const std::string& value) -> const Type* {
    const ValueRecord* r = types.find(value);
    return r ? &r->type : nullptr;
  };
  ir::ModelGraph g = ir::ModelGraph::from_proto(*model.proto);
  const convert::Report r = convert::convert_opsets(g, Registry::standard(), o);
  if (!r.ok()) {
    bool gap = false;
    for (const auto& n : r.nodes)
      if (n.action == convert::NodeOutcome::Action::refused && n.rule != "convert.no-equivalent") {
        gap = true;
        a.detail = n.from + ": " + n.why;
      }
    if (!gap)
      for (const auto& n : r.nodes)
        if (n.action == convert::NodeOutcome::Action::refused) a.detail = n.from + ": " + n.why;
    a.outcome = gap ? Outcome::no_adapter : Outcome::no_equivalent;
    return a;
  }
  *converted = g.to_proto();
  bool down = false;
  for (const auto& d : r.domains) down = down || d.to < d.from;
  auto errors = convert::restamp_ir(*converted, std::nullopt, down, name);
  const auto checked = convert::check_errors(*converted, name);
  errors.insert(errors.end(), checked.begin(), checked.end());
  if (!errors.empty()) {
    a.detail = "does not pass check: " + errors.front().location + ": " + errors.front().message +
               " [" + errors.front().rule + "]";
    return a;
  }
  a.outcome = Outcome::converted;
  return a;
}

// Runs the test's data sets against `proto`, written to dir/model.onnx.
Attempt test_converted(const BackendTestCase& test, const onnx::ModelProto& proto,
                       const fs::path& dir) {
  Attempt a;
  fs::create_directories(dir);
  write_file(dir / "model.onnx", proto.SerializeAsString());
  BackendTestCase copy = test;
  copy.model = dir / "model.onnx";
  BackendTestOptions bo;
  bo.threads = 1;
  bo.isolate = true;
  bo.timeout_seconds = 120;
  const BackendTestResult t = run_backend_test(copy, bo);
  if (t.passed)
    a.outcome = Outcome::converted;
  else
    a.detail = "wrong result: " + t.reason;
  return a;
}

Model as_model(const onnx::ModelProto& proto, const std::string& name) {
  return model_from_proto(std::make_shared<onnx::ModelProto>(proto), name, ".");
}

int64_t opset_of(const Model& m, const std::string& domain) {
  for (const auto& o : m.proto->opset_import())
    if (normalize_domain(o.domain()) == domain) return o.version();
  return 0;
}

// Converted to `target`, tested, then converted back to the model's own opset and tested again
// (the round trip must compute the same).
Attempt convert_and_test(const BackendTestCase& test, const Model& model, const std::string& domain,
                         int64_t target, const fs::path& dir) {
  try {
    onnx::ModelProto converted;
    Attempt a = convert_only(model, domain, target, test.name, &converted);
    if (a.outcome != Outcome::converted) return a;
    a = test_converted(test, converted, dir / "there");
    if (a.outcome != Outcome::converted) return a;
    const int64_t home = opset_of(model, domain);
    if (home == target || home == 0) return a;  // 0: the model does not import the domain
    onnx::ModelProto back;
    Attempt b = convert_only(as_model(converted, test.name), domain, home, test.name, &back);
    if (b.outcome != Outcome::converted) {
      b.outcome = Outcome::failed;  // the way back must exist: the original is there
      b.detail = "round trip back to " + std::to_string(home) + ": " + b.detail;
      return b;
    }
    b = test_converted(test, back, dir / "back");
    if (b.outcome != Outcome::converted) b.detail = "round trip: " + b.detail;
    return b;
  } catch (const Error& e) {
    return {Outcome::failed, std::string("error: ") + e.what()};
  } catch (const std::exception& e) {
    return {Outcome::failed, std::string("exception: ") + e.what()};
  }
}

}  // namespace

TEST_CASE(
    "every passing backend node test converts to every opset 7-28 (and ai.onnx.ml 1-5), or is "
    "refused") {
  const fs::path shared = require_shared_dir("the opset conversion sweep over the node tests");
  const char* mode = std::getenv("ONNXTOOL_CONVERT_SWEEP");
  const bool full = mode && std::string(mode) == "full";
  const std::set<std::string> passing = passing_node_tests();
  const auto tests = find_backend_tests(shared / "onnx-backend-tests" / "node");
  REQUIRE(tests.size() > 1000);
  TempDir tmp;
  std::map<int64_t, std::map<Outcome, int>> table, ml_table;
  std::vector<std::string> failures;
  std::map<std::string, int> gaps;  // the first missing adapter of each, and how often
  int used = 0, ml_used = 0, index = 0;
  // scripts/convert-sweep.sh takes a quarter of an hour: on a terminal, say where it is.
  app::Io io{std::cout, std::cerr, isatty(STDERR_FILENO) != 0};
  app::Progress progress(io, app::GlobalOptions{}, tests.size(), full);
  for (std::size_t t = 0; t < tests.size(); ++t) {
    const auto& test = tests[t];
    progress.start(t, test.name);
    if (!passing.count(test.name)) continue;
    const bool in_slice = full || index++ % kSliceEvery == 0;
    DiagSink sink;
    const Model model = load_model(test.model.string(), {}, sink);
    // The few tests that import ai.onnx.ml go to every ml opset in every run.
    const bool ml = opset_of(model, "ai.onnx.ml") > 0;
    if (!in_slice && !ml) continue;
    const auto attempt = [&](const std::string& domain, int64_t target, auto& counts) {
      const Attempt a = convert_and_test(test, model, domain, target,
                                         tmp / (test.name + "_" + std::to_string(target)));
      ++counts[target][a.outcome];
      const std::string to = (domain.empty() ? "" : domain + " ") + std::to_string(target);
      if (a.outcome == Outcome::failed)
        failures.push_back(test.name + " -> " + to + ": " + a.detail);
      if (a.outcome == Outcome::no_adapter) ++gaps[a.detail.substr(0, 160)];
    };
    if (in_slice) {
      ++used;
      for (int64_t target = 7; target <= 28; ++target) attempt("", target, table);
    }
    if (ml) {
      ++ml_used;
      for (int64_t target = 1; target <= 5; ++target) attempt("ai.onnx.ml", target, ml_table);
    }
    fs::remove_all(tmp.path());
    fs::create_directories(tmp.path());
  }
  progress.clear();
  std::ostringstream out;
  out << "opset conversion of " << used << " passing node tests ("
      << (full ? std::string("all") : "one in " + std::to_string(kSliceEvery))
      << "): a converted and correct, b refused (no equivalent), n refused (approximate, or no "
         "adapter yet), c "
         "failed\n";
  out << "  target      a      b      n      c\n";
  std::map<Outcome, int> total;
  for (const auto& [target, counts] : table) {
    out << "  " << std::setw(6) << target;
    for (Outcome o :
         {Outcome::converted, Outcome::no_equivalent, Outcome::no_adapter, Outcome::failed}) {
      const auto it = counts.find(o);
      const int n = it == counts.end() ? 0 : it->second;
      total[o] += n;
      out << std::setw(7) << n;
    }
    out << '\n';
  }
  out << "  all   " << std::setw(7) << total[Outcome::converted] << std::setw(7)
      << total[Outcome::no_equivalent] << std::setw(7) << total[Outcome::no_adapter] << std::setw(7)
      << total[Outcome::failed] << '\n';
  out << "ai.onnx.ml conversion of the " << ml_used << " passing tests that import it:\n"
      << "  target      a      b      n      c\n";
  for (const auto& [target, counts] : ml_table) {
    out << "  " << std::setw(6) << target;
    for (Outcome o :
         {Outcome::converted, Outcome::no_equivalent, Outcome::no_adapter, Outcome::failed}) {
      const auto it = counts.find(o);
      out << std::setw(7) << (it == counts.end() ? 0 : it->second);
    }
    out << '\n';
  }
  std::cout << out.str();
  std::vector<std::pair<int, std::string>> by_count;
  for (const auto& [what, n] : gaps) by_count.push_back({n, what});
  std::sort(by_count.rbegin(), by_count.rend());
  for (std::size_t i = 0; i < by_count.size() && i < 15; ++i)
    std::cout << "  missing (" << by_count[i].first << "x): " << by_count[i].second << '\n';
  for (std::size_t i = 0; i < failures.size() && i < 40; ++i) MESSAGE(failures[i]);
  CHECK(failures.empty());
}

TEST_CASE("light and pytorch models at the lowest and the highest opset they reach") {
  const fs::path shared =
      require_shared_dir("the opset conversion of the light and pytorch models");
  TempDir tmp;
  int models = 0, converted = 0;
  std::vector<std::string> failures, lines;
  // Under the sanitizers the light models (whole CNNs, several seconds a run there) and the
  // pytorch-converted ones are left to the release build: pytorch-operator takes the same paths.
  if (kSanitized)
    MESSAGE("sanitizer build: the light and pytorch-converted models are left to the release run");
  for (const char* suite : {"light", "pytorch-converted", "pytorch-operator"}) {
    if (kSanitized && std::string(suite) != "pytorch-operator") continue;
    for (const auto& test : find_backend_tests(shared / "onnx-backend-tests" / suite)) {
      BackendTestOptions bo;
      bo.isolate = true;
      bo.threads = 1;
      if (!run_backend_test(test, bo).passed) continue;  // not the converter's to fix
      ++models;
      DiagSink sink;
      const Model model = load_model(test.model.string(), {}, sink);
      const int64_t home = opset_of(model, "");
      // The lowest: down one step at a time until a node is refused.
      int64_t lowest = home;
      for (int64_t t = home - 1; t >= 1; --t) {
        onnx::ModelProto ignored;
        if (convert_only(model, "", t, test.name, &ignored).outcome != Outcome::converted) break;
        lowest = t;
      }
      for (int64_t target : {lowest, int64_t{28}}) {
        const Attempt a = convert_and_test(test, model, "", target,
                                           tmp / (test.name + "_" + std::to_string(target)));
        if (a.outcome == Outcome::converted)
          ++converted;
        else
          failures.push_back(std::string(suite) + "/" + test.name + " -> " +
                             std::to_string(target) + ": " + a.detail);
      }
      lines.push_back(std::string(suite) + "/" + test.name + ": opset " + std::to_string(home) +
                      ", reaches " + std::to_string(lowest) + " to 28");
    }
  }
  std::cout << models << " light and pytorch models, each at its lowest and at opset 28 and back: "
            << converted << " of " << 2 * models << " compute their expected outputs\n";
  for (const auto& l : lines) MESSAGE(l);
  for (const auto& f : failures) MESSAGE(f);
  CHECK(failures.empty());
}
