// SPDX-License-Identifier: Apache-2.0
// `check` in a CI pipeline: SARIF, JUnit XML (read back by xmllint), GitHub workflow commands,
// rule configuration (--ignore/--warn/--error, .onnxtool.json), and `--version --json`.
#include <doctest/doctest.h>

#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "app/cli.h"
#include "app/cli_formats.h"
#include "core/check/rules.h"
#include "core/diag/rule_policy.h"
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

void write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// xmllint (libxml2-utils) parses the document; scripts/test.sh installs it.
bool xml_well_formed(const std::filesystem::path& file) {
  const std::string cmd = "xmllint --noout '" + file.string() + "' 2>&1";
  return std::system(cmd.c_str()) == 0;
}

std::string xpath(const std::filesystem::path& file, const std::string& expr) {
  return test::xml_xpath(file, expr);
}

}  // namespace

TEST_CASE("rule globs") {
  CHECK(rule_glob_match("name.*", "name.not-c-identifier"));
  CHECK(rule_glob_match("*", "graph.ssa"));
  CHECK(rule_glob_match("graph.?sa", "graph.ssa"));
  CHECK(rule_glob_match("*.ssa", "graph.ssa"));
  CHECK_FALSE(rule_glob_match("name.*", "graph.ssa"));
  CHECK_FALSE(rule_glob_match("graph.ss", "graph.ssa"));
  CHECK_FALSE(rule_glob_match("", "graph.ssa"));
  // Many stars do not take exponential time.
  CHECK_FALSE(rule_glob_match("*a*a*a*a*a*a*a*a*a*a*a*a*b", std::string(200, 'a')));
}

TEST_CASE("rule policy: the most specific setting wins, then the later one") {
  RulePolicy p;
  p.add("name.*", RuleAction::ignore, "config");
  p.add("name.not-c-identifier", RuleAction::error, "--error");
  p.add("graph.*", RuleAction::warn, "--warn");
  p.add("graph.*", RuleAction::error, "--error");
  Diagnostic d{Severity::warning, "name.not-c-identifier", "", "", "m", {}};
  CHECK(p.apply(d));
  CHECK(d.severity == Severity::error);
  Diagnostic g{Severity::error, "graph.ssa", "", "", "m", {}};
  CHECK(p.apply(g));
  CHECK(g.severity == Severity::error);
  Diagnostic other{Severity::warning, "name.other", "", "", "m", {}};
  CHECK_FALSE(p.apply(other));
  std::vector<std::string_view> known{"graph.ssa"};
  CHECK(p.first_unmatched(known) != nullptr);
}

TEST_CASE("every id check can report is in the rule catalog") {
  // Rule ids are string literals where they are reported: scan the sources that `check` runs
  // (loading, external data, the checker, inference) for them, so a new rule cannot miss the
  // catalog that SARIF, --list-rules and rule configuration read.
  const std::set<std::string> families{"model",  "metadata",      "graph",    "value",  "type",
                                       "node",   "subgraph",      "attr",     "tensor", "string",
                                       "sparse", "function",      "training", "device", "sharding",
                                       "name",   "external-data", "infer",    "json",   "text"};
  std::set<std::string> missing;
  for (const char* dir : {"core/check", "core/model", "core/infer", "core/text"}) {
    for (const auto& e : std::filesystem::recursive_directory_iterator(test::source_dir() / dir)) {
      if (e.path().extension() != ".cpp") continue;
      std::ifstream in(e.path());
      std::string line;
      while (std::getline(in, line)) {
        for (std::size_t q = line.find('"'); q != std::string::npos; q = line.find('"', q + 1)) {
          const auto end = line.find('"', q + 1);
          if (end == std::string::npos) break;
          const std::string lit = line.substr(q + 1, end - q - 1);
          const auto dot = lit.find('.');
          const bool id_like =
              dot != std::string::npos && dot + 1 < lit.size() &&
              lit.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-.") == std::string::npos;
          // "external-data.bad-" + key is completed where it is used; json.write is convert's.
          const bool prefix_only = !lit.empty() && lit.back() == '-';
          if (id_like && !prefix_only && lit != "json.write" &&
              families.count(lit.substr(0, dot)) && !find_reported_rule(lit))
            missing.insert(lit + " (" + e.path().filename().string() + ")");
          q = end;
        }
      }
    }
  }
  CHECK_MESSAGE(missing.empty(), [&] {
    std::string s;
    for (const auto& m : missing) s += m + ' ';
    return s;
  }());
}

TEST_CASE("check --ignore/--warn/--error change findings, counts and the verdict") {
  const auto base = cli({"check", "--json", sample()});
  REQUIRE(base.code == 0);
  CHECK(nlohmann::json::parse(base.out)["warnings"] == 4);

  const auto ignored = cli({"check", "--json", "--ignore", "name.*", sample()});
  CHECK(ignored.code == 0);
  CHECK(nlohmann::json::parse(ignored.out)["warnings"] == 0);
  CHECK(nlohmann::json::parse(ignored.out)["diagnostics"].empty());

  const auto errors = cli({"check", "--error", "name.not-c-identifier", sample()});
  CHECK(errors.code == 1);
  CHECK(errors.out.find("invalid: 4 errors") != std::string::npos);

  const auto demoted =
      cli({"check", "--warn", "graph.ssa", fixture("graph.ssa/two-producers.onnxtxt")});
  CHECK(demoted.code == 0);
  CHECK(demoted.err.find("warning:") != std::string::npos);
}

TEST_CASE("check: a rule pattern that names no rule is a usage error") {
  for (const char* flag : {"--ignore", "--warn", "--error"}) {
    const auto r = cli({"check", flag, "nmae.*", sample()});
    CHECK(r.code == 2);
    CHECK(r.err.find("\"nmae.*\"") != std::string::npos);
  }
  CHECK(cli({"check", "--ignore", "graph.ssa,nosuch.rule", sample()}).code == 2);
}

TEST_CASE("check: .onnxtool.json is found upwards from the model, or named with --config") {
  test::TempDir dir;
  std::filesystem::create_directories(dir / "models" / "deep");
  std::filesystem::copy_file(sample(), dir / "models" / "deep" / "m.onnxtxt");
  const std::string model = (dir / "models" / "deep" / "m.onnxtxt").string();
  write(dir / ".onnxtool.json", R"({"error": ["name.*"]})");
  CHECK(cli({"check", model}).code == 1);
  CHECK(cli({"check", "--no-config", model}).code == 0);
  // The command line comes after the file.
  CHECK(cli({"check", "--ignore", "name.not-c-identifier", model}).code == 0);

  write(dir / "other.json", R"({"strict": true})");
  CHECK(cli({"check", "--config", (dir / "other.json").string(), model}).code == 1);
  write(dir / "other.json", R"({"strict": false, "ignore": "name.*"})");
  const auto quiet = cli({"check", "--json", "--config", (dir / "other.json").string(), model});
  CHECK(nlohmann::json::parse(quiet.out)["warnings"] == 0);

  SUBCASE("a bad file is a usage error naming it") {
    write(dir / ".onnxtool.json", R"({"ignroe": ["name.*"]})");
    auto r = cli({"check", model});
    CHECK(r.code == 2);
    CHECK(r.err.find(".onnxtool.json: unknown key \"ignroe\"") != std::string::npos);
    write(dir / ".onnxtool.json", R"({"ignore": ["no.such-rule"]})");
    CHECK(cli({"check", model}).code == 2);
    write(dir / ".onnxtool.json", "{not json");
    CHECK(cli({"check", model}).code == 2);
    write(dir / ".onnxtool.json", R"({"ignore": 3})");
    CHECK(cli({"check", model}).code == 2);
  }
}

TEST_CASE("check: text output shows three examples per rule unless -v") {
  test::TempDir dir;
  // Seven values whose names are not C identifiers.
  write(dir / "m.onnxtxt", R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2] "in.0") => (float[2] "out.7") {
  "a.1" = Neg("in.0")
  "a.2" = Neg("a.1")
  "a.3" = Neg("a.2")
  "a.4" = Neg("a.3")
  "a.5" = Neg("a.4")
  "out.7" = Neg("a.5")
}
)");
  const auto r = cli({"check", (dir / "m.onnxtxt").string()});
  CHECK(r.code == 0);
  std::size_t shown = 0;
  for (std::size_t p = r.err.find("warning:"); p != std::string::npos;
       p = r.err.find("warning:", p + 1))
    ++shown;
  CHECK(shown == 3);
  CHECK(r.err.find("... and 4 more [name.not-c-identifier] (-v lists them all)") !=
        std::string::npos);
  const auto v = cli({"check", "-v", (dir / "m.onnxtxt").string()});
  std::size_t all = 0;
  for (std::size_t p = v.err.find("warning:"); p != std::string::npos;
       p = v.err.find("warning:", p + 1))
    ++all;
  CHECK(all == 7);
}

TEST_CASE("check --format sarif: a SARIF 2.1.0 log with the rules and the results") {
  const std::string bad = fixture("graph.ssa/two-producers.onnxtxt");
  const auto r = cli({"check", "--format", "sarif", sample(), bad});
  CHECK(r.code == 1);
  const auto log = nlohmann::json::parse(r.out);
  CHECK(log["version"] == "2.1.0");
  CHECK(log["$schema"].get<std::string>().find("sarif") != std::string::npos);
  REQUIRE(log["runs"].size() == 1);
  const auto& run = log["runs"][0];
  const auto& driver = run["tool"]["driver"];
  CHECK(driver["name"] == "onnxtool");
  CHECK(!driver["version"].get<std::string>().empty());
  const auto& rules = driver["rules"];
  CHECK(rules.size() == reported_rules().size());
  std::set<std::string> ids;
  for (const auto& rule : rules) {
    ids.insert(rule["id"].get<std::string>());
    CHECK(!rule["shortDescription"]["text"].get<std::string>().empty());
    CHECK(!rule["help"]["text"].get<std::string>().empty());
    const auto level = rule["defaultConfiguration"]["level"].get<std::string>();
    CHECK((level == "error" || level == "warning" || level == "note"));
  }
  CHECK(ids.size() == rules.size());
  const auto& results = run["results"];
  REQUIRE(results.size() == 5);  // four name warnings in the sample, one SSA error
  bool found_error = false;
  for (const auto& res : results) {
    // Every result refers to a rule of the list, by id and by index.
    const auto id = res["ruleId"].get<std::string>();
    REQUIRE(res.contains("ruleIndex"));
    CHECK(rules[res["ruleIndex"].get<std::size_t>()]["id"] == id);
    CHECK(!res["message"]["text"].get<std::string>().empty());
    const auto& loc = res["locations"][0];
    CHECK(loc["physicalLocation"]["artifactLocation"].contains("uri"));
    CHECK(loc["physicalLocation"]["region"]["startLine"] == 1);
    CHECK(!loc["logicalLocations"][0]["fullyQualifiedName"].get<std::string>().empty());
    if (id == "graph.ssa") {
      found_error = true;
      CHECK(res["level"] == "error");
      CHECK(loc["logicalLocations"][0]["fullyQualifiedName"] == "graph.node[1] (Neg)");
    }
  }
  CHECK(found_error);
  CHECK(run["invocations"][0]["exitCode"] == 1);
}

TEST_CASE("check --format junit: one testsuite per model, one testcase per rule family") {
  test::TempDir dir;
  const std::string bad = fixture("graph.ssa/two-producers.onnxtxt");
  const auto r = cli({"check", "--format", "junit", sample(), bad, "/no/such.onnx"});
  CHECK(r.code == 3);
  write(dir / "check.xml", r.out);
  REQUIRE(xml_well_formed(dir / "check.xml"));
  CHECK(xpath(dir / "check.xml", "count(/testsuites/testsuite)") == "3");
  CHECK(xpath(dir / "check.xml",
              "string(/testsuites/testsuite[2]/testcase[@name=\"graph\"]/failure/@message)")
            .find("[graph.ssa]") != std::string::npos);
  CHECK(xpath(dir / "check.xml", "count(/testsuites/testsuite[1]//failure)") == "0");
  CHECK(xpath(dir / "check.xml", "count(/testsuites/testsuite[3]//error)") == "1");
  CHECK(xpath(dir / "check.xml", "string(/testsuites/@failures)") == "1");
}

TEST_CASE("xml_escape keeps the document well-formed whatever the text") {
  test::TempDir dir;
  const std::string nasty = std::string("a<b>&\"'\x01\x1f bad:\xff\xfe end\n") + "\xc3\xa9";
  std::vector<app::JUnitSuite> suites{
      {nasty, 0.5, {{nasty, nasty, 0.1, app::JUnitCase::Outcome::failed, nasty, nasty, nasty}}}};
  std::ostringstream doc;
  app::write_junit(suites, nasty, doc);
  write(dir / "x.xml", doc.str());
  CHECK(xml_well_formed(dir / "x.xml"));
  CHECK(app::xml_escape("é<") == "é&lt;");
}

TEST_CASE("check --format github: workflow commands, escaped") {
  CHECK(app::github_escape_data("50% done\nnext\r") == "50%25 done%0Anext%0D");
  CHECK(app::github_escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A");
  CHECK(app::github_command("error", "dir/m:1.onnx", "graph.ssa", "x: y\nz") ==
        "::error file=dir/m%3A1.onnx,title=graph.ssa::x: y%0Az\n");
  const std::string bad = fixture("graph.ssa/two-producers.onnxtxt");
  const auto r = cli({"check", "--format", "github", bad});
  CHECK(r.code == 1);
  CHECK(r.out.find("::error file=" + bad + ",title=graph.ssa::graph.node[1] (Neg): output") == 0);
  CHECK(r.err.empty());
}

TEST_CASE("--version --json lists what this build can do") {
  for (auto args : {std::vector<std::string>{"--version", "--json"},
                    std::vector<std::string>{"--json", "--version"}}) {
    const auto r = cli(args);
    CHECK(r.code == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["name"] == "onnxtool");
    CHECK(j["ir_version"]["max"].get<int>() >= 10);
    CHECK(j["opsets"]["ai.onnx"]["max"].get<int>() >= 21);
    CHECK(j["formats"]["check"].size() == 5);
    CHECK(j.contains("simd"));
    CHECK(j["blas"].contains("gemm"));
    CHECK(!j["build_type"].get<std::string>().empty());
  }
  CHECK(cli({"--version"}).out.rfind("onnxtool ", 0) == 0);
}

TEST_CASE("--json: every command prints a document on stdout, failures included") {
  for (auto args : {std::vector<std::string>{"convert", "/no/such.onnx", "/tmp/x.onnx"},
                    std::vector<std::string>{"shape-infer", "/no/such.onnx"},
                    std::vector<std::string>{"test", "/no/such/dir"},
                    std::vector<std::string>{"check", "/no/such.onnx"},
                    std::vector<std::string>{"info", "/no/such.onnx"},
                    std::vector<std::string>{"run", "/no/such.onnx"}}) {
    args.push_back("--json");
    const auto r = cli(args);
    CHECK_MESSAGE(r.code == 3, args[0]);
    const auto doc = nlohmann::json::parse(r.out);
    REQUIRE(doc["diagnostics"].size() == 1);
    CHECK(doc["diagnostics"][0]["rule"] == "io.not-found");
  }
}

TEST_CASE("--json-lines: one document per file and line, whatever the count") {
  for (const char* cmd : {"check", "info"}) {
    const auto one = cli({cmd, "--json-lines", sample()});
    CHECK(one.out.find('\n') == one.out.size() - 1);
    CHECK(nlohmann::json::parse(one.out).is_object());
    const auto two = cli({cmd, "--json-lines", sample(), sample()});
    std::istringstream lines(two.out);
    int n = 0;
    for (std::string line; std::getline(lines, line); ++n)
      CHECK(nlohmann::json::parse(line).is_object());
    CHECK(n == 2);
  }
}
