// SPDX-License-Identifier: Apache-2.0
// Golden CLI transcripts: each file under tests/golden/transcripts holds a command line and the
// exit code, stdout and stderr it must produce, run from the source directory.
// Regenerate with scripts/regen-golden.sh (sets ONNXTOOL_REGEN_GOLDEN=1), then review the diff.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <sstream>

#include "tests/support/support.h"

using namespace onnxtool::test;
namespace fs = std::filesystem;

namespace {

struct Transcript {
  std::string command;  // after "$ onnxtool "
  int exit_code = 0;
  std::string out, err;
};

const char* kExit = "--- exit ";
const char* kStdout = "--- stdout\n";
const char* kStderr = "--- stderr\n";

Transcript parse(const std::string& text) {
  Transcript t;
  auto line_end = text.find('\n');
  std::string first = text.substr(0, line_end);
  const std::string prefix = "$ onnxtool";
  REQUIRE_MESSAGE(first.rfind(prefix, 0) == 0, "a transcript starts with '$ onnxtool'");
  t.command = first.size() > prefix.size() ? first.substr(prefix.size() + 1) : "";
  auto exit_at = text.find(kExit);
  auto out_at = text.find(kStdout);
  auto err_at = text.find(kStderr);
  if (exit_at == std::string::npos) return t;  // a new transcript: command only
  t.exit_code = std::atoi(text.c_str() + exit_at + std::strlen(kExit));
  t.out = text.substr(out_at + std::strlen(kStdout), err_at - out_at - std::strlen(kStdout));
  t.err = text.substr(err_at + std::strlen(kStderr));
  return t;
}

std::string render(const Transcript& t) {
  return "$ onnxtool " + t.command + "\n" + kExit + std::to_string(t.exit_code) + "\n" + kStdout +
         t.out + kStderr + t.err;
}

std::vector<std::string> split_args(const std::string& command) {
  std::vector<std::string> args;
  std::istringstream in(command);
  for (std::string a; in >> a;) args.push_back(a);
  return args;
}

}  // namespace

TEST_CASE("CLI transcripts match") {
  const fs::path dir = source_dir() / "tests" / "golden" / "transcripts";
  const bool regen = std::getenv("ONNXTOOL_REGEN_GOLDEN") != nullptr;
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".txt") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  REQUIRE(!files.empty());
  for (const auto& file : files) {
    CAPTURE(file.filename().string());
    Transcript want = parse(read_file(file));
    CommandResult r = run_onnxtool(split_args(want.command), "", source_dir());
    Transcript got{want.command, r.exit_code, r.out, r.err};
    if (regen) {
      write_file(file, render(got));
      continue;
    }
    CHECK(got.exit_code == want.exit_code);
    CHECK(got.out == want.out);
    CHECK(got.err == want.err);
  }
}
