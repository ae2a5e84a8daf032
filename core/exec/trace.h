// SPDX-License-Identifier: Apache-2.0
// `run --profile-trace`: when each node of a run ran, and when each thread of the pool worked for
// it (the chunks of the node's parallel loops), as spans a Chrome trace shows one lane per
// thread (Perfetto, chrome://tracing). A Session made with options.trace records the runs its
// profile counts; one run records at a time (a run on another thread meanwhile records nothing),
// and the spans stop at a cap (trace_truncated()) so that a long --bench cannot exhaust memory.
#pragma once

#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace onnxtool {

struct TraceSpan {
  int32_t node = -1;  // index into Session::profile(); -1: a whole run
  int32_t thread =
      0;  // 0: the thread that called run() (or any thread not the pool's); 1..: workers
  bool chunk = false;    // a chunk of a parallel loop the node issued (else the node itself)
  int64_t begin_ns = 0;  // since the recorder was made
  int64_t end_ns = 0;
  int64_t first_item = 0, end_item = 0;  // a chunk's items [first, end) of its loop
};

class TraceRecorder {
 public:
  TraceRecorder(int threads, std::size_t max_spans);

  // Claims the recorder for the calling thread's run; false when another run holds it.
  bool claim();
  void release();

  int64_t now_ns() const;
  // Kept while under the cap (else the trace is marked truncated). Each thread appends to its
  // own list, so that workers never wait for one another.
  void add(const TraceSpan& span);

  // Every span kept, by start time. Call between runs.
  std::vector<TraceSpan> spans() const;
  bool truncated() const { return truncated_.load(std::memory_order_relaxed); }
  void clear();

 private:
  std::chrono::steady_clock::time_point origin_;
  std::vector<std::vector<TraceSpan>> per_thread_;
  std::size_t max_spans_;
  std::atomic<std::size_t> kept_{0};
  std::atomic<bool> truncated_{false}, claimed_{false};
};

// What the calling thread records into and the node it is running: set by a traced run for its
// length, by the runner for each node, and carried by parallel_for to the workers that run the
// node's chunks.
struct TraceContext {
  TraceRecorder* recorder = nullptr;
  int32_t node = -1;
};

TraceContext current_trace();

// Sets the calling thread's TraceContext while alive (nested scopes restore the outer one).
class TraceScope {
 public:
  explicit TraceScope(TraceContext context);
  ~TraceScope();
  TraceScope(const TraceScope&) = delete;
  TraceScope& operator=(const TraceScope&) = delete;

 private:
  TraceContext previous_;
};

// The calling thread's lane in traces: 0 unless set (the pool's workers set 1..size-1).
int trace_thread();
void set_trace_thread(int index);

}  // namespace onnxtool
