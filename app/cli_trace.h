// SPDX-License-Identifier: Apache-2.0
// `run --profile-trace FILE`: the session's trace (core/exec/trace.h) as a Chrome trace JSON
// (Trace Event Format: chrome://tracing, ui.perfetto.dev), one lane per thread: the runs, their
// nodes on the calling thread, and the chunks of each node's parallel loops on every thread.
#pragma once

#include <cstddef>
#include <filesystem>
#include <string>

#include "core/exec/session.h"

namespace onnxtool::app {

struct TraceSummary {
  std::size_t spans = 0;
  bool truncated = false;
};

// Writes the trace to `target` through a temporary file ("-": stdout). Throws Error(io).
TraceSummary write_profile_trace(const Session& session, const std::string& model_name,
                                 const std::filesystem::path& target);

}  // namespace onnxtool::app
