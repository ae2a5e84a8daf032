// SPDX-License-Identifier: Apache-2.0
#include "core/exec/large_blocks.h"

#include <cstdint>
#include <cstdlib>
#include <map>
#include <mutex>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace onnxtool::exec_detail {

namespace {

// Freed large blocks kept beyond this many bytes are unmapped.
constexpr std::size_t kMaxCachedBytes = std::size_t{512} << 20;

std::size_t round_up(std::size_t bytes, std::size_t to) {
  return (bytes + to - 1) / to * to;
}

void* small_block(std::size_t bytes) {
  void* p = std::aligned_alloc(64, bytes);
  if (!p) throw std::bad_alloc();
  return p;
}

#if defined(__linux__)

// `size` bytes (a multiple of the granule) at a granule-aligned address, with huge pages asked
// for: a mapping one granule longer, trimmed at both ends.
void* map_aligned(std::size_t size) {
  const std::size_t padded = size + kLargeBlockGranule;
  void* raw = mmap(nullptr, padded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = round_up(start, kLargeBlockGranule);
  if (aligned > start) munmap(raw, aligned - start);
  const std::uintptr_t end = aligned + size;
  if (start + padded > end) munmap(reinterpret_cast<void*>(end), start + padded - end);
  void* block = reinterpret_cast<void*>(aligned);
  // Advice only: where the kernel has no huge pages to give, the block still works.
  (void)madvise(block, size, MADV_HUGEPAGE);
  return block;
}

void unmap(void* block, std::size_t size) {
  munmap(block, size);
}

#else

void* map_aligned(std::size_t size) {
  void* p = std::aligned_alloc(kLargeBlockGranule, size);
  if (!p) throw std::bad_alloc();
  return p;
}

void unmap(void* block, std::size_t) {
  std::free(block);
}

#endif

class LargeBlockAllocator final : public StorageAllocator {
 public:
  void* allocate(std::size_t bytes) override {
    if (bytes < kLargeBlockMin) return small_block(bytes);
    const std::size_t size = round_up(bytes, kLargeBlockGranule);
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
    return map_aligned(size);
  }

  void release(void* block, std::size_t bytes) noexcept override {
    if (bytes < kLargeBlockMin) {
      std::free(block);
      return;
    }
    const std::size_t size = round_up(bytes, kLargeBlockGranule);
    {
      const std::lock_guard<std::mutex> lock(mutex_);
      if (cached_ + size <= kMaxCachedBytes) {
        free_.emplace(size, block);
        cached_ += size;
        return;
      }
    }
    unmap(block, size);
  }

 private:
  std::mutex mutex_;
  std::multimap<std::size_t, void*> free_;  // by size
  std::size_t cached_ = 0;
};

}  // namespace

StorageAllocator& large_block_allocator() {
  // Leaked on purpose: tensors holding its blocks may be destroyed after static destructors.
  static auto* allocator = new LargeBlockAllocator();
  return *allocator;
}

}  // namespace onnxtool::exec_detail
