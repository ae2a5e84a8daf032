// SPDX-License-Identifier: Apache-2.0
// Tests in the ONNX backend layout (what `onnxtool test` and the conformance suite run): finding
// them, passing, failing with the missing piece named, and surviving crashes and hangs.
#include <doctest/doctest.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "core/diag/error.h"
#include "core/exec/backend_test.h"
#include "core/types/tensor_proto.h"
#include "tests/support/support.h"
#include "tests/unit/test_exec_util.h"

using namespace onnxtool;
using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

void write_tensor(const fs::path& p, const Tensor& t) {
  onnx::TensorProto proto;
  tensor_to_proto(t, proto);
  write_file(p, proto.SerializeAsString());
}

// DIR/NAME/model.onnx (y = -x with `op`) and one data set expecting `expected`.
fs::path make_test(const fs::path& dir, const std::string& name, const std::string& op,
                   const std::vector<float>& expected) {
  ModelBuilder b;
  b.input("x", 1, {"2"});
  b.node(op, {"x"}, {"y"}, "n");
  b.output("y", 1, {"2"});
  const fs::path t = dir / name;
  fs::create_directories(t / "test_data_set_0");
  write_file(t / "model.onnx", b.proto().SerializeAsString());
  write_tensor(t / "test_data_set_0" / "input_0.pb", floats({2}, {1, 2}));
  write_tensor(t / "test_data_set_0" / "output_0.pb", floats({2}, expected));
  return t;
}

BackendTestResult run_one(const fs::path& dir, const Registry& reg, bool isolate,
                          double timeout = 60) {
  auto tests = find_backend_tests(dir);
  REQUIRE(tests.size() == 1);
  BackendTestOptions o;
  o.registry = &reg;
  o.isolate = isolate;
  o.threads = 1;
  o.timeout_seconds = timeout;
  return run_backend_test(tests[0], o);
}

}  // namespace

TEST_CASE("backend tests pass, or fail naming what is missing or what differs") {
  TempDir tmp;
  auto reg = test_registry();
  for (bool isolate : {false, true}) {
    CAPTURE(isolate);
    auto ok = run_one(make_test(tmp.path(), "test_neg", "Neg", {-1, -2}), *reg, isolate);
    CHECK(ok.passed);
    CHECK(ok.data_sets == 1);
    CHECK(ok.name == "test_neg");
    auto wrong = run_one(make_test(tmp.path(), "test_wrong", "Neg", {-1, -3}), *reg, isolate);
    CHECK_FALSE(wrong.passed);
    CHECK(wrong.reason ==
          "test_data_set_0: mismatch in output 0 \"y\": 1 of 2 elements differ (max abs err 1, "
          "max rel err 0.333); first at [1]: -2, expected -3");
    auto missing =
        run_one(make_test(tmp.path(), "test_nokernel", "NoKernel", {1, 2}), *reg, isolate);
    CHECK(missing.reason == "no kernel for NoKernel-1");
    auto failing = run_one(make_test(tmp.path(), "test_fail", "Fail", {1, 2}), *reg, isolate);
    CHECK(failing.reason == "graph.node[0] \"n\" (Fail): boom at index 7");
  }
}

TEST_CASE("a crash or a hang in an isolated test fails that test only") {
  TempDir tmp;
  auto reg = test_registry();
  reg->add("", "Abort").since(1).input("X", "T").output("Y", "T").kernel([](KernelContext&) {
    std::abort();
  });
  reg->add("", "Hang").since(1).input("X", "T").output("Y", "T").kernel([](KernelContext&) {
    std::this_thread::sleep_for(std::chrono::seconds(20));
  });
  auto crashed = run_one(make_test(tmp.path(), "test_abort", "Abort", {0, 0}), *reg, true);
  CHECK_FALSE(crashed.passed);
  CHECK(crashed.reason == "crashed (SIGABRT)");
  auto hung = run_one(make_test(tmp.path(), "test_hang", "Hang", {0, 0}), *reg, true, 1);
  CHECK(hung.reason == "timed out after 1 s");
  CHECK(hung.ms < 10000);
}

TEST_CASE("tests are found recursively, in order, in both layouts") {
  TempDir tmp;
  make_test(tmp.path() / "suite", "test_b", "Neg", {-1, -2});
  make_test(tmp.path() / "suite", "test_a", "Neg", {-1, -2});
  // The light layout: NAME.onnx with NAME_output_0.pb; the input comes as zeros.
  ModelBuilder b;
  b.input("data_0", 1, {"1", "2"});
  b.node("Neg", {"data_0"}, {"y"});
  b.output("y");
  fs::create_directories(tmp.path() / "light");
  write_file(tmp.path() / "light" / "light_x.onnx", b.proto().SerializeAsString());
  write_tensor(tmp.path() / "light" / "light_x_output_0.pb", floats({1, 2}, {0, 0}));
  auto tests = find_backend_tests(tmp.path());
  REQUIRE(tests.size() == 3);
  CHECK(tests[0].name == "light_x");
  CHECK(tests[1].name == "test_a");
  CHECK(tests[2].name == "test_b");
  auto reg = test_registry();
  BackendTestOptions o;
  o.registry = reg.get();
  o.isolate = false;
  CHECK(run_backend_test(tests[0], o).passed);
  CHECK_THROWS_AS(find_backend_tests(tmp.path() / "nowhere"), Error);
}
