// SPDX-License-Identifier: Apache-2.0
// Routes spdlog (progress and timing for -v; never diagnostics) to a command's error stream for
// as long as the command runs.
#pragma once

#include <iosfwd>
#include <memory>

namespace spdlog {
class logger;
}

namespace onnxtool {

class ScopedVerboseLog {
 public:
  // verbosity: 0 quiet (warnings only), 1 info (-v), 2 and more debug (-vv).
  ScopedVerboseLog(std::ostream& err, int verbosity);
  ~ScopedVerboseLog();
  ScopedVerboseLog(const ScopedVerboseLog&) = delete;
  ScopedVerboseLog& operator=(const ScopedVerboseLog&) = delete;

 private:
  std::shared_ptr<spdlog::logger> previous_;
};

}  // namespace onnxtool
