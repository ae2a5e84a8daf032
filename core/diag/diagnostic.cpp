// SPDX-License-Identifier: Apache-2.0
#include "core/diag/diagnostic.h"

#include <map>

#include <nlohmann/json.hpp>

#include "core/diag/rule_policy.h"

namespace onnxtool {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::note:
      return "note";
    case Severity::warning:
      return "warning";
    case Severity::error:
      return "error";
  }
  return "error";
}

void DiagSink::report(Diagnostic d) {
  if (policy_ && !policy_->apply(d)) return;
  store(std::move(d));
}

void DiagSink::report_fatal(Diagnostic d) {
  store(std::move(d));
}

void DiagSink::store(Diagnostic d) {
  if (d.severity == Severity::error) ++errors_;
  if (d.severity == Severity::warning) ++warnings_;
  if (d.file.empty()) d.file = file_;
  if (items_.size() < max_stored_) {
    items_.push_back(std::move(d));
    return;
  }
  ++dropped_;
  // Full: a finding gives way only to a more severe one, so that a capped list of a model with
  // a few errors among thousands of warnings still shows the errors. The latest of the least
  // severe kind goes, and the rest keep the order they were reported in.
  auto weakest = items_.end();
  for (auto it = items_.begin(); it != items_.end(); ++it)
    if (weakest == items_.end() || it->severity <= weakest->severity) weakest = it;
  if (weakest == items_.end() || weakest->severity >= d.severity) return;
  items_.erase(weakest);
  items_.push_back(std::move(d));
}

void DiagSink::error(std::string rule, std::string location, std::string message) {
  report({Severity::error, std::move(rule), "", std::move(location), std::move(message), {}});
}
void DiagSink::warning(std::string rule, std::string location, std::string message) {
  report({Severity::warning, std::move(rule), "", std::move(location), std::move(message), {}});
}
void DiagSink::note(std::string rule, std::string location, std::string message) {
  report({Severity::note, std::move(rule), "", std::move(location), std::move(message), {}});
}

void DiagSink::clear() {
  items_.clear();
  errors_ = warnings_ = dropped_ = 0;
  io_failed_ = false;
}

namespace {

const char* severity_color(Severity s) {
  switch (s) {
    case Severity::note:
      return "\x1b[1;36m";
    case Severity::warning:
      return "\x1b[1;35m";
    case Severity::error:
      return "\x1b[1;31m";
  }
  return "";
}

}  // namespace

std::string render_text(const Diagnostic& d, const RenderOptions& opt) {
  std::string out = opt.program + ": ";
  if (opt.color) out += severity_color(d.severity);
  out += severity_name(d.severity);
  if (opt.color) out += "\x1b[0m";
  out += ": ";
  if (!d.file.empty()) out += d.file + ": ";
  if (!d.location.empty()) out += d.location + ": ";
  out += d.message;
  if (!d.rule.empty()) {
    out += opt.color ? " \x1b[2m[" + d.rule + "]\x1b[0m" : " [" + d.rule + "]";
  }
  out += '\n';
  for (const auto& n : d.notes) out += "  note: " + n + '\n';
  return out;
}

std::string render_text(const std::vector<Diagnostic>& ds, const RenderOptions& opt) {
  // Fold repeats per (file, rule) so one systematic fault does not drown the rest.
  std::map<std::pair<std::string, std::string>, std::size_t> seen;
  std::map<std::pair<std::string, std::string>, std::size_t> folded;
  std::vector<std::pair<std::string, std::string>> fold_order;
  // Folding one finding away would print a line as long as the finding: fold two or more.
  std::map<std::pair<std::string, std::string>, std::size_t> total;
  for (const auto& d : ds) ++total[{d.file, d.rule}];
  std::string out;
  for (const auto& d : ds) {
    auto key = std::make_pair(d.file, d.rule);
    const bool folds = total[key] - 1 > opt.fold_after;
    if (++seen[key] > opt.fold_after && folds && !d.rule.empty()) {
      if (folded[key]++ == 0) fold_order.push_back(key);
      continue;
    }
    out += render_text(d, opt);
  }
  // "onnxtool: m.onnx: ... and 1659 more [name.not-c-identifier]": which file, when there is one.
  for (const auto& key : fold_order) {
    out += opt.program + ": " + (key.first.empty() ? "" : key.first + ": ") + "... and " +
           std::to_string(folded[key]) + " more [" + key.second + "]" + opt.fold_hint + "\n";
  }
  return out;
}

nlohmann::json to_json(const Diagnostic& d) {
  nlohmann::json j = {{"severity", severity_name(d.severity)},
                      {"rule", d.rule},
                      {"file", d.file},
                      {"location", d.location},
                      {"message", d.message}};
  if (!d.notes.empty()) j["notes"] = d.notes;
  return j;
}

nlohmann::json to_json(const std::vector<Diagnostic>& ds) {
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& d : ds) arr.push_back(to_json(d));
  return arr;
}

}  // namespace onnxtool
