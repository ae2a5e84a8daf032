// SPDX-License-Identifier: Apache-2.0
#include "app/cli_check_report.h"

#include <algorithm>
#include <map>

#include <nlohmann/json.hpp>

#include "app/cli_formats.h"
#include "core/check/rules.h"
#include "core/util/sha1.h"
#include "core/version.h"

namespace onnxtool::app {

namespace {

std::string family_of(std::string_view rule) {
  const auto dot = rule.find('.');
  return dot == std::string_view::npos || rule.empty() ? "other" : std::string(rule.substr(0, dot));
}

const char* sarif_level(Severity s) {
  switch (s) {
    case Severity::error:
      return "error";
    case Severity::warning:
      return "warning";
    case Severity::note:
      return "note";
  }
  return "error";
}

// A relative path stays relative (GitHub resolves it against the repository); an absolute one
// becomes a file: URI. Characters a URI cannot hold are percent-encoded.
std::string path_to_uri(const std::string& path) {
  auto unreserved = [](unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' ||
           c == '.' || c == '_' || c == '~' || c == '/';
  };
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out = !path.empty() && path[0] == '/' ? "file://" : "";
  for (unsigned char c : path) {
    if (unreserved(c)) {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  }
  return out;
}

std::string rule_help(const CheckRule& r) {
  std::string help = std::string(r.summary) + ". Default level: " + severity_name(r.severity);
  if (r.strict) help += " (an error with --strict)";
  return help + ". Configure with --ignore/--warn/--error " + std::string(r.id) +
         " or in .onnxtool.json; the README's rule tables describe every rule.";
}

nlohmann::json sarif_rule(const CheckRule& r) {
  return {{"id", std::string(r.id)},
          {"name", std::string(r.id)},
          {"shortDescription", {{"text", std::string(r.summary)}}},
          {"fullDescription", {{"text", std::string(r.summary)}}},
          {"defaultConfiguration", {{"level", sarif_level(r.severity)}}},
          {"help", {{"text", rule_help(r)}}},
          {"properties", {{"tags", {family_of(r.id)}}, {"strict", r.strict}}}};
}

nlohmann::json sarif_result(const Diagnostic& d, const std::map<std::string, std::size_t>& index) {
  std::string text = d.message;
  for (const auto& n : d.notes) text += "\nnote: " + n;
  nlohmann::json location = {
      {"physicalLocation",
       // A model has no lines; GitHub code scanning wants a region all the same.
       {{"artifactLocation", {{"uri", path_to_uri(d.file)}}}, {"region", {{"startLine", 1}}}}}};
  if (!d.location.empty())
    location["logicalLocations"] = {{{"fullyQualifiedName", d.location}, {"kind", "object"}}};
  nlohmann::json r = {{"ruleId", d.rule.empty() ? "other" : d.rule},
                      {"level", sarif_level(d.severity)},
                      {"message", {{"text", text}}},
                      {"locations", {location}},
                      // Stable across runs: the same finding in the same place is one alert.
                      {"partialFingerprints",
                       {{"onnxtoolFinding/v1",
                         sha1_hex((d.rule + '\n' + d.location + '\n' + d.message).data(),
                                  d.rule.size() + d.location.size() + d.message.size() + 2)}}}};
  if (auto it = index.find(d.rule); it != index.end()) r["ruleIndex"] = it->second;
  return r;
}

std::string one_line(const Diagnostic& d) {
  std::string s = std::string(severity_name(d.severity)) + ": ";
  if (!d.location.empty()) s += d.location + ": ";
  return s + d.message + " [" + d.rule + "]";
}

}  // namespace

nlohmann::json check_result_json(const CheckFileResult& r) {
  return {{"file", r.file},
          {"valid", r.code == 0},
          {"exit_code", r.code},
          {"errors", r.errors},
          {"warnings", r.warnings},
          {"dropped", r.dropped},
          {"diagnostics", to_json(r.diagnostics)}};
}

nlohmann::json check_sarif(const std::vector<CheckFileResult>& results, int exit_code) {
  nlohmann::json rules = nlohmann::json::array();
  std::map<std::string, std::size_t> index;
  for (const auto& r : reported_rules()) {
    index[std::string(r.id)] = rules.size();
    rules.push_back(sarif_rule(r));
  }
  nlohmann::json out = nlohmann::json::array();
  nlohmann::json artifacts = nlohmann::json::array();
  for (const auto& f : results) {
    artifacts.push_back({{"location", {{"uri", path_to_uri(f.file)}}}});
    for (const auto& d : f.diagnostics) out.push_back(sarif_result(d, index));
  }
  nlohmann::json driver = {{"name", "onnxtool"},
                           {"version", std::string(kOnnxtoolVersion)},
                           {"semanticVersion", std::string(kOnnxtoolVersion)},
                           {"rules", rules}};
  nlohmann::json run = {
      {"tool", {{"driver", driver}}},
      {"artifacts", artifacts},
      {"results", out},
      {"invocations",
       {{{"executionSuccessful", exit_code == 0 || exit_code == 1}, {"exitCode", exit_code}}}}};
  return {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
          {"version", "2.1.0"},
          {"runs", {run}}};
}

void write_check_junit(const std::vector<CheckFileResult>& results, std::ostream& out) {
  // Families in the order the rule table has them.
  std::vector<std::string> families;
  for (const auto& r : reported_rules()) {
    auto f = family_of(r.id);
    if (std::find(families.begin(), families.end(), f) == families.end()) families.push_back(f);
  }
  std::vector<JUnitSuite> suites;
  for (const auto& f : results) {
    JUnitSuite suite{f.file, 0, {}};
    std::map<std::string, JUnitCase> cases;
    for (const auto& fam : families) cases[fam] = {fam, "onnxtool.check." + fam, 0, {}, {}, {}, {}};
    std::vector<std::string> order = families;
    for (const auto& d : f.diagnostics) {
      const auto fam = family_of(d.rule);
      if (!cases.count(fam)) {
        cases[fam] = {fam, "onnxtool.check." + fam, 0, {}, {}, {}, {}};
        order.push_back(fam);
      }
      JUnitCase& c = cases[fam];
      if (d.severity == Severity::error) {
        c.outcome =
            f.code == 3 || f.code == 4 ? JUnitCase::Outcome::error : JUnitCase::Outcome::failed;
        if (c.message.empty()) c.message = d.message + " [" + d.rule + "]";
        c.details += one_line(d) + '\n';
      } else {
        c.output += one_line(d) + '\n';
      }
    }
    for (const auto& fam : order) suite.cases.push_back(cases[fam]);
    suites.push_back(std::move(suite));
  }
  write_junit(suites, "onnxtool check", out);
}

void write_check_github(const std::vector<CheckFileResult>& results, std::ostream& out) {
  for (const auto& f : results) {
    for (const auto& d : f.diagnostics) {
      const char* level = d.severity == Severity::error     ? "error"
                          : d.severity == Severity::warning ? "warning"
                                                            : "notice";
      const std::string message = d.location.empty() ? d.message : d.location + ": " + d.message;
      out << github_command(level, f.file, d.rule, message);
    }
    if (f.dropped) {
      out << github_command("notice", f.file, "onnxtool check",
                            std::to_string(f.dropped) + " more findings not shown (--max-errors)");
    }
  }
}

}  // namespace onnxtool::app
