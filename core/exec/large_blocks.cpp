// SPDX-License-Identifier: Apache-2.0
#include "core/exec/large_blocks.h"

#include <map>
#include <mutex>

#include "core/util/huge_pages.h"

namespace onnxtool::exec_detail {

namespace {

// Freed large blocks kept beyond this many bytes are unmapped. Sizes are kept to whole pages,
// not rounded further: a tensor that outlives the runs (a converted weight) must not take more
// than it uses, and a run's sizes repeat exactly.
constexpr std::size_t kMaxCachedBytes = std::size_t{256} << 20;

class LargeBlockAllocator final : public StorageAllocator {
 public:
  void* allocate(std::size_t bytes) override {
    if (bytes < kLargeBlockMin) return default_storage_allocator().allocate(bytes);
    const std::size_t size = huge_mapping_bytes(bytes);
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
      default_storage_allocator().release(block, bytes);
      return;
    }
    const std::size_t size = huge_mapping_bytes(bytes);
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
