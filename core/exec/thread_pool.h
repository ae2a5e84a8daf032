// SPDX-License-Identifier: Apache-2.0
// The executor's worker threads: one pool per Session, sized by --threads, used by kernels
// through KernelContext::parallel_for (and by the BLAS wrapper to split a GEMM).
//
// The calling thread takes part in the work, so a pool of N runs at most N threads at once.
// A parallel_for issued from inside a parallel_for body runs inline on the calling thread:
// nesting never multiplies threads.
#pragma once

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

#include "core/exec/trace.h"

namespace onnxtool {

// Threads to use when the user asked for `requested` (0: every hardware thread).
int resolve_thread_count(int requested);

class ThreadPool {
 public:
  using RangeFn = std::function<void(int64_t, int64_t)>;

  // threads: total threads including the caller (0: every hardware thread).
  explicit ThreadPool(int threads = 0);
  ~ThreadPool();
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  int size() const { return size_; }

  // Runs fn(begin, end) over [0, n) in chunks of at least `grain` items and returns when all are
  // done. The first exception thrown by fn is rethrown here (remaining chunks are skipped).
  void parallel_for(int64_t n, int64_t grain, const RangeFn& fn);

  // True on a thread that is running a parallel_for body (of any pool).
  static bool in_parallel_region();

 private:
  // The chunks [next, end) a thread still owns, packed as next << 32 | end so that its owner
  // (taking from the front) and a thread with none left (taking from the back) claim them with
  // one compare-and-swap. A cache line each, so that claims do not contend.
  struct alignas(64) Share {
    std::atomic<uint64_t> range{0};
  };

  struct Job {
    const RangeFn* fn = nullptr;
    int64_t n = 0, chunk = 1, chunks = 0;
    std::atomic<int64_t> finished{0};  // chunks run (or skipped after a failure)
    std::atomic<int> active{0};        // workers that took this job and have not let go of it
    std::exception_ptr error;
    std::atomic<bool> failed{false};
    TraceContext trace;  // the issuing thread's: chunks are recorded into it when it records
  };

  void worker_loop(int index);
  void share_out(int64_t chunks);
  int64_t claim_own(int self);
  int64_t claim_other(int self);
  void run_chunks(Job& job, int self);
  void run_chunk(Job& job, int64_t begin, int64_t end);
  void wait_for_chunks(Job& job);
  void retire(Job& job);
  void run_inline(int64_t n, const RangeFn& fn);

  int size_ = 1;
  std::vector<std::thread> workers_;
  std::unique_ptr<Share[]> shares_;  // one per thread, the caller's first; the current job's
  std::mutex mutex_;                 // guards job_, generation_, stop_, error
  std::condition_variable wake_, done_;
  Job* job_ = nullptr;
  uint64_t generation_ = 0;
  std::atomic<uint64_t> published_{0};  // generation_ readable without the lock, for spinning
  bool stop_ = false;
  std::mutex busy_;  // held by the thread that owns the current job
};

}  // namespace onnxtool
