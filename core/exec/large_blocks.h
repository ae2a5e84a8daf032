// SPDX-License-Identifier: Apache-2.0
// Where the executor's large tensors live: blocks of whole huge pages, kept for reuse.
//
// A run allocates the same large tensors (the activations of each layer) every time. From
// malloc, each may land on fresh pages (a page fault per 4 KiB on first touch) and is mapped
// by 4 KiB pages, whose TLB entries a convolution streaming megabytes of activations and
// weights runs out of. This allocator serves blocks of 1 MiB and more from 2 MiB-aligned
// mappings the kernel is asked to back with transparent huge pages, and keeps freed ones for
// the next request of the same size (up to a bound), so that a steady run maps nothing
// and faults on nothing. Smaller blocks go to the default allocator.
#pragma once

#include <cstddef>

#include "core/types/tensor.h"
#include "core/util/huge_pages.h"

namespace onnxtool::exec_detail {

// The process's large-block allocator (created on first use, never destroyed: blocks may
// outlive any session).
StorageAllocator& large_block_allocator();

// While one exists (on any thread), freed blocks are unmapped, not kept: planning makes and
// frees temporaries of sizes the runs never ask for again, which would only stay resident.
class LargeBlockCachingPaused {
 public:
  LargeBlockCachingPaused();
  ~LargeBlockCachingPaused();
  LargeBlockCachingPaused(const LargeBlockCachingPaused&) = delete;
  LargeBlockCachingPaused& operator=(const LargeBlockCachingPaused&) = delete;
};

// The smallest request served from huge-page mappings (for tests).
inline constexpr std::size_t kLargeBlockMin = std::size_t{1} << 20;

}  // namespace onnxtool::exec_detail
