// SPDX-License-Identifier: Apache-2.0
// testdata/bad/check: one directory per rule, each invalid model (CASE.onnxtxt in the textual
// syntax, or CASE.onnx where only exact protobuf fields or bytes can express the fault) rejected
// with exactly that rule (every error it gets is that rule), its twin CASE.ok.* accepted; every
// checker rule has at least one such fixture; and each .onnx is what its .textproto says
// (testdata/bad/check/make_fixtures.py writes them all).
#include <doctest/doctest.h>

#include <google/protobuf/text_format.h>
#include <google/protobuf/util/message_differencer.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <map>
#include <set>

#include "core/check/check.h"
#include "core/check/rules.h"
#include "onnx.pb.h"
#include "tests/support/support.h"

using namespace onnxtool;
namespace fs = std::filesystem;

namespace {

fs::path fixtures_dir() {
  return test::testdata_dir() / "bad" / "check";
}

bool is_model(const fs::path& p) {
  return p.extension() == ".onnx" || p.extension() == ".onnxtxt";
}

bool is_twin(const fs::path& p) {
  return p.stem().extension() == ".ok";
}

fs::path twin_of(const fs::path& p) {
  return p.parent_path() / (p.stem().string() + ".ok" + p.extension().string());
}

struct Outcome {
  int code = -1;
  std::set<std::string> error_rules;
  std::string text;  // every diagnostic, for failure messages
};

Outcome check(const fs::path& p, bool strict) {
  CheckOptions opt;
  opt.strict = strict;
  opt.verify_data = true;
  DiagSink sink;
  Outcome o;
  o.code = check_file(p.string(), opt, sink);
  for (const auto& d : sink.diagnostics()) {
    if (d.severity == Severity::error) o.error_rules.insert(d.rule);
    o.text += render_text(d, {});
  }
  return o;
}

// The rule a fixture directory is named after; checked with --strict when that rule is a
// strict warning.
bool strict_for(const std::string& rule) {
  const CheckRule* r = find_check_rule(rule);
  return r && r->strict;
}

std::vector<fs::path> invalid_fixtures() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(fixtures_dir()))
    if (e.is_regular_file() && is_model(e.path()) && !is_twin(e.path())) out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

}  // namespace

TEST_CASE("every invalid fixture is rejected with exactly its rule, every twin accepted") {
  const auto fixtures = invalid_fixtures();
  std::map<std::string, int> per_rule;
  int texts = 0;
  for (const auto& path : fixtures) {
    texts += path.extension() == ".onnxtxt";
    const std::string rule = path.parent_path().filename().string();
    CAPTURE(path.string());
    const bool strict = strict_for(rule);
    const Outcome bad = check(path, strict);
    CHECK_MESSAGE(bad.code != 0, bad.text);
    CHECK_MESSAGE(bad.error_rules == std::set<std::string>{rule}, bad.text);
    const fs::path twin = twin_of(path);
    REQUIRE_MESSAGE(fs::exists(twin), "no valid twin " << twin.string());
    const Outcome ok = check(twin, strict);
    CHECK_MESSAGE(ok.code == 0, ok.text);
    CHECK_MESSAGE(ok.error_rules.empty(), ok.text);
    ++per_rule[rule];
  }
  std::cout << "checker fixtures: " << fixtures.size() << " invalid models (" << texts
            << " in the textual syntax) in " << per_rule.size()
            << " rules, each with a valid twin\n";
  CHECK(fixtures.size() >= 100);
  // Every checker rule that can reject a model has a fixture. A note never rejects anything.
  for (const auto& rule : check_rules()) {
    if (rule.severity == Severity::note) continue;
    CHECK_MESSAGE(per_rule.count(std::string(rule.id)), "no fixture for " << rule.id);
  }
}

TEST_CASE("each fixture's bytes are what its protobuf text says") {
  int compared = 0;
  for (const auto& e : fs::recursive_directory_iterator(fixtures_dir())) {
    if (!e.is_regular_file() || e.path().extension() != ".textproto") continue;
    const std::string text = test::read_file(e.path());
    // Fixtures about the bytes (cut off, a field repeated) say so and cannot match their text.
    if (text.find("# bytes:") != std::string::npos) continue;
    CAPTURE(e.path().string());
    onnx::ModelProto from_text, from_bytes;
    REQUIRE(google::protobuf::TextFormat::ParseFromString(text, &from_text));
    fs::path bin = e.path();
    bin.replace_extension(".onnx");
    REQUIRE(from_bytes.ParseFromString(test::read_file(bin)));
    CHECK(google::protobuf::util::MessageDifferencer::Equals(from_text, from_bytes));
    ++compared;
  }
  CHECK(compared >= 100);
}

TEST_CASE("every file under testdata/bad is checked without a crash") {
  // Hostile inputs of every kind (load, text, check): whatever they are, the checker answers
  // with a verdict, never a crash, a hang or an internal error.
  int files = 0;
  for (const auto& e : fs::recursive_directory_iterator(test::testdata_dir() / "bad")) {
    if (!e.is_regular_file()) continue;
    const auto ext = e.path().extension();
    if (ext != ".onnx" && ext != ".onnxtxt" && ext != ".pb") continue;
    CAPTURE(e.path().string());
    DiagSink sink;
    const int code = check_file(e.path().string(), {}, sink);
    CHECK((code == 0 || code == 1 || code == 3));
    ++files;
  }
  CHECK(files > 300);
}
