// SPDX-License-Identifier: Apache-2.0
// `simplify` against the backend data: every light, pytorch-converted and pytorch-operator model
// is simplified, the result must pass check where the original does, and it must pass the
// model's own test data wherever the original passes (the manifests). The node counts before
// and after are printed, model by model.
#include <doctest/doctest.h>

#include <fstream>
#include <iostream>
#include <set>

#include "core/convert/ir_version.h"
#include "core/diag/error.h"
#include "core/edit/simplify.h"
#include "core/exec/backend_test.h"
#include "core/exec/blas.h"
#include "core/model/model.h"
#include "onnx.pb.h"
#include "tests/support/support.h"

using namespace onnxtool;
namespace fs = std::filesystem;

namespace {

std::set<std::string> passing(const char* manifest) {
  std::set<std::string> pass;
  std::ifstream in(test::source_dir() / "tests" / "conformance" / manifest);
  for (std::string line; std::getline(in, line);) {
    const auto space = line.find(' ');
    if (space != std::string::npos && line.substr(space + 1) == "pass")
      pass.insert(line.substr(0, space));
  }
  return pass;
}

struct Totals {
  int models = 0, ran = 0, passed = 0;
  std::size_t before = 0, after = 0;
};

void simplify_suite(const char* folder, const char* manifest, bool (*keep)(const std::string&),
                    Totals& totals) {
  const fs::path root =
      test::require_shared_dir("the ONNX backend test data") / "onnx-backend-tests" / folder;
  const auto tests = find_backend_tests(root);
  REQUIRE(!tests.empty());
  const std::set<std::string> pass = passing(manifest);
  test::TempDir tmp;
  BackendTestOptions opt;
  opt.threads = 1;
  for (const BackendTestCase& t : tests) {
    if (keep && !keep(t.name)) continue;
    INFO(folder << "/" << t.name);
    DiagSink sink;
    Model m = load_model(t.model.string(), {}, sink);
    const bool was_valid = convert::check_errors(*m.proto, t.name).empty();
    SimplifyReport r;
    try {
      r = simplify_model(m, {});
    } catch (const Error& e) {
      FAIL_CHECK("simplify failed: " << e.what());
      continue;
    }
    ++totals.models;
    totals.before += r.nodes_before;
    totals.after += r.nodes_after;
    if (std::string(folder) == "light")
      std::cout << "  simplify " << t.name << ": " << r.nodes_before << " -> " << r.nodes_after
                << " nodes\n";
    if (was_valid) {
      const auto broken = convert::check_errors(*m.proto, t.name);
      CHECK_MESSAGE(broken.empty(), "the simplified model fails check: "
                                        << (broken.empty() ? "" : broken[0].message));
    }
    if (!pass.count(t.name)) continue;
    const fs::path piece = tmp / (t.name + ".onnx");
    save_model(m, piece.string());
    ++totals.ran;
    const BackendTestResult res = run_backend_test({t.name, piece, t.data_sets}, opt);
    totals.passed += res.passed ? 1 : 0;
    CHECK_MESSAGE(res.passed,
                  "the simplified model fails where the original passes: " << res.reason);
  }
}

}  // namespace

TEST_CASE("simplify: light, pytorch-converted and pytorch-operator models keep their outputs") {
  blas::info();
  Totals totals;
  simplify_suite("light", "light.manifest",
                 test::kSanitized ? test::light_model_in_sanitizer_slice : nullptr, totals);
  simplify_suite("pytorch-converted", "pytorch-converted.manifest", nullptr, totals);
  simplify_suite("pytorch-operator", "pytorch-operator.manifest", nullptr, totals);
  std::cout << "simplify: " << totals.models << " models, " << totals.before << " -> "
            << totals.after << " nodes; " << totals.passed << " of " << totals.ran
            << " pass their test data as the originals do\n";
}
