// SPDX-License-Identifier: Apache-2.0
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <stdexcept>
#include <thread>
#include <vector>

#include "core/exec/thread_pool.h"
#include "core/exec/trace.h"

using namespace onnxtool;

TEST_CASE("parallel_for covers the range exactly once, in chunks of at least the grain") {
  for (int threads : {1, 2, 4}) {
    ThreadPool pool(threads);
    CHECK(pool.size() == threads);
    for (int64_t n : {0, 1, 7, 1000, 100003}) {
      std::vector<std::atomic<int>> hits(static_cast<std::size_t>(n));
      std::atomic<int64_t> smallest{n};
      pool.parallel_for(n, 16, [&](int64_t lo, int64_t hi) {
        if (hi < n) smallest = std::min<int64_t>(smallest, hi - lo);
        for (int64_t i = lo; i < hi; ++i) ++hits[static_cast<std::size_t>(i)];
      });
      int64_t wrong = 0;
      for (auto& h : hits) wrong += h != 1;
      CHECK(wrong == 0);
      CHECK(smallest >= std::min<int64_t>(n, 16));
    }
  }
}

TEST_CASE("the first exception of a body reaches the caller, and the pool stays usable") {
  ThreadPool pool(3);
  CHECK_THROWS_AS(pool.parallel_for(1000, 1,
                                    [](int64_t lo, int64_t) {
                                      if (lo >= 500) throw std::runtime_error("chunk failed");
                                    }),
                  std::runtime_error);
  std::atomic<int64_t> sum{0};
  pool.parallel_for(100, 1, [&](int64_t lo, int64_t hi) { sum += hi - lo; });
  CHECK(sum == 100);
}

TEST_CASE("a nested parallel_for runs inline on the calling thread") {
  ThreadPool pool(2);
  std::atomic<int> nested_inline{0}, outer{0};
  pool.parallel_for(8, 1, [&](int64_t lo, int64_t hi) {
    CHECK(ThreadPool::in_parallel_region());
    for (int64_t i = lo; i < hi; ++i) {
      ++outer;
      pool.parallel_for(4, 1, [&](int64_t a, int64_t b) {
        if (a == 0 && b == 4) ++nested_inline;  // one chunk: the whole range
      });
    }
  });
  CHECK(outer == 8);
  CHECK(nested_inline == 8);
  CHECK_FALSE(ThreadPool::in_parallel_region());
}

// Waits (up to ten seconds, so that a broken pool fails the test rather than hanging it) until
// `ready` says yes.
template <class Ready>
bool wait_until(Ready ready) {
  const auto limit = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (!ready()) {
    if (std::chrono::steady_clock::now() > limit) return false;
    std::this_thread::yield();
  }
  return true;
}

TEST_CASE(
    "each thread owns a run of consecutive chunks; one that runs out takes the others' last") {
  ThreadPool pool(2);
  const auto caller = std::this_thread::get_id();
  std::mutex m;
  std::vector<int64_t> by_caller;
  std::atomic<int64_t> worker_first{-1};
  std::atomic<int> caller_chunks{0};
  bool worker_waited = true;
  // Eight chunks of one item: the caller owns 0-3, the worker 4-7.
  pool.parallel_for(8, 1, [&](int64_t lo, int64_t hi) {
    CHECK(hi == lo + 1);
    if (std::this_thread::get_id() == caller) {
      {
        const std::lock_guard<std::mutex> lock(m);
        by_caller.push_back(lo);
      }
      // The caller's first chunk waits for the worker to have taken one (if it woke at all).
      if (lo == 0) wait_until([&] { return worker_first.load() >= 0; });
      ++caller_chunks;
      return;
    }
    int64_t none = -1;
    // The worker's first chunk holds it until the caller has run seven: its own four, then
    // the worker's last three, from the back.
    if (worker_first.compare_exchange_strong(none, lo))
      worker_waited = wait_until([&] { return caller_chunks.load() >= 7; });
  });
  CHECK(worker_waited);
  // A worker that woke took the first chunk of its own run; one too late took none, and the
  // caller ran all eight, the worker's from the back.
  if (worker_first.load() >= 0) CHECK(worker_first.load() == 4);
  REQUIRE(by_caller.size() >= 7);
  CHECK(std::vector<int64_t>(by_caller.begin(), by_caller.begin() + 7) ==
        std::vector<int64_t>{0, 1, 2, 3, 7, 6, 5});
}

TEST_CASE("thread counts: 0 means every hardware thread") {
  CHECK(resolve_thread_count(3) == 3);
  CHECK(resolve_thread_count(0) >= 1);
}

TEST_CASE("a traced parallel_for records each chunk once, on the lane of the thread that ran it") {
  ThreadPool pool(3);
  TraceRecorder recorder(pool.size(), 1000);
  const int64_t n = 64;
  {
    const TraceScope scope({&recorder, 7});
    pool.parallel_for(n, 1, [&](int64_t lo, int64_t hi) {
      // Work long enough for the workers to take chunks too.
      volatile double sink = 0;
      for (int64_t i = lo * 20000; i < hi * 20000; ++i) sink = sink + 1.0;
      // The worker runs the chunk in the issuing node's context.
      CHECK(current_trace().recorder == &recorder);
      CHECK(current_trace().node == 7);
    });
  }
  CHECK(current_trace().recorder == nullptr);
  const auto spans = recorder.spans();
  std::vector<int> covered(static_cast<std::size_t>(n), 0);
  for (const auto& s : spans) {
    CHECK(s.chunk);
    CHECK(s.node == 7);
    CHECK(s.thread >= 0);
    CHECK(s.thread < pool.size());
    CHECK(s.end_ns >= s.begin_ns);
    for (int64_t i = s.first_item; i < s.end_item; ++i) ++covered[static_cast<std::size_t>(i)];
  }
  for (int c : covered) CHECK(c == 1);
  for (std::size_t i = 1; i < spans.size(); ++i) CHECK(spans[i - 1].begin_ns <= spans[i].begin_ns);
  // Without a recorder in the issuing thread's context, nothing is recorded.
  recorder.clear();
  pool.parallel_for(n, 1, [](int64_t, int64_t) {});
  CHECK(recorder.spans().empty());
}

TEST_CASE("a trace recorder keeps spans up to its cap, then says it was truncated") {
  TraceRecorder recorder(2, 3);
  CHECK(recorder.claim());
  CHECK_FALSE(recorder.claim());  // one run records at a time
  for (int i = 0; i < 5; ++i) {
    TraceSpan s;
    s.thread = i % 2;
    s.begin_ns = 10 - i;
    s.end_ns = 20;
    recorder.add(s);
  }
  TraceSpan stranger;
  stranger.thread = 5;  // a lane this recorder does not have: another pool's thread
  recorder.add(stranger);
  const auto spans = recorder.spans();
  REQUIRE(spans.size() == 3);
  CHECK(spans[0].begin_ns == 8);
  CHECK(spans[2].begin_ns == 10);
  CHECK(recorder.truncated());
  recorder.release();
  CHECK(recorder.claim());
  recorder.clear();
  CHECK(recorder.spans().empty());
  CHECK_FALSE(recorder.truncated());
}
