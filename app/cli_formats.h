// SPDX-License-Identifier: Apache-2.0
// The formats CI systems read, shared by the subcommands that produce them: JUnit XML (GitLab,
// Jenkins, Azure Pipelines) and GitHub Actions workflow commands (annotations on a pull
// request). SARIF, which only `check` writes, lives in cli_check_report.
#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace onnxtool::app {

// Text made safe for XML 1.0 character data and attribute values: the five special characters
// as entities, and characters XML cannot carry at all (most C0 controls, invalid UTF-8) as
// U+FFFD.
std::string xml_escape(std::string_view text);

struct JUnitCase {
  std::string name;
  std::string classname;
  double seconds = 0;
  // A failure (an assertion that did not hold) or an error (it could not run), with a one-line
  // message and the details as the element's text.
  enum class Outcome { passed, failed, error, skipped } outcome = Outcome::passed;
  std::string message;
  std::string details;
  std::string output;  // <system-out>: what passed cases still want to show (warnings, say)
};

struct JUnitSuite {
  std::string name;
  double seconds = 0;
  std::vector<JUnitCase> cases;
};

// <testsuites> with one <testsuite> per suite, counts in the attributes JUnit readers expect.
void write_junit(const std::vector<JUnitSuite>& suites, std::string_view name, std::ostream& out);

// Writes the document to path atomically (temporary file, then rename); throws onnxtool::Error
// (I/O) naming path when it cannot.
void write_junit_file(const std::vector<JUnitSuite>& suites, std::string_view name,
                      const std::string& path);

// `::error file=F,title=T::message`: GitHub Actions reads it from stdout and annotates the file.
// level is "error", "warning" or "notice". Escapes as the runner expects: % CR LF in the
// message, and also : and , in property values.
std::string github_command(std::string_view level, std::string_view file, std::string_view title,
                           std::string_view message);
std::string github_escape_data(std::string_view text);
std::string github_escape_property(std::string_view text);

}  // namespace onnxtool::app
