// SPDX-License-Identifier: Apache-2.0
// Scratch buffers that kernels keep between calls (thread_local vectors): grown when a call needs
// more, never shrunk or cleared.
#pragma once

#include <cstddef>
#include <vector>

namespace onnxtool {

// The first n elements of v, grown to hold them if it is smaller. The contents are whatever an
// earlier call left: callers write what they read. (std::vector::resize value-initialises what it
// adds, so a buffer shared by layers of different sizes, resized to each, was zeroed again every
// time a bigger layer followed a smaller one: MobileNetV2's 7x7 layers spent 15-70 us each so,
// before their first parallel loop.)
template <class T>
T* scratch_of(std::vector<T>& v, std::size_t n) {
  if (v.size() < n) v.resize(n);
  return v.data();
}

}  // namespace onnxtool
