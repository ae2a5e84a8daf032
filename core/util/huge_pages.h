// SPDX-License-Identifier: Apache-2.0
// Memory the kernel is asked to back with transparent huge pages (2 MiB on x86-64).
//
// Arrays of megabytes that are streamed through again and again (packed weights, the
// activations of a layer) touch one TLB entry per 4 KiB page; backed by 2 MiB pages they need
// 512 times fewer, and a run stops missing the TLB on them. Linux gives huge pages only to
// mappings advised so (the usual "madvise" setting) whose 2 MiB-aligned ranges they cover: the
// mappings here start on a 2 MiB boundary.
#pragma once

#include <cstddef>
#include <new>

namespace onnxtool {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// Whether memory comes from these mappings at all: not under AddressSanitizer, which checks
// the bounds of malloc's and operator new's blocks only.
#if defined(__SANITIZE_ADDRESS__)
inline constexpr bool kUseHugePageMappings = false;
#else
inline constexpr bool kUseHugePageMappings = true;
#endif

// What a mapping of `bytes` takes: whole 4 KiB pages.
constexpr std::size_t huge_mapping_bytes(std::size_t bytes) {
  return (bytes + 4095) / 4096 * 4096;
}

// A zero-filled mapping of huge_mapping_bytes(bytes) starting on a huge-page boundary. Throws
// std::bad_alloc.
void* map_huge_pages(std::size_t bytes);
// Unmaps what map_huge_pages(bytes) gave, with the same `bytes`.
void unmap_huge_pages(void* block, std::size_t bytes) noexcept;

// A std::allocator for arrays of 2 MiB and more (packed weights): those come from
// map_huge_pages (where kUseHugePageMappings), smaller ones from operator new, 64-byte aligned.
template <class T>
struct HugePageAllocator {
  using value_type = T;
  HugePageAllocator() = default;
  template <class U>
  HugePageAllocator(const HugePageAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    if (n > static_cast<std::size_t>(-1) / sizeof(T)) throw std::bad_alloc();
    const std::size_t bytes = n * sizeof(T);
    if (mapped(bytes)) return static_cast<T*>(map_huge_pages(bytes));
    return static_cast<T*>(::operator new (bytes, std::align_val_t{64}));
  }
  void deallocate(T* p, std::size_t n) noexcept {
    const std::size_t bytes = n * sizeof(T);
    if (mapped(bytes))
      unmap_huge_pages(p, bytes);
    else
      ::operator delete (p, std::align_val_t{64});
  }
  static constexpr bool mapped(std::size_t bytes) {
    return kUseHugePageMappings && bytes >= kHugePageBytes;
  }
  template <class U>
  bool operator==(const HugePageAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace onnxtool
