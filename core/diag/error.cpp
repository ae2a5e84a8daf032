// SPDX-License-Identifier: Apache-2.0
#include "core/diag/error.h"

namespace onnxtool {

int exit_code_for(ErrorKind kind) {
  switch (kind) {
    case ErrorKind::invalid:
      return 1;
    case ErrorKind::usage:
      return 2;
    case ErrorKind::io:
      return 3;
    case ErrorKind::internal:
      return 4;
  }
  return 4;
}

namespace {
std::string compose(const std::string& file, const std::string& location,
                    const std::string& message) {
  std::string s;
  if (!file.empty()) s += file + ": ";
  if (!location.empty()) s += location + ": ";
  return s + message;
}
}  // namespace

Error::Error(ErrorKind kind, std::string rule, std::string file, std::string location,
             std::string message)
    : std::runtime_error(compose(file, location, message)),
      kind_(kind),
      rule_(std::move(rule)),
      file_(std::move(file)),
      location_(std::move(location)),
      message_(std::move(message)) {}

Diagnostic Error::diagnostic() const {
  return {Severity::error, rule_, file_, location_, message_, {}};
}

Error Error::with_file(const std::string& file) const {
  if (!file_.empty()) return *this;
  return Error(kind_, rule_, file, location_, message_);
}

void throw_io(std::string rule, std::string file, std::string message) {
  throw Error(ErrorKind::io, std::move(rule), std::move(file), "", std::move(message));
}
void throw_invalid(std::string rule, std::string file, std::string location, std::string message) {
  throw Error(ErrorKind::invalid, std::move(rule), std::move(file), std::move(location),
              std::move(message));
}
void throw_usage(std::string message) {
  throw Error(ErrorKind::usage, "usage", "", "", std::move(message));
}
void throw_internal(std::string message) {
  throw Error(ErrorKind::internal, "internal", "", "", std::move(message));
}

}  // namespace onnxtool
