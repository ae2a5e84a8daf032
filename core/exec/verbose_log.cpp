// SPDX-License-Identifier: Apache-2.0
#include "core/exec/verbose_log.h"

#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

namespace onnxtool {

ScopedVerboseLog::ScopedVerboseLog(std::ostream& err, int verbosity)
    : previous_(spdlog::default_logger()) {
  auto sink = std::make_shared<spdlog::sinks::ostream_sink_mt>(err, /*force_flush=*/true);
  auto logger = std::make_shared<spdlog::logger>("onnxtool", sink);
  logger->set_pattern("onnxtool: %v");
  logger->set_level(verbosity >= 2   ? spdlog::level::debug
                    : verbosity == 1 ? spdlog::level::info
                                     : spdlog::level::warn);
  spdlog::set_default_logger(std::move(logger));
}

// The stream may die with the command: put the previous logger back.
ScopedVerboseLog::~ScopedVerboseLog() {
  spdlog::set_default_logger(previous_);
}

}  // namespace onnxtool
