// SPDX-License-Identifier: Apache-2.0
#include "core/exec/large_blocks.h"

#include <algorithm>

namespace onnxtool::exec_detail {

namespace {

// Mappings all of whose blocks are free are unmapped once the free bytes pass this bound.
constexpr std::size_t kMaxFreeBytes = std::size_t{256} << 20;
// A block made apart (while paused) from this size on gets a mapping of its own.
constexpr std::size_t kApartMappedMin = std::size_t{1} << 20;
// Blocks start on this boundary (Storage asks for multiples of 64 bytes already).
constexpr std::size_t kGrain = 64;

std::size_t rounded(std::size_t bytes) {
  return (bytes + kGrain - 1) / kGrain * kGrain;
}

void* allocate_apart(std::size_t bytes) {
  if (bytes < kApartMappedMin) return default_storage_allocator().allocate(bytes);
  return map_huge_pages(bytes);
}

void release_apart(void* block, std::size_t bytes) noexcept {
  if (bytes < kApartMappedMin) return default_storage_allocator().release(block, bytes);
  unmap_huge_pages(block, bytes);
}

}  // namespace

// One mapping and the free ranges in it, by offset, adjacent ranges merged.
struct LargeBlockArena::Segment {
  std::byte* base = nullptr;
  std::size_t size = 0;
  std::size_t free_bytes = 0;
  std::map<std::size_t, std::size_t> free;  // offset -> length

  bool holds(const void* p) const {
    const auto* b = static_cast<const std::byte*>(p);
    return b >= base && b < base + size;
  }
  bool all_free() const { return free_bytes == size; }

  // The lowest free range that fits `bytes`, taken from its front; nullptr when none fits.
  std::byte* take_first_fit(std::size_t bytes) {
    for (auto it = free.begin(); it != free.end(); ++it) {
      const auto [offset, length] = *it;
      if (length < bytes) continue;
      free.erase(it);
      if (length > bytes) free.emplace(offset + bytes, length - bytes);
      free_bytes -= bytes;
      return base + offset;
    }
    return nullptr;
  }

  // Returns [p, p + bytes) to the free ranges, merged with free neighbours.
  void give_back(std::byte* p, std::size_t bytes) {
    const auto offset = static_cast<std::size_t>(p - base);
    std::size_t length = bytes;
    free_bytes += bytes;
    auto next = free.lower_bound(offset);
    if (next != free.end() && next->first == offset + length) {
      length += next->second;
      next = free.erase(next);
    }
    if (next != free.begin()) {
      const auto before = std::prev(next);
      if (before->first + before->second == offset) {
        before->second += length;
        return;
      }
    }
    free.emplace(offset, length);
  }
};

LargeBlockArena::LargeBlockArena(std::size_t segment_bytes) : segment_bytes_(segment_bytes) {}

LargeBlockArena::~LargeBlockArena() {
  for (const auto& segment : segments_) unmap_huge_pages(segment->base, segment->size);
}

// The lowest free range that fits, in the mappings in the order they were made. A run frees
// each activation after its last reader, so this is most often memory a layer just released,
// and a run keeps cycling through about its peak of live bytes. Blocks kept by exact size
// instead gave every value of a run memory of its own: a whole run's activations (MobileNetV2:
// tens of MiB) passed through the last-level cache, and each layer wrote its output into lines
// evicted since the previous run.
void* LargeBlockArena::allocate(std::size_t bytes) {
  if (bytes < kLargeBlockMin) return default_storage_allocator().allocate(bytes);
  const std::size_t size = rounded(bytes);
  const std::lock_guard<std::mutex> lock(mutex_);
  if (paused_ > 0) return allocate_apart(bytes);
  for (auto& segment : segments_)
    if (std::byte* block = segment->take_first_fit(size)) return block;
  return new_segment(size).take_first_fit(size);
}

void LargeBlockArena::release(void* block, std::size_t bytes) noexcept {
  if (bytes < kLargeBlockMin) return default_storage_allocator().release(block, bytes);
  const std::lock_guard<std::mutex> lock(mutex_);
  const auto it = std::find_if(segments_.begin(), segments_.end(),
                               [&](const auto& s) { return s->holds(block); });
  if (it == segments_.end()) return release_apart(block, bytes);
  Segment& segment = **it;
  segment.give_back(static_cast<std::byte*>(block), rounded(bytes));
  if (segment.all_free() && free_bytes() > kMaxFreeBytes) {
    unmap_huge_pages(segment.base, segment.size);
    segments_.erase(it);
  }
}

void LargeBlockArena::pause() {
  const std::lock_guard<std::mutex> lock(mutex_);
  ++paused_;
}

void LargeBlockArena::resume() {
  const std::lock_guard<std::mutex> lock(mutex_);
  --paused_;
}

LargeBlockStats LargeBlockArena::stats() {
  const std::lock_guard<std::mutex> lock(mutex_);
  LargeBlockStats s;
  for (const auto& segment : segments_) {
    s.mapped_bytes += segment->size;
    s.free_bytes += segment->free_bytes;
  }
  s.mappings = segments_.size();
  return s;
}

LargeBlockArena::Segment& LargeBlockArena::new_segment(std::size_t bytes) {
  auto segment = std::make_unique<Segment>();
  segment->size = huge_mapping_bytes(std::max(bytes, segment_bytes_));
  segment->base = static_cast<std::byte*>(map_huge_pages(segment->size));
  segment->free_bytes = segment->size;
  segment->free.emplace(0, segment->size);
  segments_.push_back(std::move(segment));
  return *segments_.back();
}

std::size_t LargeBlockArena::free_bytes() const {
  std::size_t total = 0;
  for (const auto& segment : segments_) total += segment->free_bytes;
  return total;
}

LargeBlockArena& large_block_allocator() {
  // Leaked on purpose: tensors holding its blocks may be destroyed after static destructors.
  static auto* arena = new LargeBlockArena();
  return *arena;
}

LargeBlockArenaPaused::LargeBlockArenaPaused() {
  large_block_allocator().pause();
}

LargeBlockArenaPaused::~LargeBlockArenaPaused() {
  large_block_allocator().resume();
}

}  // namespace onnxtool::exec_detail
