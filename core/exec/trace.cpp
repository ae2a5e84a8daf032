// SPDX-License-Identifier: Apache-2.0
#include "core/exec/trace.h"

#include <algorithm>

namespace onnxtool {

namespace {

thread_local TraceContext t_context;
thread_local int t_thread = 0;

}  // namespace

TraceRecorder::TraceRecorder(int threads, std::size_t max_spans)
    : origin_(std::chrono::steady_clock::now()),
      per_thread_(static_cast<std::size_t>(std::max(threads, 1))),
      max_spans_(max_spans) {}

bool TraceRecorder::claim() {
  bool expected = false;
  return claimed_.compare_exchange_strong(expected, true, std::memory_order_acquire);
}

void TraceRecorder::release() {
  claimed_.store(false, std::memory_order_release);
}

int64_t TraceRecorder::now_ns() const {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() -
                                                              origin_)
      .count();
}

void TraceRecorder::add(const TraceSpan& span) {
  const auto lane = static_cast<std::size_t>(span.thread);
  if (lane >= per_thread_.size()) return;  // a thread of another pool: not this session's
  if (kept_.fetch_add(1, std::memory_order_relaxed) >= max_spans_) {
    truncated_.store(true, std::memory_order_relaxed);
    return;
  }
  per_thread_[lane].push_back(span);
}

std::vector<TraceSpan> TraceRecorder::spans() const {
  std::vector<TraceSpan> all;
  for (const auto& lane : per_thread_) all.insert(all.end(), lane.begin(), lane.end());
  // Enclosing spans first where two begin together, as trace viewers nest them.
  std::stable_sort(all.begin(), all.end(), [](const TraceSpan& a, const TraceSpan& b) {
    if (a.begin_ns != b.begin_ns) return a.begin_ns < b.begin_ns;
    return a.end_ns > b.end_ns;
  });
  return all;
}

void TraceRecorder::clear() {
  for (auto& lane : per_thread_) lane.clear();
  kept_.store(0);
  truncated_.store(false);
}

TraceContext current_trace() {
  return t_context;
}

TraceScope::TraceScope(TraceContext context) : previous_(t_context) {
  t_context = context;
}

TraceScope::~TraceScope() {
  t_context = previous_;
}

int trace_thread() {
  return t_thread;
}

void set_trace_thread(int index) {
  t_thread = index;
}

}  // namespace onnxtool
