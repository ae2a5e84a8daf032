// SPDX-License-Identifier: Apache-2.0
// The BLAS wrapper: the products agree with the reference order for every transpose and stride,
// bit for bit; the pool split gives the same bits; OpenBLAS runs the best core the CPU allows
// unless the user chose one, and -v says so. The tests that start onnxtool set or clear the
// OpenBLAS variables for that child themselves, so they pass whatever this environment says.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/exec/blas.h"
#include "core/exec/session.h"
#include "tests/support/support.h"
#include "tests/unit/test_exec_util.h"

using namespace onnxtool;

namespace {

std::vector<float> random_floats(std::size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1, 1);
  std::vector<float> v(n);
  for (auto& x : v) x = u(rng);
  return v;
}

double max_diff(const std::vector<float>& a, const std::vector<float>& b) {
  double d = 0;
  for (std::size_t i = 0; i < a.size(); ++i) d = std::max(d, std::fabs(double(a[i]) - b[i]));
  return d;
}

}  // namespace

TEST_CASE("sgemm agrees with the reference loop for transposes, strides, alpha and beta") {
  const int64_t m = 37, n = 29, k = 41, pad = 3;
  for (bool ta : {false, true})
    for (bool tb : {false, true}) {
      CAPTURE(ta);
      CAPTURE(tb);
      const int64_t lda = (ta ? m : k) + pad, ldb = (tb ? k : n) + pad, ldc = n + pad;
      auto a = random_floats(static_cast<std::size_t>((ta ? k : m) * lda), 1);
      auto b = random_floats(static_cast<std::size_t>((tb ? n : k) * ldb), 2);
      auto c1 = random_floats(static_cast<std::size_t>(m * ldc), 3);
      auto c2 = c1;
      blas::sgemm(ta, tb, m, n, k, 0.5f, a.data(), lda, b.data(), ldb, 2.0f, c1.data(), ldc);
      blas::reference_sgemm(ta, tb, m, n, k, 0.5f, a.data(), lda, b.data(), ldb, 2.0f, c2.data(),
                            ldc);
      if (blas::info().gemm == "onnxtool")
        CHECK(c1 == c2);
      else
        CHECK(max_diff(c1, c2) < 1e-4);
    }
}

TEST_CASE("dgemm agrees with the reference loop; k = 0 only scales C") {
  std::vector<double> a = {1, 2, 3, 4, 5, 6}, b = {1, 0, 0, 1, 1, 1}, c(4, 1.0), r(4, 1.0);
  blas::dgemm(false, false, 2, 2, 3, 1.0, a.data(), 3, b.data(), 2, 1.0, c.data(), 2);
  blas::reference_dgemm(false, false, 2, 2, 3, 1.0, a.data(), 3, b.data(), 2, 1.0, r.data(), 2);
  CHECK(c == r);
  CHECK(c == std::vector<double>{5, 6, 11, 12});
  std::vector<float> x(4, 3.0f);
  blas::sgemm(false, false, 2, 2, 0, 1.0f, nullptr, 1, nullptr, 2, 0.5f, x.data(), 2);
  CHECK(x == std::vector<float>{1.5f, 1.5f, 1.5f, 1.5f});
}

TEST_CASE("a GEMM split over the kernel's thread pool gives the same bits") {
  auto reg = test::test_registry();
  test::ModelBuilder mb;
  mb.input("a", 1, {"300", "200"});
  mb.input("b", 1, {"200", "250"});
  mb.node("Gemm", {"a", "b"}, {"c"});
  mb.output("c");
  Model model = mb.build();
  SessionOptions so;
  so.registry = reg.get();
  so.threads = 3;
  Session s(model, so);
  auto a = random_floats(300 * 200, 4), b = random_floats(200 * 250, 5);
  auto out = s.run({{"a", test::floats({300, 200}, a)}, {"b", test::floats({200, 250}, b)}});
  std::vector<float> want(300 * 250);
  blas::reference_sgemm(false, false, 300, 250, 200, 1, a.data(), 200, b.data(), 250, 0,
                        want.data(), 250);
  if (blas::info().gemm == "onnxtool")
    CHECK(test::values_of(out[0]) == want);
  else
    CHECK(max_diff(test::values_of(out[0]), want) < 1e-3);
}

TEST_CASE("OpenBLAS is loaded with a core at least as capable as the CPU allows") {
  const auto& info = blas::info();
  INFO(blas::describe());
  REQUIRE(info.loaded);
  CHECK(!info.core.empty());
  if (!info.user_coretype) CHECK(blas::core_level(info.core) >= blas::core_level(info.cpu_best));
  CHECK(blas::core_level("SkylakeX") == 3);
  CHECK(blas::core_level("Haswell") == 2);
  CHECK(blas::core_level("Prescott") == 0);
}

namespace {

// onnxtool -v run on the sample model, with the OpenBLAS variables as given (nullopt: unset).
test::CommandResult run_verbose(std::optional<std::string> coretype,
                                std::vector<test::EnvSetting> more = {},
                                std::vector<std::string> extra_args = {}) {
  std::vector<test::EnvSetting> env = {{"OPENBLAS_CORETYPE", std::move(coretype)},
                                       {"OPENBLAS_L2_SIZE", std::nullopt},
                                       {"ONNXTOOL_OPENBLAS_SIMULATE_CORE", std::nullopt},
                                       {"ONNXTOOL_GEMM", std::nullopt}};
  env.insert(env.end(), more.begin(), more.end());
  std::vector<std::string> args = {"-v", "run", "testdata/models/sample.onnxtxt",
                                   "--random-inputs"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  return test::run_onnxtool(args, "", test::source_dir(), env);
}

}  // namespace

TEST_CASE("a fallback core chosen by OpenBLAS is corrected before it initialises") {
  if (blas::core_level(blas::best_core_for_cpu()) == 0) return;  // nothing better to pick
  // Simulate an OpenBLAS that does not know this CPU (falls back to Prescott) in a fresh
  // process, with no core named by the user: the correction happens only at load.
  auto r = run_verbose(std::nullopt, {{"ONNXTOOL_OPENBLAS_SIMULATE_CORE", "Prescott"}});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("OpenBLAS core " + blas::best_core_for_cpu()) != std::string::npos);
  CHECK(r.err.find("OpenBLAS chose Prescott by itself, corrected from cpuid") != std::string::npos);
  CHECK(r.err.find("is slower than what this CPU runs") == std::string::npos);
}

TEST_CASE("a core the user names is kept, and -v says once when it is slower than the CPU's") {
  const std::string best = blas::best_core_for_cpu();
  auto r = run_verbose("Prescott");
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("OpenBLAS core Prescott") != std::string::npos);
  CHECK(r.err.find("as OPENBLAS_CORETYPE asks") != std::string::npos);
  const auto slower = "OPENBLAS_CORETYPE=Prescott is slower than what this CPU runs (" + best + ")";
  const auto at = r.err.find(slower);
  if (blas::core_level(best) > 0) {
    CHECK(at != std::string::npos);
    CHECK(r.err.find(slower, at + 1) == std::string::npos);  // once
  } else {
    CHECK(at == std::string::npos);
  }
  // The products are onnxtool's, whatever the core: the same line names them.
  CHECK(r.err.find("matrix products: onnxtool") != std::string::npos);

  auto json = run_verbose("Prescott", {}, {"--json"});
  INFO(json.out);
  REQUIRE(json.exit_code == 0);
  const auto doc = nlohmann::json::parse(json.out);
  CHECK(doc["blas"]["core"] == "Prescott");
  CHECK(doc["blas"]["user_coretype"] == true);
  CHECK(doc["blas"]["user_core_slower"] == (blas::core_level(best) > 0));
  CHECK(doc["blas"]["gemm"] == "onnxtool");

  if (blas::core_level(best) == 0) return;
  auto same = run_verbose(best);
  INFO(same.err);
  CHECK(same.err.find("OpenBLAS core " + best) != std::string::npos);
  CHECK(same.err.find("is slower than what this CPU runs") == std::string::npos);
}

TEST_CASE("ONNXTOOL_GEMM=openblas hands the products to OpenBLAS, and -v says so") {
  auto r = run_verbose(std::nullopt, {{"ONNXTOOL_GEMM", "openblas"}});
  INFO(r.err);
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("matrix products: OpenBLAS (ONNXTOOL_GEMM=openblas)") != std::string::npos);
}

// Not run by default (doctest --no-skip runs it; scripts/bench.sh does): sgemm throughput on
// the pool, 2048^3, as the core fix is measured.
TEST_CASE("sgemm GFLOP/s" * doctest::skip()) {
  const int64_t n = 2048;
  auto a = random_floats(static_cast<std::size_t>(n * n), 1);
  auto b = random_floats(static_cast<std::size_t>(n * n), 2);
  std::vector<float> c(static_cast<std::size_t>(n * n));
  auto reg = test::test_registry();
  test::ModelBuilder mb;
  mb.input("a", 1, {"2048", "2048"});
  mb.input("b", 1, {"2048", "2048"});
  mb.node("Gemm", {"a", "b"}, {"c"});
  mb.output("c");
  Model model = mb.build();
  SessionOptions so;
  so.registry = reg.get();
  so.threads = 2;
  Session s(model, so);
  const Value va = test::floats({n, n}, a), vb = test::floats({n, n}, b);
  s.run({{"a", va}, {"b", vb}});
  double best = 1e9;
  for (int r = 0; r < 5; ++r) {
    const auto start = std::chrono::steady_clock::now();
    s.run({{"a", va}, {"b", vb}});
    best = std::min(
        best, std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  std::cout << "sgemm 2048^3 on 2 threads: " << 2.0 * n * n * n / best / 1e9 << " GFLOP/s ("
            << blas::describe() << ")\n";
}
