// SPDX-License-Identifier: Apache-2.0
// Diagnostics: what every pass reports, collected rather than printed, rendered by the app.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace onnxtool {

class RulePolicy;

enum class Severity { note, warning, error };

const char* severity_name(Severity s);

struct Diagnostic {
  Severity severity = Severity::error;
  std::string rule;      // stable id, e.g. "external-data.escapes-model-dir"
  std::string file;      // the file the finding is about ("" when none)
  std::string location;  // path inside the model, e.g. graph.node[3] "conv" (Conv) attribute pads
  std::string message;   // lowercase, no final period, says what was expected
  std::vector<std::string> notes;
};

// Collects diagnostics; the library never prints. Counts per severity stay exact even when the
// stored list is capped; a capped list keeps the most severe findings (errors before warnings
// before notes), each kind in the order reported.
class DiagSink {
 public:
  explicit DiagSink(std::size_t max_stored = SIZE_MAX) : max_stored_(max_stored) {}

  // Applies the rule policy, if one is set: the finding may be dropped or change severity.
  void report(Diagnostic d);
  // A fatal problem (the file could not be read at all): no policy can hide or demote it.
  void report_fatal(Diagnostic d);
  void error(std::string rule, std::string location, std::string message);
  void warning(std::string rule, std::string location, std::string message);
  void note(std::string rule, std::string location, std::string message);

  // Sets the file name stamped on diagnostics reported without one.
  void set_file(std::string file) { file_ = std::move(file); }
  const std::string& file() const { return file_; }
  // Rule configuration (--ignore/--warn/--error); the policy must outlive the sink.
  void set_policy(const RulePolicy* policy) { policy_ = policy; }

  const std::vector<Diagnostic>& diagnostics() const { return items_; }
  std::size_t errors() const { return errors_; }
  std::size_t warnings() const { return warnings_; }
  std::size_t dropped() const { return dropped_; }
  bool ok() const { return errors_ == 0; }
  // A finding that means a file could not be read (missing external data): the command's exit
  // code is then 3 (I/O), not 1, even though reading went on to report the rest.
  void mark_io_failure() { io_failed_ = true; }
  bool io_failed() const { return io_failed_; }
  // 0 when there is no error, 3 after an I/O failure, else 1.
  int exit_code() const { return io_failed_ ? 3 : errors_ ? 1 : 0; }
  void clear();

 private:
  void store(Diagnostic d);

  std::vector<Diagnostic> items_;
  std::string file_;
  const RulePolicy* policy_ = nullptr;
  std::size_t max_stored_;
  std::size_t errors_ = 0, warnings_ = 0, dropped_ = 0;
  bool io_failed_ = false;
};

struct RenderOptions {
  bool color = false;
  // Repeats of one rule beyond this many are folded into "... and N more".
  std::size_t fold_after = 20;
  // Appended to each fold line, e.g. " (-v lists them all)".
  std::string fold_hint;
  std::string program = "onnxtool";
};

// One line per diagnostic (plus indented notes), in DESIGN.md's format:
//   onnxtool: error: model.onnx: graph.node[12] "conv1" (Conv) attribute pads: message [rule]
std::string render_text(const Diagnostic& d, const RenderOptions& opt);
std::string render_text(const std::vector<Diagnostic>& ds, const RenderOptions& opt);
nlohmann::json to_json(const Diagnostic& d);
nlohmann::json to_json(const std::vector<Diagnostic>& ds);

}  // namespace onnxtool
