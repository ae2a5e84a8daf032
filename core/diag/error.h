// SPDX-License-Identifier: Apache-2.0
// The one exception type of the library: a fatal problem that stops the current operation.
// Everything else is a Diagnostic in a DiagSink.
#pragma once

#include <stdexcept>
#include <string>

#include "core/diag/diagnostic.h"

namespace onnxtool {

// What kind of failure, which decides the exit code (DESIGN.md):
// invalid -> 1 (the input is not a valid model/tensor), usage -> 2, io -> 3, internal -> 4.
enum class ErrorKind { invalid, usage, io, internal };

int exit_code_for(ErrorKind kind);

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, std::string rule, std::string file, std::string location,
        std::string message);

  ErrorKind kind() const { return kind_; }
  const std::string& rule() const { return rule_; }
  const std::string& file() const { return file_; }
  const std::string& location() const { return location_; }
  const std::string& message() const { return message_; }
  Diagnostic diagnostic() const;

  // Returns a copy with the file set when it was unknown where the error was raised.
  Error with_file(const std::string& file) const;

 private:
  ErrorKind kind_;
  std::string rule_, file_, location_, message_;
};

[[noreturn]] void throw_io(std::string rule, std::string file, std::string message);
[[noreturn]] void throw_invalid(std::string rule, std::string file, std::string location,
                                std::string message);
[[noreturn]] void throw_usage(std::string message);
[[noreturn]] void throw_internal(std::string message);

}  // namespace onnxtool
