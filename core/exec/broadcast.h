// SPDX-License-Identifier: Apache-2.0
// Numpy broadcasting (Broadcasting.md) for kernels: the output shape of broadcast inputs, and a
// plan that walks the output row by row with each input's element offsets, merging the dims
// every input steps through alike. The element-wise operators (ops/onnx/elementwise.h) and the
// executor's element-wise regions (core/exec/elementwise_region.h) share it.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/exec/kernel.h"
#include "core/types/tensor.h"

namespace onnxtool {

// How to walk an output and its broadcast inputs: the output's dims with runs of dims that every
// input steps through alike merged into one (a same-shape add is one dim), size-1 dims dropped.
struct Broadcast {
  Shape shape;                                // the output's shape
  int64_t numel = 0;                          // its element count
  std::vector<int64_t> dims;                  // the collapsed dims, at least one
  std::vector<std::vector<int64_t>> strides;  // per input, per collapsed dim: 0 when broadcast

  // The innermost stride of input k: 0 (broadcast) or 1.
  int64_t inner_stride(std::size_t k) const { return strides[k].back(); }
};

// The multidirectional (numpy) broadcast of the shapes (Broadcasting.md); fail()s naming them all
// when two dims differ and neither is 1.
Shape broadcast_shapes(const KernelContext& ctx, std::span<const Shape* const> shapes);
// The plan for walking `out` with inputs of the given shapes, each broadcastable to it.
Broadcast plan_broadcast(const Shape& out, std::span<const Shape* const> inputs);

// "[2,3], [3] and [1]": shapes as a message names them.
std::string shapes_text(std::span<const Shape* const> shapes);

// Walks output elements [begin, end) of the plan row by row: row(offsets, at, n) gets each
// input's element offset at output element `at`, for n elements along the innermost dim.
template <std::size_t N, class Row>
void walk_rows(const Broadcast& p, int64_t begin, int64_t end, Row&& row) {
  const std::size_t outer_rank = p.dims.size() - 1;
  const int64_t inner = p.dims.back();
  // The odometer on the stack for the ranks plans have (merged dims, rarely past 4): the region
  // kernel walks each block of 512 elements anew, and a vector here was an allocation each.
  constexpr std::size_t kStackRank = 8;
  std::array<int64_t, kStackRank> stack_idx{};
  std::vector<int64_t> heap_idx;
  int64_t* idx = stack_idx.data();
  if (outer_rank > kStackRank) {
    heap_idx.assign(outer_rank, 0);
    idx = heap_idx.data();
  }
  std::array<int64_t, N> base{};
  int64_t outer = begin / inner, pos = begin % inner;
  for (std::size_t d = outer_rank; d-- > 0;) {
    idx[d] = outer % p.dims[d];
    outer /= p.dims[d];
    for (std::size_t k = 0; k < N; ++k) base[k] += idx[d] * p.strides[k][d];
  }
  for (int64_t at = begin; at < end;) {
    const int64_t n = std::min(inner - pos, end - at);
    std::array<int64_t, N> off{};
    for (std::size_t k = 0; k < N; ++k) off[k] = base[k] + pos * p.strides[k][outer_rank];
    row(off, at, n);
    at += n;
    pos = 0;
    for (std::size_t d = outer_rank; d-- > 0;) {  // the next row: an odometer over outer dims
      for (std::size_t k = 0; k < N; ++k) base[k] += p.strides[k][d];
      if (++idx[d] < p.dims[d]) break;
      for (std::size_t k = 0; k < N; ++k) base[k] -= p.dims[d] * p.strides[k][d];
      idx[d] = 0;
    }
  }
}

}  // namespace onnxtool
