// SPDX-License-Identifier: Apache-2.0
// Where the executor's large tensors live: carved from a few huge-page mappings, reused.
//
// A run allocates the same large tensors (the activations of each layer) every time. From
// malloc, each may land on fresh pages (a page fault per 4 KiB on first touch) and is mapped
// by 4 KiB pages, whose TLB entries a convolution streaming megabytes of activations and
// weights runs out of. This allocator carves blocks of 64 KiB and more from 2 MiB-aligned
// mappings the kernel is asked to back with transparent huge pages, lowest free address first,
// and keeps what is freed for the next request, so that a steady run maps nothing, faults on
// nothing, and keeps reusing the memory the layers before it just released (still in cache).
// Smaller blocks go to the default allocator.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <mutex>
#include <vector>

#include "core/types/tensor.h"
#include "core/util/huge_pages.h"

namespace onnxtool::exec_detail {

// The smallest request served from huge-page mappings.
inline constexpr std::size_t kLargeBlockMin = std::size_t{64} << 10;

// What a LargeBlockArena holds now.
struct LargeBlockStats {
  std::size_t mappings = 0;      // huge-page mappings blocks are carved from
  std::size_t mapped_bytes = 0;  // their size
  std::size_t free_bytes = 0;    // the part of it in no block
};

class LargeBlockArena final : public StorageAllocator {
 public:
  // Mappings are at least segment_bytes long (a larger request gets one of its own size).
  explicit LargeBlockArena(std::size_t segment_bytes = std::size_t{32} << 20);
  ~LargeBlockArena() override;
  LargeBlockArena(const LargeBlockArena&) = delete;
  LargeBlockArena& operator=(const LargeBlockArena&) = delete;

  void* allocate(std::size_t bytes) override;
  void release(void* block, std::size_t bytes) noexcept override;

  // While paused (a plan being built), blocks are made apart from the mappings runs carve.
  void pause();
  void resume();

  LargeBlockStats stats();

 private:
  struct Segment;
  Segment& new_segment(std::size_t bytes);
  std::size_t free_bytes() const;

  std::size_t segment_bytes_;
  std::mutex mutex_;
  std::vector<std::unique_ptr<Segment>> segments_;  // in the order they were mapped
  int paused_ = 0;
};

// The process's arena (created on first use, never destroyed: blocks may outlive any session).
LargeBlockArena& large_block_allocator();

// While one exists (on any thread), the process's arena is paused: planning makes and frees
// temporaries between long-lived tensors (converted weights), which left holes in the mappings
// runs carve and made them grow.
class LargeBlockArenaPaused {
 public:
  LargeBlockArenaPaused();
  ~LargeBlockArenaPaused();
  LargeBlockArenaPaused(const LargeBlockArenaPaused&) = delete;
  LargeBlockArenaPaused& operator=(const LargeBlockArenaPaused&) = delete;
};

}  // namespace onnxtool::exec_detail
