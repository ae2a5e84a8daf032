// SPDX-License-Identifier: Apache-2.0
#include "app/cli_formats.h"

#include <cstdio>
#include <sstream>

#include "core/ir/type_text.h"
#include "core/util/atomic_file.h"

namespace onnxtool::app {

namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

// The valid UTF-8 sequence at text[i] (core's rule), except U+FFFE and U+FFFF, which XML 1.0
// cannot carry either; 0 when it is not one.
std::size_t xml_char_length(std::string_view text, std::size_t i) {
  const std::size_t n = utf8_sequence_length(text.substr(i));
  const std::string_view seq = text.substr(i, n);
  if (seq == "\xEF\xBF\xBE" || seq == "\xEF\xBF\xBF") return 0;
  return n;
}

std::string format_seconds(double s) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", s < 0 ? 0.0 : s);
  return buf;
}

}  // namespace

std::string xml_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    switch (c) {
      case '&':
        out += "&amp;";
        ++i;
        continue;
      case '<':
        out += "&lt;";
        ++i;
        continue;
      case '>':
        out += "&gt;";
        ++i;
        continue;
      case '"':
        out += "&quot;";
        ++i;
        continue;
      case '\'':
        out += "&apos;";
        ++i;
        continue;
      case '\t':
        out += "&#9;";
        ++i;
        continue;
      case '\n':
        out += "&#10;";
        ++i;
        continue;
      case '\r':
        out += "&#13;";
        ++i;
        continue;
      default:
        break;
    }
    const std::size_t n = xml_char_length(text, i);
    if (n == 0 || static_cast<unsigned char>(c) < 0x20) {
      out += kReplacement;
      i += n == 0 ? 1 : n;
      continue;
    }
    out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

void write_junit(const std::vector<JUnitSuite>& suites, std::string_view name, std::ostream& out) {
  auto count = [](const JUnitSuite& s, JUnitCase::Outcome o) {
    std::size_t n = 0;
    for (const auto& c : s.cases) n += c.outcome == o;
    return n;
  };
  std::size_t tests = 0, failures = 0, errors = 0, skipped = 0;
  double seconds = 0;
  for (const auto& s : suites) {
    tests += s.cases.size();
    failures += count(s, JUnitCase::Outcome::failed);
    errors += count(s, JUnitCase::Outcome::error);
    skipped += count(s, JUnitCase::Outcome::skipped);
    seconds += s.seconds;
  }
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"" << xml_escape(name) << "\" tests=\"" << tests << "\" failures=\""
      << failures << "\" errors=\"" << errors << "\" skipped=\"" << skipped << "\" time=\""
      << format_seconds(seconds) << "\">\n";
  for (const auto& s : suites) {
    out << "  <testsuite name=\"" << xml_escape(s.name) << "\" tests=\"" << s.cases.size()
        << "\" failures=\"" << count(s, JUnitCase::Outcome::failed) << "\" errors=\""
        << count(s, JUnitCase::Outcome::error) << "\" skipped=\""
        << count(s, JUnitCase::Outcome::skipped) << "\" time=\"" << format_seconds(s.seconds)
        << "\">\n";
    for (const auto& c : s.cases) {
      out << "    <testcase name=\"" << xml_escape(c.name) << "\" classname=\""
          << xml_escape(c.classname) << "\" time=\"" << format_seconds(c.seconds) << "\"";
      const char* element = c.outcome == JUnitCase::Outcome::failed    ? "failure"
                            : c.outcome == JUnitCase::Outcome::error   ? "error"
                            : c.outcome == JUnitCase::Outcome::skipped ? "skipped"
                                                                       : nullptr;
      if (!element && c.output.empty()) {
        out << "/>\n";
        continue;
      }
      out << ">\n";
      if (element) {
        out << "      <" << element << " message=\"" << xml_escape(c.message) << "\"";
        if (c.details.empty()) {
          out << "/>\n";
        } else {
          out << ">" << xml_escape(c.details) << "</" << element << ">\n";
        }
      }
      if (!c.output.empty())
        out << "      <system-out>" << xml_escape(c.output) << "</system-out>\n";
      out << "    </testcase>\n";
    }
    out << "  </testsuite>\n";
  }
  out << "</testsuites>\n";
}

void write_junit_file(const std::vector<JUnitSuite>& suites, std::string_view name,
                      const std::string& path) {
  std::ostringstream doc;
  write_junit(suites, name, doc);
  write_file_atomically(path, doc.str());
}

std::string github_escape_data(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '%')
      out += "%25";
    else if (c == '\r')
      out += "%0D";
    else if (c == '\n')
      out += "%0A";
    else
      out += c;
  }
  return out;
}

std::string github_escape_property(std::string_view text) {
  std::string out;
  for (char c : github_escape_data(text)) {
    if (c == ':')
      out += "%3A";
    else if (c == ',')
      out += "%2C";
    else
      out += c;
  }
  return out;
}

std::string github_command(std::string_view level, std::string_view file, std::string_view title,
                           std::string_view message) {
  std::string out = "::" + std::string(level);
  std::string props;
  if (!file.empty()) props += "file=" + github_escape_property(file);
  if (!title.empty())
    props += (props.empty() ? "" : ",") + ("title=" + github_escape_property(title));
  if (!props.empty()) out += ' ' + props;
  return out + "::" + github_escape_data(message) + '\n';
}

}  // namespace onnxtool::app
