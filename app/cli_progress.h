// SPDX-License-Identifier: Apache-2.0
// Progress for long work, on stderr, one line rewritten in place:
//   [ 312/1450] 0:41 elapsed, about 2:30 left  test_conv_with_strides
// Only when stderr is a terminal and the output is for people: never with --json, -q or a
// machine format, never into a file or pipe.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "app/cli_common.h"

namespace onnxtool::app {

class Progress {
 public:
  // enabled: the command's own condition (no machine format); the terminal, --json and -q are
  // checked here.
  Progress(Io& io, const GlobalOptions& g, std::size_t total, bool enabled = true);
  ~Progress();
  Progress(const Progress&) = delete;
  Progress& operator=(const Progress&) = delete;

  bool active() const { return active_; }
  // Item `index` (0-based) starts.
  void start(std::size_t index, const std::string& item);
  // Erases the line (before other output, and at the end).
  void clear();

 private:
  Io& io_;
  bool active_;
  std::size_t total_;
  std::chrono::steady_clock::time_point begin_;
  bool shown_ = false;
};

// "0:41", "1:02:03"
std::string clock_text(double seconds);

}  // namespace onnxtool::app
