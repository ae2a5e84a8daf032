// SPDX-License-Identifier: Apache-2.0
#include "core/exec/thread_pool.h"

#include <algorithm>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#endif

namespace onnxtool {

namespace {

thread_local int t_region_depth = 0;

// Marks the current thread as running a parallel_for body while alive.
struct RegionGuard {
  RegionGuard() { ++t_region_depth; }
  ~RegionGuard() { --t_region_depth; }
  RegionGuard(const RegionGuard&) = delete;
  RegionGuard& operator=(const RegionGuard&) = delete;
};

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  _mm_pause();
#endif
}

// Workers poll this many times before sleeping: kernels often issue parallel_for calls back to
// back, and waking a sleeping thread costs tens of microseconds; a short poll (a few
// microseconds) keeps that latency off small operators without burning a core when idle.
constexpr int kSpinPolls = 4000;

}  // namespace

int resolve_thread_count(int requested) {
  if (requested > 0) return requested;
  const unsigned hw = std::thread::hardware_concurrency();
  return hw ? static_cast<int>(hw) : 1;
}

ThreadPool::ThreadPool(int threads)
    : size_(resolve_thread_count(threads)), shares_(std::make_unique<Share[]>(size_)) {
  workers_.reserve(static_cast<std::size_t>(size_ - 1));
  for (int i = 1; i < size_; ++i) workers_.emplace_back([this, i] { worker_loop(i); });
}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    stop_ = true;
    published_.store(++generation_, std::memory_order_release);
  }
  wake_.notify_all();
  for (auto& t : workers_) t.join();
}

bool ThreadPool::in_parallel_region() {
  return t_region_depth > 0;
}

void ThreadPool::run_inline(int64_t n, const RangeFn& fn) {
  RegionGuard guard;
  fn(0, n);
}

void ThreadPool::parallel_for(int64_t n, int64_t grain, const RangeFn& fn) {
  if (n <= 0) return;
  grain = std::max<int64_t>(grain, 1);
  const int64_t max_chunks = (n + grain - 1) / grain;
  if (size_ == 1 || max_chunks == 1 || in_parallel_region()) return run_inline(n, fn);
  // Another thread (a second run on a shared pool) owns the workers: do the work here.
  std::unique_lock<std::mutex> owner(busy_, std::try_to_lock);
  if (!owner.owns_lock()) return run_inline(n, fn);

  // A few chunks per thread even out uneven work without much scheduling overhead.
  Job job;
  job.fn = &fn;
  job.n = n;
  const int64_t chunks = std::min<int64_t>(max_chunks, static_cast<int64_t>(size_) * 4);
  job.chunk = (n + chunks - 1) / chunks;
  job.chunks = (n + job.chunk - 1) / job.chunk;
  job.trace = current_trace();
  share_out(job.chunks);
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = &job;
    published_.store(++generation_, std::memory_order_release);
  }
  wake_.notify_all();
  run_chunks(job, 0);
  wait_for_chunks(job);
  retire(job);
  if (job.error) std::rethrow_exception(job.error);
}

// Returns when every chunk has run. The caller polls first: the last chunk is usually a worker's
// and ends within microseconds, and sleeping on the condition variable would add a futex wake-up
// (tens of microseconds on this kind of machine) to every parallel_for that ends on a worker.
void ThreadPool::wait_for_chunks(Job& job) {
  auto all_done = [&] { return job.finished.load(std::memory_order_acquire) >= job.chunks; };
  for (int i = 0; i < kSpinPolls && !all_done(); ++i) cpu_relax();
  if (all_done()) return;
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, all_done);
}

// Withdraws the job (no worker takes it from now on) and waits for the workers that took it to
// let go of it, since it lives on the caller's stack. A worker that has not woken yet never
// touches it, so a run that the caller finished alone does not wait for a sleeping worker.
void ThreadPool::retire(Job& job) {
  {
    std::lock_guard<std::mutex> lock(mutex_);
    job_ = nullptr;
  }
  // Whoever still holds it has no chunk left to run: only its last few instructions.
  while (job.active.load(std::memory_order_acquire) != 0) std::this_thread::yield();
}

namespace {

// A thread's chunks [next, end), as ThreadPool::Share holds them.
struct ChunkRange {
  int64_t next, end;
};

constexpr uint64_t pack_range(int64_t next, int64_t end) {
  return static_cast<uint64_t>(next) << 32 | static_cast<uint64_t>(end);
}

constexpr ChunkRange unpack_range(uint64_t r) {
  return {static_cast<int64_t>(r >> 32), static_cast<int64_t>(r & 0xffffffffu)};
}

}  // namespace

// Thread i owns the i-th run of consecutive chunks. The same thread then handles the same part
// of every layer's output, run after run, and the next layer, split the same way, finds its
// part in that core's cache: handing chunks out one by one to whoever came next sent the
// output's lines from core to core (a 64 -> 256 1x1 layer on 56x56 took 1.6x longer per chunk
// on two threads than on one). A thread that runs out takes the others' last chunks.
void ThreadPool::share_out(int64_t chunks) {
  for (int i = 0; i < size_; ++i)
    shares_[i].range.store(pack_range(i * chunks / size_, (i + 1) * chunks / size_),
                           std::memory_order_relaxed);
}

// The first chunk `self` still owns, taken, or -1.
int64_t ThreadPool::claim_own(int self) {
  std::atomic<uint64_t>& range = shares_[self].range;
  uint64_t r = range.load(std::memory_order_relaxed);
  for (;;) {
    const auto [next, end] = unpack_range(r);
    if (next >= end) return -1;
    if (range.compare_exchange_weak(r, pack_range(next + 1, end), std::memory_order_relaxed))
      return next;
  }
}

// The last chunk another thread still owns, taken, or -1 when none is left.
int64_t ThreadPool::claim_other(int self) {
  for (int k = 1; k < size_; ++k) {
    std::atomic<uint64_t>& range = shares_[(self + k) % size_].range;
    uint64_t r = range.load(std::memory_order_relaxed);
    for (;;) {
      const auto [next, end] = unpack_range(r);
      if (next >= end) break;
      if (range.compare_exchange_weak(r, pack_range(next, end - 1), std::memory_order_relaxed))
        return end - 1;
    }
  }
  return -1;
}

void ThreadPool::run_chunks(Job& job, int self) {
  RegionGuard guard;
  for (;;) {
    int64_t c = claim_own(self);
    if (c < 0) c = claim_other(self);
    if (c < 0) return;
    if (!job.failed.load(std::memory_order_relaxed)) {
      const int64_t begin = c * job.chunk;
      const int64_t end = std::min(job.n, begin + job.chunk);
      try {
        run_chunk(job, begin, end);
      } catch (...) {
        // Only the first failure is kept; the flag makes everyone else skip their next chunks.
        if (!job.failed.exchange(true)) job.error = std::current_exception();
      }
    }
    // A skipped chunk counts too, so that the caller's wait ends after a failure.
    if (job.finished.fetch_add(1, std::memory_order_acq_rel) + 1 == job.chunks) {
      std::lock_guard<std::mutex> lock(mutex_);
      done_.notify_all();
    }
  }
}

// One chunk, recorded as a span of the issuing node when its run is traced (the worker then
// records what the chunk runs, a subgraph's nodes say, into the same trace).
void ThreadPool::run_chunk(Job& job, int64_t begin, int64_t end) {
  TraceRecorder* recorder = job.trace.recorder;
  if (!recorder) return (*job.fn)(begin, end);
  const TraceScope scope(job.trace);
  TraceSpan span;
  span.node = job.trace.node;
  span.thread = trace_thread();
  span.chunk = true;
  span.first_item = begin;
  span.end_item = end;
  span.begin_ns = recorder->now_ns();
  (*job.fn)(begin, end);
  span.end_ns = recorder->now_ns();
  recorder->add(span);
}

void ThreadPool::worker_loop(int index) {
  set_trace_thread(index);
  uint64_t seen = 0;
  for (;;) {
    for (int i = 0; i < kSpinPolls && published_.load(std::memory_order_acquire) == seen; ++i)
      cpu_relax();
    Job* job = nullptr;
    {
      std::unique_lock<std::mutex> lock(mutex_);
      wake_.wait(lock, [&] { return stop_ || generation_ != seen; });
      if (stop_) return;
      seen = generation_;
      job = job_;
      // Taken under the lock, so the caller's retire() either sees this worker or withdrew the
      // job before it could be taken.
      if (job) job->active.fetch_add(1, std::memory_order_relaxed);
    }
    if (!job) continue;
    run_chunks(*job, index);
    // The last touch of the job: the caller may return (and free it) right after.
    job->active.fetch_sub(1, std::memory_order_release);
  }
}

}  // namespace onnxtool
