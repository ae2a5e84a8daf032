// SPDX-License-Identifier: Apache-2.0
#include "core/util/huge_pages.h"

#include <cstdint>
#include <cstdlib>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace onnxtool {

#if defined(__linux__)

// A mapping one huge page longer than needed, trimmed at both ends to the aligned part.
void* map_huge_pages(std::size_t bytes) {
  const std::size_t size = huge_mapping_bytes(bytes);
  if (size < bytes || size + kHugePageBytes < size) throw std::bad_alloc();
  const std::size_t padded = size + kHugePageBytes;
  void* raw = mmap(nullptr, padded, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<std::uintptr_t>(raw);
  const std::uintptr_t aligned = (start + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  if (aligned > start) munmap(raw, aligned - start);
  const std::uintptr_t end = aligned + size;
  if (start + padded > end) munmap(reinterpret_cast<void*>(end), start + padded - end);
  void* block = reinterpret_cast<void*>(aligned);
  // Advice only: where the kernel has no huge pages to give, the block still works.
  (void)madvise(block, size, MADV_HUGEPAGE);
  return block;
}

void unmap_huge_pages(void* block, std::size_t bytes) noexcept {
  munmap(block, huge_mapping_bytes(bytes));
}

#else

void* map_huge_pages(std::size_t bytes) {
  void* p = std::aligned_alloc(kHugePageBytes,
                               (bytes + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes);
  if (!p) throw std::bad_alloc();
  return p;
}

void unmap_huge_pages(void* block, std::size_t) noexcept {
  std::free(block);
}

#endif

}  // namespace onnxtool
