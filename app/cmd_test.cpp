// SPDX-License-Identifier: Apache-2.0
// onnxtool test: runs folders in the ONNX backend test layout (model.onnx + test_data_set_N),
// one line per test, then "N passed, N failed". The conformance suite runs the same code.
#include <algorithm>
#include <cstdio>
#include <optional>
#include <ostream>
#include <regex>

#include <spdlog/spdlog.h>
#include <nlohmann/json.hpp>

#include "app/cli_formats.h"
#include "app/cli_progress.h"
#include "app/commands.h"
#include "core/diag/error.h"
#include "core/exec/backend_test.h"
#include "core/exec/blas.h"
#include "core/exec/verbose_log.h"

namespace onnxtool::app {

namespace {

struct TestOptions {
  std::vector<std::string> dirs;
  std::string filter;
  std::string junit;  // --junit FILE
  double rtol = 1e-3, atol = 1e-7;
  bool in_process = false, no_fuse = false;
  double timeout = 300;
};

struct Collected {
  std::vector<BackendTestCase> tests;
  std::vector<std::size_t> dir_of;  // index into opt.dirs, per test
};

Collected collect(const TestOptions& opt) {
  std::optional<std::regex> filter;
  if (!opt.filter.empty()) {
    try {
      filter.emplace(opt.filter, std::regex::ECMAScript);
    } catch (const std::regex_error&) {
      throw_usage("--filter: not a valid regular expression: " + opt.filter);
    }
  }
  Collected c;
  for (std::size_t d = 0; d < opt.dirs.size(); ++d)
    for (auto& t : find_backend_tests(opt.dirs[d]))
      if (!filter || std::regex_search(t.name, *filter)) {
        c.tests.push_back(std::move(t));
        c.dir_of.push_back(d);
      }
  return c;
}

// One <testsuite> per folder given, one <testcase> per backend test; a crash or a timeout is
// an <error> (the test could not finish), a wrong answer a <failure>.
std::vector<JUnitSuite> junit_suites(const TestOptions& opt, const Collected& c,
                                     const std::vector<BackendTestResult>& results) {
  std::vector<JUnitSuite> suites(opt.dirs.size());
  for (std::size_t d = 0; d < opt.dirs.size(); ++d) suites[d].name = opt.dirs[d];
  for (std::size_t i = 0; i < results.size(); ++i) {
    const auto& r = results[i];
    JUnitSuite& suite = suites[c.dir_of[i]];
    JUnitCase jc;
    jc.name = r.name;
    jc.classname = "onnxtool.test";
    jc.seconds = r.ms / 1000;
    if (!r.passed) {
      const bool error =
          r.reason.rfind("crashed", 0) == 0 || r.reason.find("timed out") != std::string::npos;
      jc.outcome = error ? JUnitCase::Outcome::error : JUnitCase::Outcome::failed;
      jc.message = r.reason;
      jc.details = r.model + ": " + r.reason;
    }
    suite.seconds += jc.seconds;
    suite.cases.push_back(std::move(jc));
  }
  return suites;
}

std::string result_line(const BackendTestResult& r, bool timing) {
  std::string line = (r.passed ? "PASS " : "FAIL ") + r.name;
  if (timing) {
    char ms[32];
    std::snprintf(ms, sizeof ms, " (%.1f ms)", r.ms);
    line += ms;
  }
  if (!r.passed) line += ": " + r.reason;
  return line;
}

nlohmann::json to_json(const BackendTestResult& r) {
  return {{"name", r.name},     {"model", r.model},         {"passed", r.passed},
          {"reason", r.reason}, {"data_sets", r.data_sets}, {"ms", r.ms}};
}

int run_test(const TestOptions& opt, const GlobalOptions& g, Io& io) {
  ScopedVerboseLog log(io.err, g.verbose);
  const Collected collected = collect(opt);
  const auto& tests = collected.tests;
  if (tests.empty())
    throw_invalid("test.none-found", opt.dirs.size() == 1 ? opt.dirs[0] : "", "",
                  "no tests found (folders with model.onnx and test_data_set_N, or NAME.onnx "
                  "beside NAME_output_0.pb)");
  // Loaded once here, so every test process forked below inherits it.
  blas::log_choice();
  BackendTestOptions bo;
  bo.tolerance = {opt.rtol, opt.atol};
  bo.threads = g.threads;
  bo.isolate = !opt.in_process;
  bo.fuse = !opt.no_fuse;
  bo.timeout_seconds = opt.timeout;
  Progress progress(io, g, tests.size());
  std::size_t passed = 0;
  nlohmann::json results = nlohmann::json::array();
  std::vector<BackendTestResult> all;
  for (std::size_t i = 0; i < tests.size(); ++i) {
    progress.start(i, tests[i].name);
    BackendTestResult r = run_backend_test(tests[i], bo);
    passed += r.passed ? 1 : 0;
    progress.clear();
    if (g.json)
      results.push_back(to_json(r));
    else if (!(g.quiet && r.passed))
      io.out << result_line(r, g.verbose > 0) << '\n';
    all.push_back(std::move(r));
  }
  if (!opt.junit.empty())
    write_junit_file(junit_suites(opt, collected, all), "onnxtool test", opt.junit);
  const std::size_t failed = tests.size() - passed;
  if (g.json)
    print_json({{"tests", results}, {"passed", passed}, {"failed", failed}}, io);
  else
    io.out << passed << " passed, " << failed << " failed\n";
  return failed ? 1 : 0;
}

}  // namespace

Command add_test(CLI::App& app, GlobalOptions&) {
  auto opt = std::make_shared<TestOptions>();
  Command c;
  c.app = app.add_subcommand("test", "run folders of ONNX backend tests (model + test_data_set_N)");
  c.app->add_option("dir", opt->dirs, "test folders, or folders of them (searched recursively)")
      ->required();
  c.app->add_option("--filter", opt->filter, "run only tests whose name matches this regex")
      ->type_name("REGEX");
  c.app
      ->add_option("--junit", opt->junit,
                   "also write the results as JUnit XML to FILE (one testcase per test)")
      ->type_name("FILE");
  c.app->add_option("--rtol", opt->rtol, "relative tolerance for floating-point outputs (1e-3)");
  c.app->add_option("--atol", opt->atol, "absolute tolerance for floating-point outputs (1e-7)");
  c.app->add_option("--timeout", opt->timeout, "seconds a test may take (default 300)")
      ->check(CLI::PositiveNumber);
  c.app->add_flag("--no-fuse", opt->no_fuse,
                  "run the graphs as written (no fusions: results differ by rounding)");
  c.app->add_flag("--in-process", opt->in_process,
                  "run tests in this process (default: one child process each, so a crash "
                  "fails only its test)");
  c.action = [opt](const GlobalOptions& g, Io& io) {
    return guarded_command(g, io, [&] { return run_test(*opt, g, io); });
  };
  return c;
}

}  // namespace onnxtool::app
