// SPDX-License-Identifier: Apache-2.0
// `onnxtool diff`: equal models (itself, its text and JSON round trips, its external-data form)
// are equal; a renamed model differs only by renames; a changed attribute, an added node, a
// retrained weight, a changed subgraph, interface and header changes are reported as exactly
// that.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "tests/support/cli_run.h"
#include "tests/support/support.h"
#include "tests/unit/test_models.h"

using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

const char* const kBase = kChainModel;

// Every value renamed (inputs, outputs, initializers, intermediates); nodes unnamed.
const char* kRenamed = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (float[2,3] input0, float[2,3] input1) => (float[2,3] result, float[2,3] side)
<float[2,3] weight = {1, -2, 3, -4, 5, -6}, float[3] left_over = {7, 8, 9}>
{
  t1 = Add (input0, weight)
  t2 = Relu (t1)
  t3 = Mul (t2, input1)
  result = Neg (t3)
  side = Sigmoid (input0)
}
)";

std::string replaced(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  REQUIRE(at != std::string::npos);
  return s.replace(at, from.size(), to);
}

struct Pair {
  TempDir dir;
  std::string a = (dir / "a.onnxtxt").string(), b = (dir / "b.onnxtxt").string();
  Pair(const std::string& ta, const std::string& tb) {
    write_file(a, ta);
    write_file(b, tb);
  }
  nlohmann::json json(const std::vector<std::string>& extra = {}) const {
    std::vector<std::string> args = {"--json", "diff", a, b};
    args.insert(args.end(), extra.begin(), extra.end());
    const CliRun r = run_cli(args);
    REQUIRE_MESSAGE(r.code <= 1, r.err);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(r.code == (j["equal"].get<bool>() ? 0 : 1));
    return j;
  }
};

bool contains(const std::string& s, const std::string& part) {
  return s.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("diff: a model against itself and its text, JSON and external-data forms is equal") {
  Pair p(kBase, kBase);
  auto r = run_cli({"diff", p.a, p.b});
  CHECK(r.code == 0);
  CHECK(contains(r.out, "are equal"));
  const std::string bin = (p.dir / "m.onnx").string(), json = (p.dir / "m.json").string(),
                    ext = (p.dir / "e.onnx").string();
  REQUIRE(run_cli({"convert", p.a, bin}).code == 0);
  REQUIRE(run_cli({"convert", bin, json}).code == 0);
  REQUIRE(
      run_cli({"convert", bin, ext, "--external-data", "e.data", "--size-threshold", "0"}).code ==
      0);
  for (const auto& other : {json, ext, p.a}) {
    r = run_cli({"diff", bin, other});
    CHECK_MESSAGE(r.code == 0, other << ": " << r.out);
  }
}

TEST_CASE("diff: the same model with every value renamed differs by renames only") {
  Pair p(kBase, kRenamed);
  const auto j = p.json();
  CHECK_FALSE(j["equal"].get<bool>());
  // x, y, w, unused, a, b, c, out, other: nine values, each renamed once; the five nodes lost
  // their names; nothing else.
  CHECK(j["differences"].size() == 14);
  for (const auto& d : j["differences"]) {
    INFO(d.dump());
    CHECK(d["change"] == "renamed");
  }
  CHECK(j["counts"]["value"]["renamed"] == 9);
  CHECK(j["counts"]["node"]["renamed"] == 5);
  const auto ignoring = p.json({"--ignore-names"});
  CHECK(ignoring["equal"].get<bool>());
}

TEST_CASE("diff: a changed attribute is that node's change, and nothing else") {
  Pair p(kBase, replaced(kBase, "[sig] other = Sigmoid (x)",
                         "[sig] other = HardSigmoid <alpha = 0.5> (x)"));
  // An operator change too: the node pairs by name.
  auto j = p.json();
  REQUIRE(j["differences"].size() == 1);
  CHECK(j["differences"][0]["change"] == "changed");
  CHECK(j["differences"][0]["details"] ==
        nlohmann::json({"operator Sigmoid -> HardSigmoid", "attribute alpha added: 0.5"}));

  Pair q(replaced(kBase, "[relu] b = Relu (a)", "[relu] b = LeakyRelu <alpha = 0.1> (a)"),
         replaced(kBase, "[relu] b = Relu (a)", "[relu] b = LeakyRelu <alpha = 0.2> (a)"));
  j = q.json();
  REQUIRE(j["differences"].size() == 1);
  CHECK(j["differences"][0]["a"] == "graph.node[1] \"relu\" (LeakyRelu)");
  CHECK(j["differences"][0]["details"] == nlohmann::json({"attribute alpha: 0.1 -> 0.2"}));
}

TEST_CASE("diff: an added node is an addition and the rewiring of what now reads it") {
  Pair p(kBase,
         replaced(kBase, "[mul] c = Mul (b, y)", "[gate] s = Sigmoid (b)\n[mul] c = Mul (s, y)"));
  const auto j = p.json();
  REQUIRE(j["differences"].size() == 2);
  CHECK(j["differences"][0]["change"] == "changed");
  CHECK(j["differences"][0]["details"] == nlohmann::json({"input 0: \"s\" (was \"b\")"}));
  CHECK(j["differences"][1]["change"] == "added");
  CHECK(j["differences"][1]["b"] == "graph.node[2] \"gate\" (Sigmoid)");
  // The same with nodes unnamed: matched by their wiring instead.
  Pair q(kRenamed,
         replaced(kRenamed, "t3 = Mul (t2, input1)", "g = Sigmoid (t2)\nt3 = Mul (g, input1)"));
  CHECK(q.json()["differences"].size() == 2);
}

TEST_CASE("diff: a retrained weight gives its statistics; --ignore-weights leaves it out") {
  Pair p(kBase, replaced(kBase, "{1, -2, 3, -4, 5, -6}", "{1, -2, 3, -4, 5, -5}"));
  auto j = p.json();
  REQUIRE(j["differences"].size() == 1);
  const auto& d = j["differences"][0];
  CHECK(d["section"] == "initializer");
  CHECK(d["a"] == "\"w\"");
  CHECK(d["weights"]["elements"] == 6);
  CHECK(d["weights"]["differing"] == 1);
  CHECK(d["weights"]["max_abs"].get<double>() == doctest::Approx(1.0));
  // |b - a| / |a| = 1 / sqrt(1 + 4 + 9 + 16 + 25 + 36)
  CHECK(d["weights"]["relative_l2"].get<double>() == doctest::Approx(1 / std::sqrt(91.0)));
  CHECK(d["weights"]["cosine"].get<double>() < 1);
  CHECK(p.json({"--ignore-weights"})["equal"].get<bool>());
  // A shape change is reported whatever --ignore-weights says.
  Pair q(kBase, replaced(kBase, "float[3] unused = {7, 8, 9}", "float[2] unused = {7, 8}"));
  j = q.json({"--ignore-weights"});
  REQUIRE(j["differences"].size() == 1);
  CHECK(j["differences"][0]["details"] == nlohmann::json({"float[3] -> float[2]"}));
}

TEST_CASE("diff: interface, header, opset and subgraph changes") {
  Pair p(kBase, replaced(replaced(kBase, "ir_version: 8, opset_import: [\"\" : 17]",
                                  "ir_version: 9, opset_import: [\"\" : 18]"),
                         "float[2,3] y)", "float[N,3] y)"));
  auto j = p.json();
  CHECK(j["counts"]["header"]["changed"] == 1);
  CHECK(j["counts"]["opset"]["changed"] == 1);
  CHECK(j["counts"]["input"]["changed"] == 1);
  CHECK(j["differences"].size() == 3);

  const char* with_if = R"(
<ir_version: 8, opset_import: ["" : 17]>
g (bool c, float[2] x) => (float[2] y) {
  [k] k = Neg (x)
  [cond] y = If (c) <
    then_branch = t () => (float[2] o) { [inner] o = LeakyRelu <alpha = 0.1> (k) },
    else_branch = e () => (float[2] o) { o = Identity (k) }>
}
)";
  Pair q(with_if, replaced(with_if, "alpha = 0.1", "alpha = 0.3"));
  j = q.json();
  REQUIRE(j["differences"].size() == 1);
  CHECK(contains(j["differences"][0]["a"].get<std::string>(),
                 "graph.node[1] \"cond\" (If) attribute then_branch: node[0] \"inner\""));
  CHECK(j["differences"][0]["details"] == nlohmann::json({"attribute alpha: 0.1 -> 0.3"}));
}

TEST_CASE("diff: text output, one line per difference and a summary; bad files exit as load") {
  Pair p(kBase, replaced(kBase, "[neg] out = Neg (c)", "[neg] out = Abs (c)"));
  auto r = run_cli({"diff", p.a, p.b});
  CHECK(r.code == 1);
  CHECK(r.out ==
        "changed  node graph.node[3] \"neg\" (Neg) -> graph.node[3] \"neg\" (Abs): operator Neg "
        "-> Abs\n"
        "1 difference: 1 node changed\n");
  r = run_cli({"diff", p.a, (p.dir / "missing.onnx").string()});
  CHECK(r.code == 3);
}
