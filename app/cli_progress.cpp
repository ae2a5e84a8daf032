// SPDX-License-Identifier: Apache-2.0
#include "app/cli_progress.h"

#include <cstdio>
#include <ostream>

namespace onnxtool::app {

std::string clock_text(double seconds) {
  const long s = seconds < 0 ? 0 : static_cast<long>(seconds + 0.5);
  char buf[32];
  if (s >= 3600)
    std::snprintf(buf, sizeof buf, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
  else
    std::snprintf(buf, sizeof buf, "%ld:%02ld", s / 60, s % 60);
  return buf;
}

Progress::Progress(Io& io, const GlobalOptions& g, std::size_t total, bool enabled)
    : io_(io),
      active_(enabled && io.err_is_terminal && !g.json && !g.quiet && total > 1),
      total_(total),
      begin_(std::chrono::steady_clock::now()) {}

Progress::~Progress() {
  clear();
}

void Progress::start(std::size_t index, const std::string& item) {
  if (!active_) return;
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin_).count();
  const int width = static_cast<int>(std::to_string(total_).size());
  char head[64];
  std::snprintf(head, sizeof head, "[%*zu/%zu] ", width, index + 1, total_);
  std::string line = head + clock_text(elapsed) + " elapsed";
  // The estimate needs a few items behind it to mean anything.
  if (index >= 2 && elapsed > 1)
    line += ", about " +
            clock_text(elapsed / static_cast<double>(index) * static_cast<double>(total_ - index)) +
            " left";
  line += "  " + (item.size() > 60 ? "..." + item.substr(item.size() - 57) : item);
  io_.err << "\r\033[K" << line << std::flush;
  shown_ = true;
}

void Progress::clear() {
  if (!shown_) return;
  io_.err << "\r\033[K" << std::flush;
  shown_ = false;
}

}  // namespace onnxtool::app
