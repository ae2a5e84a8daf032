// SPDX-License-Identifier: Apache-2.0
// `run --dump-values`, `convert --expose-values` and `compare` end to end (the binary): a dump
// lists every value in order; compare finds a divergence planted in one node's output and names
// that node, with its inputs within tolerance; identical sets compare clean; bad sets are
// refused with the file named.
#include <doctest/doctest.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/support.h"

using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

// x -> Relu -> Mul by w -> Add x -> Neg -> y, with an If whose branch reads c.
const char* kModel = R"(
<ir_version: 8, opset_import: ["" : 13]>
g (float[4] x, bool flag) => (float[4] y, float[4] z)
  <float[4] w = {0.5, -1.0, 2.0, 0.25}>
{
  [relu] a = Relu (x)
  [mul] b = Mul (a, w)
  [add] c = Add (b, x)
  [neg] y = Neg (c)
  [branch] z = If (flag) <then_branch = g1 () => (float[4] t) { t = Abs (c) },
                          else_branch = g2 () => (float[4] e) { e = Identity (c) }>
}
)";

// The same, with Mul's output perturbed on its way: "b" is now Add's, off by 0.5 everywhere.
const char* kPlanted = R"(
<ir_version: 8, opset_import: ["" : 13]>
g (float[4] x, bool flag) => (float[4] y, float[4] z)
  <float[4] w = {0.5, -1.0, 2.0, 0.25}, float[1] delta = {0.5}>
{
  [relu] a = Relu (x)
  [mul] b_raw = Mul (a, w)
  [plant] b = Add (b_raw, delta)
  [add] c = Add (b, x)
  [neg] y = Neg (c)
  [branch] z = If (flag) <then_branch = g1 () => (float[4] t) { t = Abs (c) },
                          else_branch = g2 () => (float[4] e) { e = Identity (c) }>
}
)";

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("run --dump-values writes every value in order, with values.json") {
  TempDir dir;
  write_file(dir / "m.onnxtxt", kModel);
  auto r =
      run_onnxtool({"run", "m.onnxtxt", "--random-inputs", "--dump-values", "d"}, "", dir.path());
  REQUIRE(r.exit_code == 0);
  const auto doc = nlohmann::json::parse(read_file(dir / "d" / "values.json"));
  CHECK(doc["format"] == "onnxtool-values");
  std::vector<std::string> names;
  for (const auto& v : doc["values"]) names.push_back(v["name"]);
  // The fed inputs, the nodes' outputs, and the If branch's value inside it.
  CHECK(names == std::vector<std::string>{"x", "flag", "a", "b", "c", "y", "e", "z"});
  const auto& e = doc["values"][6];
  CHECK(e["graph"] == "graph.node[4] \"branch\" (If) attribute else_branch: ");
  CHECK(e["node"] == "graph.node[4] \"branch\" (If) attribute else_branch: node[0] (Identity)");
  const auto& b = doc["values"][3];
  CHECK(b["node"] == "graph.node[1] \"mul\" (Mul)");
  CHECK(b["inputs"] == nlohmann::json::array({"a", "w"}));
  CHECK(b["shape"] == nlohmann::json::array({4}));
  for (const auto& v : doc["values"]) CHECK(fs::exists(dir / "d" / v["file"].get<std::string>()));
}

TEST_CASE("compare names the node whose output a planted perturbation changed") {
  TempDir dir;
  write_file(dir / "m.onnxtxt", kModel);
  write_file(dir / "p.onnxtxt", kPlanted);
  for (const char* m : {"m", "p"}) {
    const std::string model = std::string(m) + ".onnxtxt";
    REQUIRE(run_onnxtool({"run", model, "--random-inputs", "--dump-values", std::string(m) + "_d"},
                         "", dir.path())
                .exit_code == 0);
  }
  // The planted model against the original: "b" is the first to differ, produced by "mul" in
  // the reference listing (the A side names "plant"); its input "a" is within tolerance.
  auto r = run_onnxtool({"compare", "p_d", "m_d", "--model", "m.onnxtxt"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out, "first divergence: \"b\", output of graph.node[1] \"mul\" (Mul)"));
  CHECK(contains(r.out, "input \"a\": within tolerance"));
  CHECK(contains(r.out, "input \"w\": in neither set"));
  // b_raw, and the If branch's value (its graph is node[5] there, node[4] here).
  CHECK(contains(r.out, "2 only in A, 1 only in B"));
  // The JSON form says the same.
  r = run_onnxtool({"--json", "compare", "p_d", "m_d", "--model", "m.onnxtxt"}, "", dir.path());
  CHECK(r.exit_code == 1);
  const auto j = nlohmann::json::parse(r.out);
  CHECK(j["first_divergence"]["value"] == "b");
  CHECK(j["first_divergence"]["op"] == "Mul");
  CHECK(j["first_divergence"]["inputs"][0]["ok"] == true);
  CHECK(j["divergent"].get<int>() >= 3);  // b, c, y and the branch's values
  for (const auto& v : j["values"]) {
    if (v["value"] != "b") continue;
    CHECK(v["mismatches"] == 4);
    CHECK(v["max_abs_err"].get<double>() == doctest::Approx(0.5));
  }
  // Without the model, the dump's own listing orders the values and names the nodes.
  r = run_onnxtool({"compare", "p_d", "m_d"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.out, "first divergence: \"b\", output of graph.node[2] \"plant\" (Add)"));
  // A generous tolerance lets the perturbation through.
  r = run_onnxtool({"compare", "p_d", "m_d", "--atol", "1"}, "", dir.path());
  CHECK(r.exit_code == 0);
}

TEST_CASE("compare: the same values compare clean, in every form a set can take") {
  TempDir dir;
  write_file(dir / "m.onnxtxt", kModel);
  REQUIRE(run_onnxtool({"run", "m.onnxtxt", "--random-inputs", "--dump-values", "d", "--npz",
                        "o.npz", "--output-dir", "o"},
                       "", dir.path())
              .exit_code == 0);
  auto r = run_onnxtool({"compare", "d", "d"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "compared 8 values (dump vs dump"));
  CHECK(contains(r.out, ": 0 diverge"));
  // The outputs alone: an .npz against a directory of .npy, and against the dump.
  r = run_onnxtool({"compare", "o.npz", "o"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "compared 2 values (npz vs npy directory"));
  r = run_onnxtool({"compare", "o.npz", "d", "--model", "m.onnxtxt"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(contains(r.out, "6 only in B"));
}

TEST_CASE("compare refuses what is not a set of values, naming the file") {
  TempDir dir;
  auto r = run_onnxtool({"compare", "missing", "missing2"}, "", dir.path());
  CHECK(r.exit_code == 3);
  CHECK(contains(r.err, "missing"));
  fs::create_directories(dir / "evil");
  write_file(dir / "evil" / "values.json",
             R"({"format": "onnxtool-values", "version": 1, "values": [)"
             R"({"name": "x", "graph": "", "file": "../secret.npy"}]})");
  fs::create_directories(dir / "empty");
  r = run_onnxtool({"compare", "evil", "evil"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "is not a plain file name in its directory"));
  r = run_onnxtool({"compare", "empty", "empty"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "holds no values.json"));
  write_file(dir / "bad.json", "{not json");
  r = run_onnxtool({"compare", "bad.json", "bad.json"}, "", dir.path());
  CHECK(r.exit_code == 1);
  CHECK(contains(r.err, "bad.json"));
}

TEST_CASE("convert --expose-values makes intermediate values typed graph outputs") {
  TempDir dir;
  write_file(dir / "m.onnxtxt", kModel);
  auto r = run_onnxtool({"convert", "m.onnxtxt", "all.onnxtxt", "--expose-values"}, "", dir.path());
  REQUIRE(r.exit_code == 0);
  const std::string all = read_file(dir / "all.onnxtxt");
  CHECK(contains(all, "=> (float[4] y, float[4] z, float[4] a, float[4] b, float[4] c)"));
  r = run_onnxtool({"convert", "m.onnxtxt", "some.onnxtxt", "--expose-values=^[ab]$"}, "",
                   dir.path());
  REQUIRE(r.exit_code == 0);
  CHECK(contains(read_file(dir / "some.onnxtxt"),
                 "=> (float[4] y, float[4] z, float[4] a, "
                 "float[4] b)"));
  CHECK(run_onnxtool({"check", "some.onnxtxt"}, "", dir.path()).exit_code == 0);
  r = run_onnxtool({"convert", "m.onnxtxt", "x.onnx", "--expose-values=("}, "", dir.path());
  CHECK(r.exit_code == 2);
  CHECK_FALSE(fs::exists(dir / "x.onnx"));
}

TEST_CASE("compare holds float32 values against a float64 run of the same model") {
  TempDir dir;
  std::string wide = kModel;
  for (std::size_t at; (at = wide.find("float[4]")) != std::string::npos;)
    wide.replace(at, 8, "double[4]");
  write_file(dir / "m.onnxtxt", kModel);
  write_file(dir / "w.onnxtxt", wide);
  REQUIRE(
      run_onnxtool({"run", "m.onnxtxt", "--random-inputs", "--dump-values", "f"}, "", dir.path())
          .exit_code == 0);
  // --random-inputs draws the same uniform values for both runs, each in its own type; without
  // the widening the two would differ in type (a structural difference, exit 1).
  REQUIRE(
      run_onnxtool({"run", "w.onnxtxt", "--random-inputs", "--dump-values", "d"}, "", dir.path())
          .exit_code == 0);
  auto r = run_onnxtool({"compare", "f", "d", "--model", "m.onnxtxt", "--all"}, "", dir.path());
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("compared 8 values") != std::string::npos);
  CHECK(r.out.find(": 0 diverge") != std::string::npos);
}
