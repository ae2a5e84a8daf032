// SPDX-License-Identifier: Apache-2.0
// `onnxtool run` and `onnxtool test` end to end, in process, on models made of control flow
// only (Loop/If/Scan bodies that just pass values through), so they run with the standard
// registry whatever other kernels exist.
#include <doctest/doctest.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "core/kernels/gemm.h"
#include "core/types/npy.h"
#include "core/types/npz.h"
#include "core/types/tensor_proto.h"
#include "tests/support/cli_run.h"
#include "tests/support/support.h"
#include "tests/unit/test_exec_util.h"

using namespace onnxtool;
using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

// acc = x (carried through m iterations), iters = [0, 1, ..., m-1] (a scan output).
void write_loop_model(const fs::path& path) {
  ModelBuilder b;
  b.input("m", 7, {});
  b.input("x", 1, {"2"});
  onnx::GraphProto body;
  for (const char* i : {"i", "cond", "acc"}) body.add_input()->set_name(i);
  for (const char* o : {"cond", "acc", "i"}) body.add_output()->set_name(o);
  ModelBuilder::set_type(*body.mutable_output(2), 7, {});
  auto& loop = b.node("Loop", {"m", "", "x"}, {"acc_out", "iters"}, "loop");
  set_attr(loop, "body", body);
  b.output("acc_out", 1, {"2"});
  b.output("iters", 7, {"M"});
  write_file(path, b.proto().SerializeAsString());
}

CliRun cli(const std::vector<std::string>& args) {
  return run_cli(args);
}

struct Fixture {
  TempDir tmp;
  std::string model, m, x;
  Fixture() {
    model = (tmp / "loop.onnx").string();
    m = (tmp / "m.npy").string();
    x = (tmp / "x.npy").string();
    write_loop_model(model);
    write_npy(m, Tensor::scalar<int64_t>(3));
    write_npy(x, floats({2}, {1.5f, -2}));
  }
};

}  // namespace

TEST_CASE("run: inputs by name, a summary table, outputs written") {
  Fixture f;
  const std::string dir = (f.tmp / "out").string(), npz = (f.tmp / "o.npz").string();
  auto r = cli({"run", f.model, "--input", "m=" + f.m, "--input", "x=" + f.x, "--output-dir", dir,
                "--npz", npz});
  INFO(r.err);
  REQUIRE(r.code == 0);
  CHECK(r.out ==
        "output  type     min        max        mean       first values\n"
        "acc_out float[2] -2         1.5        -0.25      1.5, -2\n"
        "iters   int64[3] 0          2          1          0, 1, 2\n");
  const Tensor iters = read_npy(fs::path(dir) / "iters.npy");
  CHECK(iters.shape() == Shape{3});
  CHECK(iters.data<int64_t>()[2] == 2);
  const auto all = read_npz(npz);
  REQUIRE(all.size() == 2);
  CHECK(all[0].name == "acc_out");
}

TEST_CASE("run: positional input files, random inputs, and --expect") {
  Fixture f;
  auto r = cli({"run", f.model, f.m, f.x, "--output-dir", (f.tmp / "want").string()});
  REQUIRE(r.code == 0);
  // The same inputs again, compared with what was written: a match.
  r = cli({"run", f.model, f.m, f.x, "--expect", (f.tmp / "want").string()});
  INFO(r.err);
  CHECK(r.code == 0);
  CHECK(r.out.find("ok       acc_out") != std::string::npos);
  // Another x: acc_out differs, iters still matches.
  write_npy(f.x, floats({2}, {1.5f, -2.5f}));
  r = cli({"run", f.model, f.m, f.x, "--expect", (f.tmp / "want").string()});
  CHECK(r.code == 1);
  CHECK(r.out.find("MISMATCH acc_out         1 of 2 elements differ (max abs err 0.5, max rel err "
                   "0.25); first at [1]: -2.5, expected -2") != std::string::npos);
  CHECK(r.out.find("ok       iters") != std::string::npos);
  // The same comparison as JUnit XML: a testcase per output.
  const fs::path xml = f.tmp / "run.xml";
  r = cli(
      {"run", f.model, f.m, f.x, "--expect", (f.tmp / "want").string(), "--junit", xml.string()});
  CHECK(r.code == 1);
  CHECK(xml_xpath(xml, "count(//testcase)") == "2");
  CHECK(xml_xpath(xml, "string(//testcase[failure]/@name)") == "acc_out");
  CHECK(cli({"run", f.model, f.m, f.x, "--junit", xml.string()}).code == 2);
  // Random inputs: m becomes 0, so no iteration.
  r = cli({"run", f.model, "--random-inputs", "--seed", "7"});
  CHECK(r.code == 0);
  CHECK(r.out.find("iters   int64[0]") != std::string::npos);
}

TEST_CASE("run: --dim naming no input's dimension, and --threads -1, are usage errors") {
  const std::string sample = (test::testdata_dir() / "models" / "sample.onnxtxt").string();
  auto r = cli({"run", sample, "--random-inputs", "--dim", "typo=640"});
  CHECK(r.code == 2);
  CHECK(r.err.find("--dim typo: no input of the model has a symbolic dimension named") !=
        std::string::npos);
  CHECK(r.err.find("(they have: N)") != std::string::npos);
  r = cli({"run", sample, "--random-inputs", "--dim", "N=2"});
  CHECK(r.code == 0);
  r = cli({"--threads", "-1", "run", sample, "--random-inputs"});
  CHECK(r.code == 2);
  CHECK(r.err.find("expected a whole number of threads, 0 or more") != std::string::npos);
  CHECK(r.err.find("1797693") == std::string::npos);
}

TEST_CASE("run: wrong inputs are usage errors that list what the model expects") {
  Fixture f;
  auto r = cli({"run", f.model, "--input", "nope=" + f.x});
  CHECK(r.code == 2);
  CHECK(r.err.find("error: " + f.model +
                   ": the model has no input \"nope\"; it expects m: int64") != std::string::npos);
  r = cli({"run", f.model, "--input", "m=" + f.m});
  CHECK(r.code == 2);
  CHECK(r.err.find("missing input \"x\"; the model expects m: int64") != std::string::npos);
  r = cli({"run", f.model, "--input", "m=" + f.x, "--input", "x=" + f.x});
  CHECK(r.code == 2);
  CHECK(r.err.find("input \"m\" has element type float, expected int64") != std::string::npos);
}

TEST_CASE("run: --json, --bench and --profile") {
  Fixture f;
  auto r = cli({"run", f.model, f.m, f.x, "--bench", "4", "--warmup", "1", "--profile", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["outputs"][1]["name"] == "iters");
  CHECK(j["outputs"][1]["shape"] == std::vector<int64_t>{3});
  CHECK(j["outputs"][1]["first"] == nlohmann::json::array({0, 1, 2}));
  CHECK(j["outputs"][0]["first"][1].get<double>() == -2);
  CHECK(j["bench"]["runs"] == 4);
  CHECK(j["bench"]["min_ms"].get<double>() <= j["bench"]["median_ms"].get<double>());
  CHECK(j["bench"]["median_ms"].get<double>() <= j["bench"]["p90_ms"].get<double>());
  // The Loop's body computes nothing (it passes its values through): the Loop is in the node
  // list, and no operator type has time.
  CHECK(j["profile"]["nodes"][0]["op_type"] == "Loop");
  CHECK(j["profile"]["op_types"].empty());
  CHECK(j["diagnostics"].empty());

  r = cli({"run", f.model, f.m, f.x, "--bench", "2", "--profile"});
  CHECK(r.out.find("bench: 2 runs after 3 warm-up") != std::string::npos);
  CHECK(r.out.find("graph.node[0] \"loop\" (Loop)") != std::string::npos);
}

TEST_CASE("run --profile: the products' arithmetic per run, as GFLOP/s and a share of the peak") {
  // y = MatMul(Conv(x, w), m): a 3x3 padded Conv of 2 to 3 channels over 4x4 positions (48
  // outputs of 18 multiply-accumulates), then [1,3,4,4] x [4,5] (60 outputs of 4).
  TempDir tmp;
  ModelBuilder b;
  b.input("x", 1, {"1", "2", "4", "4"});
  b.initializer("w", {3, 2, 3, 3}, std::vector<float>(54, 0.5f));
  b.initializer("m", {4, 5}, std::vector<float>(20, 0.25f));
  auto& conv = b.node("Conv", {"x", "w"}, {"c"}, "conv");
  set_attr(conv, "pads", std::vector<int64_t>{1, 1, 1, 1});
  b.node("Relu", {"c"}, {"r"}, "relu");
  b.node("MatMul", {"r", "m"}, {"y"}, "matmul");
  b.output("y", 1, {"1", "3", "4", "5"});
  const std::string model = (tmp / "conv.onnx").string();
  write_file(model, b.proto().SerializeAsString());
  auto r = cli({"run", model, "--random-inputs", "--bench", "3", "--profile", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  std::map<std::string, nlohmann::json> by_op;
  for (const auto& row : j["profile"]["nodes"]) by_op[row["op_type"]] = row;
  REQUIRE(by_op.count("Conv") == 1);  // the Relu folded into it
  CHECK(by_op["Conv"]["macs"] == 864);
  CHECK(by_op["MatMul"]["macs"] == 240);
  CHECK(by_op["Conv"]["gflops"].get<double>() > 0);
  CHECK(by_op["Relu"].is_null());
  // The peak is measured with the SIMD kernels; the scalar level has none.
  const bool simd = kernels::simd_level() != kernels::SimdLevel::scalar;
  CHECK(j["profile"].contains("peak_gflops") == simd);
  CHECK(by_op["Conv"].contains("peak_share") == simd);

  r = cli({"run", model, "--random-inputs", "--bench", "2", "--profile"});
  CHECK(r.out.find(" GFLOP/s ") != std::string::npos);
  CHECK((r.out.find("% of peak") != std::string::npos) == simd);
}

TEST_CASE("test: one line per test, a count, exit 1 when any fails") {
  TempDir tmp;
  for (const char* name : {"test_good", "test_bad"}) {
    const fs::path d = tmp / name;
    fs::create_directories(d / "test_data_set_0");
    write_loop_model(d / "model.onnx");
    auto pb = [](const Tensor& t, const fs::path& p) {
      onnx::TensorProto proto;
      tensor_to_proto(t, proto);
      write_file(p, proto.SerializeAsString());
    };
    pb(Tensor::scalar<int64_t>(2), d / "test_data_set_0" / "input_0.pb");
    pb(floats({2}, {1, 2}), d / "test_data_set_0" / "input_1.pb");
    pb(floats({2}, {1, std::string(name) == "test_good" ? 2.0f : 3.0f}),
       d / "test_data_set_0" / "output_0.pb");
    pb(Tensor::from_vector<int64_t>({2}, {0, 1}), d / "test_data_set_0" / "output_1.pb");
  }
  auto r = cli({"test", tmp.path().string()});
  CHECK(r.code == 1);
  CHECK(r.out ==
        "FAIL test_bad: test_data_set_0: mismatch in output 0 \"acc_out\": 1 of 2 elements "
        "differ (max abs err 1, max rel err 0.333); first at [1]: 2, expected 3\n"
        "PASS test_good\n"
        "1 passed, 1 failed\n");
  const fs::path xml = tmp / "tests.xml";
  r = cli({"test", tmp.path().string(), "--junit", xml.string()});
  CHECK(r.code == 1);
  CHECK(xml_xpath(xml, "count(/testsuites/testsuite/testcase)") == "2");
  CHECK(xml_xpath(xml, "string(//testcase[@name=\"test_bad\"]/failure/@message)")
            .find("mismatch in output 0") != std::string::npos);
  CHECK(xml_xpath(xml, "string(/testsuites/@failures)") == "1");
  r = cli({"test", tmp.path().string(), "--filter", "good$", "--in-process"});
  CHECK(r.code == 0);
  CHECK(r.out == "PASS test_good\n1 passed, 0 failed\n");
  r = cli({"test", tmp.path().string(), "--json"});
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["passed"] == 1);
  CHECK(j["tests"][0]["name"] == "test_bad");
  r = cli({"test", (tmp / "nowhere").string()});
  CHECK(r.code == 3);
  r = cli({"test", tmp.path().string(), "--filter", "("});
  CHECK(r.code == 2);
}

TEST_CASE("run: attributes the operator does not define are reported, once per operator") {
  TempDir dir;
  write_file(dir / "m.onnxtxt", R"(
<ir_version: 8, opset_import: ["" : 13]>
g (float[2] x) => (float[2] y) {
  a = Relu <alpha = 0.5> (x)
  b = Relu <alpha = 0.5> (a)
  y = Softmax <axis = 0, dim = 1> (b)
}
)");
  auto r = run_onnxtool({"run", "m.onnxtxt", "--random-inputs"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("graph.node[0] (Relu): attribute \"alpha\" is not an attribute of Relu-13; the "
                   "kernel ignores it (2 nodes of Relu-13 have it) [exec.unknown-attribute]") !=
        std::string::npos);
  CHECK(r.err.find("graph.node[2] (Softmax): attribute \"dim\" is not an attribute of "
                   "Softmax-13; the kernel ignores it [exec.unknown-attribute]") !=
        std::string::npos);
  // The executor's own attributes (a fused Conv's epilogue) are not the user's business.
  write_file(dir / "c.onnxtxt", R"(
<ir_version: 8, opset_import: ["" : 13]>
g (float[1,1,3,3] x) => (float[1,1,3,3] y) <float[1,1,1,1] w = {2.0}> {
  c = Conv (x, w)
  y = Relu (c)
}
)");
  r = run_onnxtool({"run", "c.onnxtxt", "--random-inputs"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(r.err.find("unknown-attribute") == std::string::npos);
}

namespace {

// A 1x1 Conv mixing two channels of a 1x2x2x2 x; `reserved` spells the executor's own
// attributes on it, as a rewrite that never happened would leave them.
void write_mixing_conv(const fs::path& path, bool reserved) {
  ModelBuilder b;
  b.input("x", 1, {"1", "2", "2", "2"});
  b.initializer("w", {2, 2, 1, 1}, {1, 2, 3, 4});
  auto& conv = b.node("Conv", {"x", "w"}, {"y"}, "mix");
  if (reserved) {
    set_attr(conv, "onnxtool.channels_last_input", int64_t{1});
    set_attr(conv, "onnxtool.residual_input", int64_t{7});
  }
  b.output("y", 1, {"1", "2", "2", "2"});
  write_file(path, b.proto().SerializeAsString());
}

}  // namespace

TEST_CASE("run: a model's attributes named as the executor's own are ignored, with a warning") {
  TempDir dir;
  write_mixing_conv(dir / "plain.onnx", false);
  write_mixing_conv(dir / "reserved.onnx", true);
  write_npy(dir / "x.npy", floats({1, 2, 2, 2}, {1, 2, 3, 4, 5, 6, 7, 8}));
  const auto plain =
      run_onnxtool({"run", "plain.onnx", "x.npy", "--output-dir", "plain"}, "", dir.path());
  const auto reserved =
      run_onnxtool({"run", "reserved.onnx", "x.npy", "--output-dir", "reserved"}, "", dir.path());
  REQUIRE(plain.exit_code == 0);
  REQUIRE(reserved.exit_code == 0);
  // y = W x per position (channel 0: x0 + 2 x1); read channels-last, x would mix its positions.
  const Tensor y = read_npy(dir / "plain" / "y.npy");
  const Tensor y_reserved = read_npy(dir / "reserved" / "y.npy");
  CHECK(y.data<float>()[0] == 11.0f);
  CHECK(y.data<float>()[4] == 23.0f);
  REQUIRE(y_reserved.nbytes() == y.nbytes());
  CHECK(std::equal(y.data<float>(), y.data<float>() + 8, y_reserved.data<float>()));
  INFO(reserved.err);
  CHECK(reserved.err.find("graph.node[0] \"mix\" (Conv): attribute \"onnxtool.residual_input\" is "
                          "reserved for the executor's own rewrites (onnxtool.*), not an ONNX "
                          "attribute; ignored (2 such attributes) [exec.reserved-attribute]") !=
        std::string::npos);
  CHECK(plain.err.find("reserved-attribute") == std::string::npos);
}

TEST_CASE("run --timeout stops a runaway Loop, --max-memory an absurd tensor, with clear errors") {
  TempDir dir;
  // cond stays true and M is omitted: the Loop never ends on its own.
  write_file(dir / "runaway.onnxtxt", R"(
<ir_version: 8, opset_import: ["" : 16]>
g (float[2] x) => (float[2] y) {
  t = Constant <value = bool {1}> ()
  y = Loop (, t, x) <body = b (int64 i, bool ci, float[2] v) => (bool co, float[2] vo) {
    co = Identity (ci)
    vo = Neg (v)
  }>
}
)");
  auto r = run_onnxtool({"run", "runaway.onnxtxt", "--random-inputs", "--timeout", "0.2"}, "",
                        dir.path());
  CHECK(r.exit_code == 1);
  // At the Loop, or at the body's node the clock ran out before.
  CHECK(r.err.find("graph.node[1] (Loop)") != std::string::npos);
  CHECK(r.err.find("the run took longer than its time limit of 0.2 s (--timeout) "
                   "[exec.timeout]") != std::string::npos);
  // 4e9 floats: 15 GiB asked for.
  write_file(dir / "huge.onnxtxt", R"(
<ir_version: 8, opset_import: ["" : 16]>
g (float[1] x) => (float[N] y) {
  s = Constant <value = int64[1] {4000000000}> ()
  y = Expand (x, s)
}
)");
  r = run_onnxtool({"run", "huge.onnxtxt", "--random-inputs", "--max-memory", "64M"}, "",
                   dir.path());
  CHECK(r.exit_code == 1);
  CHECK(r.err.find("graph.node[1] (Expand): a tensor of 15259 MiB would take the tensors held "
                   "to 15259 MiB, past the memory limit of 64 MiB (--max-memory) "
                   "[exec.memory-limit]") != std::string::npos);
  r = run_onnxtool({"run", "huge.onnxtxt", "--random-inputs", "--max-memory", "lots"}, "",
                   dir.path());
  CHECK(r.exit_code == 2);
}

namespace {

// Outputs whose names clash when '/' is flattened ("a/b", "a_b"), a name that needs escaping
// ("50%"), and a sequence output "s" of two items.
void write_naming_model(const fs::path& path) {
  ModelBuilder b;
  b.input("x", 1, {"2"});
  b.node("Identity", {"x"}, {"a/b"}, "n0");
  b.node("Neg", {"x"}, {"a_b"}, "n1");
  b.node("Abs", {"x"}, {"50%"}, "n2");
  b.node("SequenceConstruct", {"x", "a_b"}, {"s"}, "n3");
  b.output("a/b", 1, {"2"});
  b.output("a_b", 1, {"2"});
  b.output("50%", 1, {"2"});
  auto* s = b.graph().add_output();
  s->set_name("s");
  s->mutable_type()
      ->mutable_sequence_type()
      ->mutable_elem_type()
      ->mutable_tensor_type()
      ->set_elem_type(1);
  write_file(path, b.proto().SerializeAsString());
}

}  // namespace

TEST_CASE("run: outputs are written under lossless names, read back by --expect") {
  TempDir tmp;
  const std::string model = (tmp / "m.onnx").string(), x = (tmp / "x.npy").string();
  write_naming_model(model);
  write_npy(x, floats({2}, {1.5f, -2}));
  const fs::path dir = tmp / "out" / "deeper";
  auto r =
      cli({"run", model, x, "--output-dir", dir.string(), "--npz", (tmp / "n" / "o.npz").string()});
  INFO(r.err);
  REQUIRE(r.code == 0);
  for (const char* file : {"a%2Fb.npy", "a_b.npy", "50%25.npy", "s[0].npy", "s[1].npy"})
    CHECK_MESSAGE(fs::is_regular_file(dir / file), file);
  CHECK(read_npy(dir / "a%2Fb.npy").data<float>()[1] == -2);
  CHECK(read_npy(dir / "a_b.npy").data<float>()[1] == 2);
  // The archive's members are the outputs' own names.
  std::set<std::string> members;
  for (const auto& nt : read_npz(tmp / "n" / "o.npz")) members.insert(nt.name);
  CHECK(members == std::set<std::string>{"a/b", "a_b", "50%", "s[0]", "s[1]"});

  // Both read back, sequences included.
  for (const fs::path& want : {dir, tmp / "n" / "o.npz"}) {
    r = cli({"run", model, x, "--expect", want.string()});
    INFO(r.err);
    CHECK(r.code == 0);
    CHECK(r.out.find("ok       s") != std::string::npos);
  }
  // An output without an expected value is an error, unless --allow-missing.
  fs::remove(dir / "s[1].npy");
  fs::remove(dir / "s[0].npy");
  r = cli({"run", model, x, "--expect", dir.string()});
  CHECK(r.code == 1);
  CHECK(r.err.find("no expected value for output \"s\"") != std::string::npos);
  CHECK(cli({"run", model, x, "--expect", dir.string(), "--allow-missing"}).code == 0);

  // --output-dir naming a file is an I/O error that says so.
  write_file(tmp / "file", "x");
  r = cli({"run", model, x, "--output-dir", (tmp / "file").string()});
  CHECK(r.code == 3);
  CHECK(r.err.find("--output-dir names a file") != std::string::npos);
}

TEST_CASE("run: --npz - writes the archive to stdout, the summary to stderr") {
  TempDir tmp;
  const std::string model = (tmp / "m.onnx").string(), x = (tmp / "x.npy").string();
  write_naming_model(model);
  write_npy(x, floats({2}, {1.5f, -2}));
  auto r = cli({"run", model, x, "--npz", "-"});
  REQUIRE(r.code == 0);
  CHECK(!fs::exists(fs::path("-")));
  const auto archive = parse_npz(r.out, "<stdout>");
  CHECK(archive.size() == 5);
  CHECK(r.err.find("output") != std::string::npos);
  CHECK(cli({"run", model, x, "--npz", "-", "--json"}).code == 2);
}

TEST_CASE("run: --expect FILE.pb for a one-output model") {
  Fixture f;
  // The loop model has two outputs: one .pb cannot say which it is.
  onnx::TensorProto proto;
  tensor_to_proto(floats({2}, {1.5f, -2}), proto);
  write_file(f.tmp / "out.pb", proto.SerializeAsString());
  CHECK(cli({"run", f.model, f.m, f.x, "--expect", (f.tmp / "out.pb").string()}).code == 2);
  ModelBuilder b;
  b.input("x", 1, {"2"});
  b.node("Identity", {"x"}, {"y"}, "n0");
  b.output("y", 1, {"2"});
  write_file(f.tmp / "one.onnx", b.proto().SerializeAsString());
  auto r =
      cli({"run", (f.tmp / "one.onnx").string(), f.x, "--expect", (f.tmp / "out.pb").string()});
  INFO(r.err);
  CHECK(r.code == 0);
}

TEST_CASE("run --random-inputs: --input-shape, --val-range, the hint when a kernel refuses") {
  TempDir tmp;
  write_file(tmp / "pool.onnxtxt", R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[N,1,H,W] x, int64[?] k) => (float[N,1,?,?] y, int64[?] k2) {
  y = MaxPool <kernel_shape = [3, 3]> (x)
  k2 = Identity (k)
}
)");
  const std::string model = (tmp / "pool.onnxtxt").string();
  // Every dim 1 by default: the window does not fit, and the error says what to do.
  auto r = cli({"run", model, "--random-inputs"});
  CHECK(r.code == 1);
  CHECK(r.err.find("[exec.kernel-failed]") != std::string::npos);
  CHECK(r.err.find("--input-shape NAME=") != std::string::npos);
  // A whole shape, unnamed dims included, and integer values in a range.
  r = cli({"run", model, "--random-inputs", "--input-shape", "x=2,1,4,5", "--input-shape", "k=6",
           "--val-range", "k=3,5", "--json"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["outputs"][0]["shape"] == std::vector<int64_t>{2, 1, 2, 3});
  CHECK(j["outputs"][1]["shape"] == std::vector<int64_t>{6});
  CHECK(j["outputs"][1]["min"].get<double>() >= 3);
  CHECK(j["outputs"][1]["max"].get<double>() <= 5);
  // Floats in [-2, -1) for every input without a range of its own.
  r = cli({"run", model, "--random-inputs", "--dim", "H=3", "--dim", "W=3", "--val-range=-2,-1",
           "--json"});
  REQUIRE(r.code == 0);
  CHECK(nlohmann::json::parse(r.out)["outputs"][0]["max"].get<double>() < -1);
  // A shape that contradicts the model, a range that is not one, an input that does not exist.
  CHECK(cli({"run", model, "--random-inputs", "--input-shape", "x=2,3,4,5"}).code == 2);
  CHECK(cli({"run", model, "--random-inputs", "--val-range", "5,1"}).code == 2);
  CHECK(cli({"run", model, "--random-inputs", "--input-shape", "nope=1"}).code == 2);
}

TEST_CASE("run: a float64 .npy for a float input is cast, with a note") {
  Fixture f;
  write_npy(f.x, Tensor::from_vector<double>({2}, {1.5, -2}));
  auto r = cli({"run", f.model, f.m, f.x});
  CHECK(r.code == 0);
  CHECK(r.err.find("float64 values cast to float") != std::string::npos);
  CHECK(r.out.find("1.5, -2") != std::string::npos);
}

TEST_CASE("run --profile-trace: the timed runs' nodes, and their chunks on every thread") {
  // A 1x1 Conv over 64x64 positions: a product the two threads share.
  TempDir tmp;
  ModelBuilder b;
  b.input("x", 1, {"1", "16", "64", "64"});
  b.initializer("w", {32, 16, 1, 1}, std::vector<float>(512, 0.5f));
  b.node("Conv", {"x", "w"}, {"c"}, "conv");
  b.node("Softmax", {"c"}, {"y"}, "softmax");
  b.output("y", 1, {"1", "32", "64", "64"});
  const std::string model = (tmp / "conv.onnx").string();
  write_file(model, b.proto().SerializeAsString());
  const std::string trace = (tmp / "out" / "trace.json").string();
  auto r = cli({"run", model, "--random-inputs", "--bench", "3", "--warmup", "1", "--threads", "2",
                "--profile-trace", trace});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto j = nlohmann::json::parse(read_file(trace));
  CHECK(j["otherData"]["threads"] == 2);
  CHECK(j["otherData"]["truncated"] == false);
  std::vector<nlohmann::json> runs, nodes, chunks;
  for (const auto& e : j["traceEvents"]) {
    if (e["ph"] != "X") continue;
    CHECK(e["dur"].get<double>() >= 0);
    if (e["cat"] == "run") runs.push_back(e);
    if (e["cat"] == "node") nodes.push_back(e);
    if (e["cat"] == "chunk") chunks.push_back(e);
  }
  // The three timed runs, not the warm-up; each runs the two nodes on the calling thread.
  REQUIRE(runs.size() == 3);
  REQUIRE(nodes.size() == 6);
  auto within = [](const nlohmann::json& inner, const nlohmann::json& outer) {
    const double start = inner["ts"], end = start + inner["dur"].get<double>();
    const double ob = outer["ts"], oe = ob + outer["dur"].get<double>();
    return start >= ob && end <= oe;
  };
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    CHECK(nodes[i]["tid"] == 0);
    CHECK(within(nodes[i], runs[i / 2]));
  }
  CHECK(nodes[0]["name"] == "graph.node[0] \"conv\" (Conv)");
  CHECK(nodes[0]["args"]["op"] == "Conv");
  // Every chunk lies inside a call of its node, and the chunks of each call cover its loop's
  // items once.
  std::set<int> lanes;
  for (const auto& node : nodes) {
    std::vector<std::pair<int64_t, int64_t>> items;
    for (const auto& c : chunks)
      if (c["name"] == node["name"] && within(c, node))
        items.emplace_back(c["args"]["items"][0], c["args"]["items"][1]);
    std::sort(items.begin(), items.end());
    for (std::size_t k = 0; k < items.size(); ++k)
      CHECK(items[k].first == (k == 0 ? 0 : items[k - 1].second));
  }
  for (const auto& c : chunks) {
    lanes.insert(c["tid"].get<int>());
    bool inside = false;
    for (const auto& node : nodes)
      inside = inside || (c["name"] == node["name"] && within(c, node));
    CHECK(inside);
  }
  // The Conv's product went out in chunks, on lanes 0 and 1 only (which of them the worker
  // takes is up to the scheduler: on a busy machine the caller may run them all).
  CHECK_FALSE(chunks.empty());
  REQUIRE_FALSE(lanes.empty());
  CHECK(*lanes.begin() >= 0);
  CHECK(*lanes.rbegin() <= 1);
}

TEST_CASE("run --profile looks inside Loop bodies") {
  TempDir tmp;
  write_file(tmp / "loop.onnxtxt", R"(<ir_version: 8, opset_import: ["" : 13]>
g (int64 n, float[2] x) => (float[2] acc_out) {
  acc_out = Loop (n, , x) <body = b (int64 i, bool c, float[2] a) => (bool c2, float[2] a2) {
    c2 = Identity (c)
    a2 = Neg (a)
  }>
}
)");
  write_npy(tmp / "n.npy", Tensor::scalar<int64_t>(4));
  write_npy(tmp / "x.npy", floats({2}, {1, 2}));
  auto r = cli({"run", (tmp / "loop.onnxtxt").string(), (tmp / "n.npy").string(),
                (tmp / "x.npy").string(), "--profile", "--json", "--warmup", "2"});
  INFO(r.err);
  REQUIRE(r.code == 0);
  const auto p = nlohmann::json::parse(r.out)["profile"];
  bool neg = false;
  for (const auto& row : p["nodes"])
    if (row["op_type"] == "Neg") {
      neg = true;
      CHECK(row["depth"] == 1);
      CHECK(row["calls_per_run"] == 4);  // once per iteration
      CHECK(row["node"].get<std::string>().find("attribute body: node[1] (Neg)") !=
            std::string::npos);
    }
  CHECK(neg);
  std::set<std::string> types;
  for (const auto& row : p["op_types"]) types.insert(row["op_type"].get<std::string>());
  CHECK(types == std::set<std::string>{"Identity", "Neg"});
}
