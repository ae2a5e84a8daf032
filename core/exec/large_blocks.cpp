// SPDX-License-Identifier: Apache-2.0
#include "core/exec/large_blocks.h"

#include <cstdlib>
#include <map>
#include <mutex>
#include <new>

#include "core/util/huge_pages.h"

namespace onnxtool::exec_detail {

namespace {

// Freed large blocks kept beyond this many bytes are unmapped.
constexpr std::size_t kMaxCachedBytes = std::size_t{256} << 20;
// Sizes are kept to whole pages, not rounded further: a tensor that outlives the runs (a
// converted weight) must not take more than it uses, and a run's sizes repeat exactly.
constexpr std::size_t kPageBytes = 4096;

std::size_t round_up(std::size_t bytes, std::size_t to) {
  return (bytes + to - 1) / to * to;
}

void* small_block(std::size_t bytes) {
  void* p = std::aligned_alloc(64, bytes);
  if (!p) throw std::bad_alloc();
  return p;
}

class LargeBlockAllocator final : public StorageAllocator {
 public:
  void* allocate(std::size_t bytes) override {
    if (bytes < kLargeBlockMin) return small_block(bytes);
    const std::size_t size = round_up(bytes, kPageBytes);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      const auto it = free_.find(size);
      if (it != free_.end()) {
        void* block = it->second;
        free_.erase(it);
        cached_ -= size;
        return block;
      }
    }
    return map_huge_pages(size);
  }

  void release(void* block, std::size_t bytes) noexcept override {
    if (bytes < kLargeBlockMin) {
      std::free(block);
      return;
    }
    const std::size_t size = round_up(bytes, kPageBytes);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (paused_ == 0 && cached_ + size <= kMaxCachedBytes) {
        free_.emplace(size, block);
        cached_ += size;
        return;
      }
    }
    unmap_huge_pages(block, size);
  }

  void pause() {
    const std::lock_guard<std::mutex> lock(mutex_);
    ++paused_;
  }
  void resume() {
    const std::lock_guard<std::mutex> lock(mutex_);
    --paused_;
  }

 private:
  std::mutex mutex_;
  std::multimap<std::size_t, void*> free_;  // by size
  std::size_t cached_ = 0;
  int paused_ = 0;  // LargeBlockCachingPaused objects alive
};

}  // namespace

namespace {

LargeBlockAllocator& the_allocator() {
  // Leaked on purpose: tensors holding its blocks may be destroyed after static destructors.
  static auto* allocator = new LargeBlockAllocator();
  return *allocator;
}

}  // namespace

StorageAllocator& large_block_allocator() {
  return the_allocator();
}

LargeBlockCachingPaused::LargeBlockCachingPaused() {
  the_allocator().pause();
}

LargeBlockCachingPaused::~LargeBlockCachingPaused() {
  the_allocator().resume();
}

}  // namespace onnxtool::exec_detail
