// SPDX-License-Identifier: Apache-2.0
#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <vector>

#include "core/exec/thread_pool.h"

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

TEST_CASE("thread counts: 0 means every hardware thread") {
  CHECK(resolve_thread_count(3) == 3);
  CHECK(resolve_thread_count(0) >= 1);
}
