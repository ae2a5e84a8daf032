// SPDX-License-Identifier: Apache-2.0
// `onnxtool check` and `onnxtool ops` through the command line: exit codes, several files,
// summaries, --json, --max-errors, --strict; the operator listing and its filters.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "core/diag/diagnostic.h"
#include "tests/support/cli_run.h"
#include "tests/support/support.h"

using namespace onnxtool;

namespace {

test::CliRun cli(const std::vector<std::string>& args) {
  return test::run_cli(args);
}

std::string fixture(const std::string& rel) {
  return (test::testdata_dir() / "bad" / "check" / rel).string();
}

std::string sample() {
  return (test::testdata_dir() / "models" / "sample.onnxtxt").string();
}

}  // namespace

TEST_CASE("check: a valid model") {
  auto r = cli({"check", sample()});
  CHECK(r.code == 0);
  CHECK(r.out == sample() + ": valid, 4 warnings\n");
}

TEST_CASE("check: an invalid model says where, what and which rule") {
  auto r = cli({"check", fixture("graph.ssa/two-producers.onnxtxt")});
  CHECK(r.code == 1);
  CHECK(r.err.find("onnxtool: error: " + fixture("graph.ssa/two-producers.onnxtxt") +
                   ": graph.node[1] (Neg): output \"Y\" is already defined in this graph; every "
                   "value must be assigned once [graph.ssa]") != std::string::npos);
  CHECK(r.out == fixture("graph.ssa/two-producers.onnxtxt") + ": invalid: 1 error\n");
}

TEST_CASE("check: several files, the worst exit code wins") {
  auto r = cli({"check", sample(), fixture("attr.unknown/beta.onnxtxt"), "/no/such/file.onnx"});
  CHECK(r.code == 3);
  CHECK(r.out == sample() + ": valid, 4 warnings\n" + fixture("attr.unknown/beta.onnxtxt") +
                     ": invalid: 1 error\n/no/such/file.onnx: not read (I/O error)\n");
  auto two = cli({"check", sample(), fixture("attr.unknown/beta.onnxtxt")});
  CHECK(two.code == 1);
}

TEST_CASE("check: --json puts everything in one document") {
  auto r = cli({"check", "--json", sample(), fixture("graph.cycle/two-nodes.onnxtxt")});
  CHECK(r.code == 1);
  CHECK(r.err.empty());
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j.is_array());
  REQUIRE(j.size() == 2);
  CHECK(j[0]["valid"] == true);
  CHECK(j[1]["valid"] == false);
  CHECK(j[1]["errors"] == 1);
  CHECK(j[1]["diagnostics"][0]["rule"] == "graph.cycle");
  CHECK(j[1]["diagnostics"][0]["location"] == "graph");
}

TEST_CASE("check: --max-errors caps what is kept, not what is counted") {
  // Each of the fixture's elements is reported; keep one.
  auto all = cli({"check", "--json", fixture("type.unknown-elem-type/elem-type-99.onnx")});
  auto j = nlohmann::json::parse(all.out);
  REQUIRE(j["errors"] == 2);
  auto capped = cli({"check", "--json", "--max-errors", "1",
                     fixture("type.unknown-elem-type/elem-type-99.onnx")});
  auto k = nlohmann::json::parse(capped.out);
  CHECK(k["errors"] == 2);
  CHECK(k["dropped"] == 1);
  CHECK(k["diagnostics"].size() == 1);
  auto text =
      cli({"check", "--max-errors", "1", fixture("type.unknown-elem-type/elem-type-99.onnx")});
  CHECK(text.out.find("invalid: 2 errors (1 more not shown, --max-errors)") != std::string::npos);
}

TEST_CASE("check: --max-errors keeps the errors when warnings come first") {
  // Five names that are not C identifiers (warnings, found first) and one undefined input.
  test::TempDir dir;
  test::write_file(dir / "m.onnxtxt", R"(<
  ir_version: 10,
  opset_import: ["" : 21]
>
g (float[2] "in/0") => (float[2] "out/4") {
  "a/1" = Relu ("in/0")
  "a/2" = Relu ("a/1")
  "a/3" = Relu ("a/2")
  "out/4" = Add ("a/3", nope)
}
)");
  const auto all =
      nlohmann::json::parse(cli({"check", "--json", (dir / "m.onnxtxt").string()}).out);
  REQUIRE(all["errors"] == 1);
  REQUIRE(all["warnings"].get<int>() >= 3);
  const auto capped = nlohmann::json::parse(
      cli({"check", "--json", "--max-errors", "2", (dir / "m.onnxtxt").string()}).out);
  CHECK(capped["errors"] == 1);
  REQUIRE(capped["diagnostics"].size() == 2);
  int errors_kept = 0;
  for (const auto& d : capped["diagnostics"])
    if (d["severity"] == "error" && d["rule"] == "graph.undefined-input") ++errors_kept;
  CHECK(errors_kept == 1);
  const auto text = cli({"check", "--max-errors", "1", (dir / "m.onnxtxt").string()});
  CHECK(text.err.find("[graph.undefined-input]") != std::string::npos);
}

TEST_CASE("DiagSink: a capped list gives way to more severe findings, in report order") {
  DiagSink sink(2);
  sink.note("n", "", "note 1");
  sink.warning("w", "", "warning 1");
  sink.warning("w", "", "warning 2");  // replaces the note
  sink.error("e", "", "error 1");      // replaces warning 2, the latest of the weakest
  sink.warning("w", "", "warning 3");  // no room: not more severe than anything kept
  sink.error("e", "", "error 2");      // replaces warning 1
  sink.error("e", "", "error 3");      // no room: errors do not displace errors
  REQUIRE(sink.diagnostics().size() == 2);
  CHECK(sink.diagnostics()[0].message == "error 1");
  CHECK(sink.diagnostics()[1].message == "error 2");
  CHECK(sink.errors() == 3);
  CHECK(sink.warnings() == 3);
  CHECK(sink.dropped() == 5);
}

TEST_CASE("render_text: the line that folds repeats names the file") {
  std::vector<Diagnostic> ds;
  for (int i = 0; i < 4; ++i)
    ds.push_back({Severity::warning, "name.x", "m.onnx", "graph", "warning " + std::to_string(i)});
  RenderOptions opt;
  opt.fold_after = 2;
  const std::string text = render_text(ds, opt);
  CHECK(text.find("onnxtool: m.onnx: ... and 2 more [name.x]\n") != std::string::npos);
  CHECK(text.find("warning 2") == std::string::npos);
}

TEST_CASE("check: --strict turns SHOULD-level warnings into errors") {
  const std::string f = fixture("name.not-c-identifier/value-name.onnxtxt");
  auto lax = cli({"check", f});
  CHECK(lax.code == 0);
  CHECK(lax.out == f + ": valid, 1 warning\n");
  auto strict = cli({"check", "--strict", f});
  CHECK(strict.code == 1);
}

TEST_CASE("check: usage errors") {
  CHECK(cli({"check"}).code == 2);
  CHECK(cli({"check", "--max-errors", "many", sample()}).code == 2);
}

TEST_CASE("check: --verify-data reads external data, otherwise it is not read") {
  const std::string f = fixture("external-data.checksum-mismatch/wrong-sha1.onnxtxt");
  CHECK(cli({"check", f}).code == 0);
  auto r = cli({"check", "--verify-data", f});
  CHECK(r.code == 1);
  CHECK(r.err.find("[external-data.checksum-mismatch]") != std::string::npos);
}

TEST_CASE("ops: lists the registry") {
  auto r = cli({"ops", "--json"});
  REQUIRE(r.code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["count"].get<int>() > 150);
  bool found = false;
  for (const auto& op : j["operators"])
    if (op["domain"] == "ai.onnx" && op["op_type"] == "Add") {
      found = true;
      CHECK(op["versions"].front() == 1);
    }
  CHECK(found);
}

TEST_CASE("ops: --domain and --opset select the version in effect") {
  auto r = cli({"ops", "--json", "--domain", "ai.onnx", "--opset", "13"});
  REQUIRE(r.code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["opset"] == 13);
  for (const auto& op : j["operators"]) {
    CHECK(op["domain"] == "ai.onnx");
    CHECK(op["since"].get<int>() <= 13);
    if (op["op_type"] == "Add") CHECK(op["since"] == 13);
    CHECK(op["op_type"] != "Gelu");  // opset 20
  }
  auto text = cli({"ops", "--domain", "ai.onnx.ml"});
  CHECK(text.code == 0);
  CHECK(text.out.rfind("ai.onnx.ml\n", 0) == 0);
  CHECK(text.out.find("  Normalizer ") != std::string::npos);
}

TEST_CASE("ops: unknown domains and opsets are usage errors") {
  auto r = cli({"ops", "--domain", "com.nope"});
  CHECK(r.code == 2);
  CHECK(r.err.find("unknown domain 'com.nope'") != std::string::npos);
  CHECK(cli({"ops", "--opset", "99"}).code == 2);
  CHECK(cli({"ops", "--opset", "0"}).code == 2);
}

TEST_CASE("check --full: shape inference finds what the structural passes cannot") {
  test::TempDir dir;
  const auto path = dir.path() / "mismatch.onnxtxt";
  // Well-formed, but Add cannot broadcast [2] with [3]: only inference sees that.
  test::write_file(path, R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2] a, float[3] b) => (float[2] y) {
  y = Add (a, b)
}
)");
  const auto plain = cli({"check", path.string()});
  CHECK(plain.code == 0);
  const auto full = cli({"check", "--full", path.string()});
  CHECK(full.code == 1);
  CHECK(full.err.find("graph.node[0]") != std::string::npos);
  CHECK(full.err.find("infer.") != std::string::npos);
  // The sample model infers cleanly.
  CHECK(cli({"check", "--full", sample()}).code == 0);
}

TEST_CASE("ops NAME: one operator's schema, every version, as text and JSON") {
  auto r = cli({"ops", "LeakyRelu"});
  CHECK(r.code == 0);
  CHECK(r.out.rfind("LeakyRelu (ai.onnx), versions 1, 6, 16\n", 0) == 0);
  CHECK(r.out.find("\nLeakyRelu-16  function  infer  kernel\n") != std::string::npos);
  CHECK(r.out.find("    alpha: float = 0.01\n") != std::string::npos);
  CHECK(r.out.find("consumed_inputs") != std::string::npos);  // version 1's attribute
  auto j = nlohmann::json::parse(cli({"ops", "Conv", "--json"}).out);
  CHECK(j["op_type"] == "Conv");
  CHECK(j["versions"][0]["since"] > j["versions"][1]["since"]);  // newest first
  bool pads = false;
  for (const auto& a : j["versions"][0]["attributes"]) pads = pads || a["name"] == "pads";
  CHECK(pads);
  CHECK(j["versions"][0]["inputs"][2]["option"] == "optional");
  auto at13 = nlohmann::json::parse(cli({"ops", "Relu", "--opset", "13", "--json"}).out);
  REQUIRE(at13["versions"].size() == 1);
  CHECK(at13["versions"][0]["since"] == 13);
  r = cli({"ops", "relu"});
  CHECK(r.code == 2);
  CHECK(r.err.find("did you mean 'Relu'?") != std::string::npos);
}

TEST_CASE("info counts the weights that sit in Constant nodes, and says where") {
  test::TempDir dir;
  std::ofstream(dir / "c.onnxtxt") << R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2,3] x) => (float[2,3] y) {
  w = Constant <value = float[2,3] {1, 2, 3, 4, 5, 6}> ()
  b = Constant <value = float[3] {0, 0, 1}> ()
  t = Mul (x, w)
  y = Add (t, b)
}
)";
  auto r = cli({"info", (dir / "c.onnxtxt").string()});
  CHECK(r.code == 0);
  CHECK(r.out.find("in node attributes (Constant nodes): 2 tensors, 9 parameters, 36 B") !=
        std::string::npos);
  auto j = nlohmann::json::parse(cli({"info", "--json", (dir / "c.onnxtxt").string()}).out);
  CHECK(j["constants"]["parameters"] == 9);
  CHECK(j["constants"]["bytes"] == 36);
}
